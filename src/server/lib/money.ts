// A deal's amount is kept in minor units (cents): exact, and what a payment order and the EPC QR code carry. Offers
// and counter-offers are whole units of their currency; they become minor units once, when a deal is made.
import { LOCALE, type Language } from '../../shared/language.ts'

const digitsCache = new Map<string, number>()

/** How many minor digits a currency has (EUR 2, JPY 0), as Intl knows it. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency)
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    digitsCache.set(currency, digits)
  }
  return digits
}

/** Whole units (an offer) in minor units. */
export const toMinor = (whole: number, currency: string) => whole * 10 ** minorDigits(currency)

// One format per language, currency and kind of amount, made on first use: a deal page or a mail of rates writes many.
const formats = new Map<string, Intl.NumberFormat>()

/** "12,34 €" / "€12.34" / "12,34 €" in French; whole amounts without decimals ("4.900 €"). */
export function formatMinor(minor: number, currency: string, language: Language = 'de'): string {
  const digits = minorDigits(currency)
  const whole = minor % 10 ** digits === 0
  // Integer arithmetic for the value; Intl only draws it.
  const value = minor / 10 ** digits
  const key = `${language} ${currency} ${whole}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(LOCALE[language], { style: 'currency', currency, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits })
    formats.set(key, format)
  }
  return format.format(value)
}

/** "12.34": the amount as a decimal string with a dot, from the integer, never through a float's rounding. */
export function decimalOf(minor: number, currency: string): string {
  const digits = minorDigits(currency)
  if (digits === 0) return String(minor)
  const text = String(minor).padStart(digits + 1, '0')
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}
