// Which VAT treatment a sale of a domain gets, and the amounts, exact in minor units (decision 038). The rules are
// German law as of 2026: §19 UStG (Kleinunternehmer), §3a Abs. 2 (place of a service to a business: where the
// business is), §13b Abs. 1/5 (reverse charge inside the EU), §14 Abs. 4 and §14a (what the invoice says).

/** The member states of the EU (ISO 3166-1 alpha-2; Greece is GR here, EL only in VAT IDs). */
const EU_COUNTRIES: ReadonlySet<string> = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '))

/**
 * - `standard`: German VAT at the seller's rate (a buyer in Germany, a consumer in the EU, or a business in another
 *   member state without a VAT ID, which has not shown that it buys as a business).
 * - `small-business`: no VAT shown, §19 UStG.
 * - `reverse-charge`: a business in another member state with its VAT ID: the buyer owes the VAT (§13b).
 * - `outside-eu`: a buyer outside the EU: the service is not taxable in Germany (§3a).
 */
export type TaxCase = 'standard' | 'small-business' | 'reverse-charge' | 'outside-eu'

export function taxCaseOf(seller: { smallBusiness: boolean; country: string }, buyer: { country: string | null; vatId: string | null }): TaxCase {
  if (seller.smallBusiness) return 'small-business'
  const country = buyer.country?.toUpperCase() ?? null
  if (country === null || country === seller.country) return 'standard'
  if (!EU_COUNTRIES.has(country)) return 'outside-eu'
  return buyer.vatId ? 'reverse-charge' : 'standard'
}

export interface Amounts {
  net: number
  vat: number
  gross: number
  /** In hundredths of a percent: 1900 is 19 %. */
  rateBasisPoints: number
}

/** Half away from zero ("kaufmännisch"), in integers: numerator / denominator with both positive. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n)
}

/**
 * The amounts of a gross price (what the buyer pays: the deal's amount). The net is rounded half up and the VAT is
 * the rest, so net + VAT = gross to the cent, always; the VAT then differs from net × rate by at most half a cent.
 */
export function amountsFromGross(gross: number, rateBasisPoints: number): Amounts {
  if (!Number.isSafeInteger(gross) || gross < 0) throw new RangeError('gross must be a whole number of minor units')
  if (!Number.isInteger(rateBasisPoints) || rateBasisPoints < 0 || rateBasisPoints > 10_000) throw new RangeError('rate out of range')
  const net = Number(roundHalfUp(BigInt(gross) * 10_000n, 10_000n + BigInt(rateBasisPoints)))
  return { net, vat: gross - net, gross, rateBasisPoints }
}

/** The amounts of a case: without VAT every case but `standard`. */
export const amountsOf = (gross: number, taxCase: TaxCase, rateBasisPoints: number): Amounts =>
  taxCase === 'standard' ? amountsFromGross(gross, rateBasisPoints) : { net: gross, vat: 0, gross, rateBasisPoints: 0 }

/** "19" or "7,5" / "7.5": a rate for the invoice's text. */
export const rateText = (basisPoints: number, decimal: ',' | '.') => {
  const whole = Math.trunc(basisPoints / 100)
  const fraction = String(basisPoints % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return fraction ? `${whole}${decimal}${fraction}` : String(whole)
}
