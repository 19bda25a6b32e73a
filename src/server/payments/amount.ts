// An amount of a bank statement ("4900.00", at most 18 digits, at most 5 of them after the point: ISO 20022's
// ActiveOrHistoricCurrencyAndAmount) in minor units of its currency, read from its digits: never through a float.
import { minorDigits } from '../lib/money.ts'

const DECIMAL = /^(\d{1,18})(?:\.(\d{1,5}))?$/

/** A currency code as ISO 4217 writes it; Intl knows its minor digits (an unknown well-formed code has 2). */
export const isCurrencyCode = (code: string) => /^[A-Z]{3}$/.test(code)

/**
 * Minor units, or why not: 'format' (not a plain decimal, a sign, an exponent, a comma), 'precision' (cents of a
 * cent that are not zero), 'range' (more than JavaScript counts exactly).
 */
export function parseMinor(text: string, currency: string): number | 'format' | 'precision' | 'range' {
  const match = DECIMAL.exec(text.trim())
  if (!match) return 'format'
  const [, whole, fraction = ''] = match
  if (whole!.length + fraction.length > 18) return 'format'
  const digits = minorDigits(currency)
  if (/[^0]/.test(fraction.slice(digits))) return 'precision'
  const minor = BigInt(whole!) * 10n ** BigInt(digits) + BigInt(fraction.slice(0, digits).padEnd(digits, '0') || '0')
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? 'range' : Number(minor)
}
