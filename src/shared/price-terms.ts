// A domain's price in words, as the page and its link-preview image show it: the domains file's price, priceType
// and vat. The server decides what may be shown (server/sites/settings.ts: no amount when the price is on request).
import { TEXT } from './texts.ts'

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

const LABELS = { fixed: TEXT.priceFixed, negotiable: TEXT.priceNegotiable } as const

/** The words for the price terms; none without an amount, unless the price is on request (which never has one). */
export function priceText(terms: PriceTerms): PriceWords | undefined {
  if (terms.priceType === 'on-request') return { line: TEXT.priceOnRequest }
  const { price, priceType } = terms
  if (price === undefined) return undefined
  const words: PriceWords = priceType
    ? { line: TEXT.pricedAs(LABELS[priceType], price), terms: { label: LABELS[priceType], amount: price } }
    : { line: TEXT.price(price) }
  if (terms.vat) words.vat = terms.vat === 'included' ? TEXT.vatIncluded : TEXT.vatExcluded
  return words
}

/** The price and its VAT note in one line, for the link-preview image. */
export const priceLine = (words: PriceWords) => (words.vat ? `${words.line} ${words.vat}` : words.line)
