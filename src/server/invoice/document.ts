// What an invoice says, frozen when it is issued (decision 038): the row keeps this snapshot, and the PDF and the
// E-Rechnung are drawn from it alone, so they never change with the configuration, the domains file or a buyer who
// is later forgotten.
import type { InvoiceLanguage } from './texts.ts'
import { type Amounts, type TaxCase, amountsOf, taxCaseOf } from './tax.ts'

export interface SellerData {
  name: string
  street: string
  postcode: string
  city: string
  /** ISO 3166-1 alpha-2. */
  country: string
  taxNumber: string | null
  vatId: string | null
  smallBusiness: boolean
  /** In hundredths of a percent. */
  vatRate: number
  iban: string | null
  bic: string | null
  bankName: string | null
}

export interface BuyerData {
  name: string
  company: string | null
  street: string
  postcode: string
  city: string
  country: string
  vatId: string | null
}

export interface InvoiceData {
  version: 1
  kind: 'invoice' | 'cancellation'
  /** "RE-00042": the gapless number, with its prefix. */
  number: string
  issuedAt: number
  /** When the price was received (the deal marked paid). */
  paidAt: number
  /** By when the domain is transferred (the supply, §14 Abs. 4 Nr. 6 UStG). */
  supplyBy: number
  language: InvoiceLanguage
  currency: string
  taxCase: TaxCase
  amounts: Amounts
  /** The name as people read it (Unicode). */
  domain: string
  dealReference: string
  seller: SellerData
  buyer: BuyerData
  /** A cancellation names the invoice it cancels. */
  cancels?: { number: string; issuedAt: number }
  /**
   * An instalment plan's schedule (decision 042): every payment with its due day and, when received by the time of
   * issue, that day. One invoice over the whole price; the rates are its payment terms.
   */
  instalments?: InvoiceRate[]
}

export interface InvoiceRate {
  /** 0 the down payment. */
  number: number
  amount: number
  dueAt: number
  paidAt: number | null
}

/** The seller's and the buyer's data needed for an invoice; null for a buyer whose postal address is unknown. */
export function buyerOf(inquiry: {
  name: string
  company: string | null
  street: string | null
  postcode: string | null
  city: string | null
  country: string | null
  vatId: string | null
}): BuyerData | null {
  const { street, postcode, city, country } = inquiry
  if (!street || !postcode || !city || !country) return null
  return { name: clean(inquiry.name), company: inquiry.company ? clean(inquiry.company) : null, street: clean(street), postcode: clean(postcode), city: clean(city), country, vatId: inquiry.vatId ? clean(inquiry.vatId).replace(/\s+/g, '').toUpperCase() : null }
}

/** Control characters out (a PDF and XML show text, never a bell or an escape); lines joined. */
function clean(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim()
}

export const formatInvoiceNumber = (sequence: number) => `RE-${String(sequence).padStart(5, '0')}`

export function invoiceDataOf(input: {
  sequence: number
  issuedAt: number
  paidAt: number
  supplyBy: number
  language: InvoiceLanguage
  currency: string
  gross: number
  domain: string
  dealReference: string
  seller: SellerData
  buyer: BuyerData
  instalments?: InvoiceRate[]
}): InvoiceData {
  const taxCase = taxCaseOf(input.seller, input.buyer)
  return {
    version: 1,
    kind: 'invoice',
    number: formatInvoiceNumber(input.sequence),
    issuedAt: input.issuedAt,
    paidAt: input.paidAt,
    supplyBy: input.supplyBy,
    language: input.language,
    currency: input.currency,
    taxCase,
    amounts: amountsOf(input.gross, taxCase, input.seller.vatRate),
    domain: input.domain,
    dealReference: input.dealReference,
    seller: input.seller,
    buyer: input.buyer,
    ...(input.instalments && { instalments: input.instalments }),
  }
}

/** The Stornorechnung of an invoice: the same parties and amounts, negated, under a number of its own. */
export const cancellationOf = (original: InvoiceData, sequence: number, issuedAt: number): InvoiceData => ({
  ...original,
  kind: 'cancellation',
  number: formatInvoiceNumber(sequence),
  issuedAt,
  amounts: { ...original.amounts, net: -original.amounts.net, vat: -original.amounts.vat, gross: -original.amounts.gross },
  cancels: { number: original.number, issuedAt: original.issuedAt },
})

/** A business buyer gets an E-Rechnung: one with a company or a VAT ID. */
export const isBusinessBuyer = (buyer: BuyerData) => Boolean(buyer.company || buyer.vatId)
