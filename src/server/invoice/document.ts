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
  /** `advance`: an Anzahlungsrechnung over one payment of a plan received before the supply (decision 046). */
  kind: 'invoice' | 'advance' | 'cancellation'
  /** "RE-00042": the gapless number, with its prefix. */
  number: string
  issuedAt: number
  /** When the price was received (the deal marked paid); an Anzahlungsrechnung's: when that payment was. */
  paidAt: number
  /**
   * By when the domain is transferred (the supply, §14 Abs. 4 Nr. 6 UStG); an Anzahlungsrechnung's: when it is
   * expected; the final invoice's (one with `deductions`): the day it was transferred.
   */
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
  /** An Anzahlungsrechnung's payment: the rate (0 the down payment) of a plan of `count` monthly rates. */
  advance?: { rate: number; count: number }
  /**
   * The final invoice (Schlussrechnung) of a plan with Anzahlungsrechnungen: each one deducted with its number, date
   * and amounts (§14 Abs. 5 Satz 2 UStG). `amounts` is then the whole price; what remains is amounts minus these.
   */
  deductions?: Deduction[]
}

export interface Deduction {
  number: string
  issuedAt: number
  rate: number
  count: number
  amounts: Amounts
}

interface InvoiceRate {
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
  return {
    name: clean(inquiry.name),
    company: inquiry.company ? clean(inquiry.company) : null,
    street: clean(street),
    postcode: clean(postcode),
    city: clean(city),
    country,
    vatId: inquiry.vatId ? clean(inquiry.vatId).replace(/\s+/g, '').toUpperCase() : null,
  }
}

/** Control characters out (a PDF and XML show text, never a bell or an escape); lines joined. */
function clean(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim()
}

export const formatInvoiceNumber = (sequence: number) => `RE-${String(sequence).padStart(5, '0')}`

interface InvoiceInput {
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
}

/**
 * The invoice over the whole price. With `deductions` (the plan's Anzahlungsrechnungen, decision 046) it is the final
 * invoice: its amounts are the deducted payments' own splits plus the split of what no Anzahlungsrechnung covers, so
 * the tax shown on the advance invoices and what remains add up to the tax on the whole price to the cent.
 */
export function invoiceDataOf(input: InvoiceInput & { deductions?: Deduction[] }): InvoiceData {
  const taxCase = taxCaseOf(input.seller, input.buyer)
  const deductions = input.deductions?.length ? input.deductions : undefined
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
    amounts: deductions ? finalAmounts(input.gross, taxCase, input.seller.vatRate, deductions) : amountsOf(input.gross, taxCase, input.seller.vatRate),
    domain: input.domain,
    dealReference: input.dealReference,
    seller: input.seller,
    buyer: input.buyer,
    ...(input.instalments && { instalments: input.instalments }),
    ...(deductions && { deductions }),
  }
}

/** The whole price's amounts as the sum of the deducted payments' amounts and the rest's own split. */
function finalAmounts(gross: number, taxCase: TaxCase, vatRate: number, deductions: readonly Deduction[]): Amounts {
  const deducted = sumOf(deductions.map((deduction) => deduction.amounts))
  const rest = amountsOf(gross - deducted.gross, taxCase, vatRate)
  return { net: deducted.net + rest.net, vat: deducted.vat + rest.vat, gross, rateBasisPoints: rest.rateBasisPoints }
}

/** Net, VAT and gross added up (the rate of the first; a plan has one rate). */
export const sumOf = (amounts: readonly Amounts[]): Amounts =>
  amounts.reduce((sum, a) => ({ net: sum.net + a.net, vat: sum.vat + a.vat, gross: sum.gross + a.gross, rateBasisPoints: a.rateBasisPoints }), {
    net: 0,
    vat: 0,
    gross: 0,
    rateBasisPoints: 0,
  })

/** What a final invoice leaves after its deductions (zero when every payment had its Anzahlungsrechnung). */
export const remainingOf = (data: InvoiceData): Amounts => {
  const deducted = sumOf((data.deductions ?? []).map((deduction) => deduction.amounts))
  return {
    net: data.amounts.net - deducted.net,
    vat: data.amounts.vat - deducted.vat,
    gross: data.amounts.gross - deducted.gross,
    rateBasisPoints: data.amounts.rateBasisPoints,
  }
}

/**
 * An Anzahlungsrechnung (§14 Abs. 5 Satz 1 UStG, decision 046): one payment of a plan received before the transfer,
 * its own net and VAT, the transfer named as still to come and when it is expected.
 */
export function advanceDataOf(input: Omit<InvoiceInput, 'instalments'> & { rate: number; count: number }): InvoiceData {
  const taxCase = taxCaseOf(input.seller, input.buyer)
  return {
    version: 1,
    kind: 'advance',
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
    advance: { rate: input.rate, count: input.count },
  }
}

/** An Anzahlungsrechnung as the final invoice deducts it. */
export const deductionOf = (advance: InvoiceData): Deduction => ({
  number: advance.number,
  issuedAt: advance.issuedAt,
  rate: advance.advance?.rate ?? 0,
  count: advance.advance?.count ?? 0,
  amounts: advance.amounts,
})

/** The Stornorechnung of an invoice: the same parties and amounts, negated, under a number of its own. */
export const cancellationOf = (original: InvoiceData, sequence: number, issuedAt: number): InvoiceData => ({
  ...original,
  kind: 'cancellation',
  number: formatInvoiceNumber(sequence),
  issuedAt,
  amounts: negated(original.amounts),
  cancels: { number: original.number, issuedAt: original.issuedAt },
  // A cancelled final invoice cancels what it charged: the whole price less the same deductions.
  ...(original.deductions && { deductions: original.deductions.map((deduction) => ({ ...deduction, amounts: negated(deduction.amounts) })) }),
})

const negated = (amounts: Amounts): Amounts => ({ ...amounts, net: -amounts.net, vat: -amounts.vat, gross: -amounts.gross })

/** A business buyer gets an E-Rechnung: one with a company or a VAT ID. */
export const isBusinessBuyer = (buyer: BuyerData) => Boolean(buyer.company || buyer.vatId)
