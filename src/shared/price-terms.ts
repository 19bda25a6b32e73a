// A domain's price in words, as the page and its link-preview image show it: the domains file's price, priceType
// and vat. The server decides what may be shown (server/sites/settings.ts: no amount when the price is on request).
import type { Language } from './language.ts'
import { textsOf } from './texts.ts'

type PriceType = 'fixed' | 'negotiable' | 'on-request'

/** The price terms a visitor may see. */
export interface PriceTerms {
  /** The amount, formatted in the domain's currency ("4.900 €"); never present when the price is on request. */
  price?: string
  priceType?: PriceType
  vat?: 'included' | 'excluded'
}

interface PriceWords {
  /** The price in one line: "Festpreis: 4.900 €", "Preis: 4.900 €" (no priceType), "Preis auf Anfrage". */
  line: string
  /** With a fixed or negotiable price: its terms and the amount, which the page sets one above the other. */
  terms?: { label: string; amount: string }
  vat?: string
}

/**
 * The words for the price terms in the page's language; none without an amount, unless the price is on request
 * (which never has one).
 */
export function priceText(terms: PriceTerms, language: Language = 'de'): PriceWords | undefined {
  const text = textsOf(language)
  if (terms.priceType === 'on-request') return { line: text.priceOnRequest }
  const { price, priceType } = terms
  if (price === undefined) return undefined
  const label = priceType && (priceType === 'fixed' ? text.priceFixed : text.priceNegotiable)
  const words: PriceWords = label ? { line: text.pricedAs(label, price), terms: { label, amount: price } } : { line: text.price(price) }
  if (terms.vat) words.vat = terms.vat === 'included' ? text.vatIncluded : text.vatExcluded
  return words
}

/** The price and its VAT note in one line, for the link-preview image. */
export const priceLine = (words: PriceWords) => (words.vat ? `${words.line} ${words.vat}` : words.line)
