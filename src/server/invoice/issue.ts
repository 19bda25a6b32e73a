// When an invoice is issued (decision 038): with "Zahlung erhalten" (markPaid), for a deal whose buyer gave a postal
// address, while the seller is configured; a Stornorechnung with the cancellation of a deal that has an invoice.
import type { Config } from '../config.ts'
import { displayHost } from '../sites/host.ts'
import type { AdvanceIssue, InvoiceAddress, InvoiceIssue, StoredDeal, StoredInquiry } from '../store/types.ts'
import { advanceDataOf, buyerOf, cancellationOf, deductionOf, invoiceDataOf, isBusinessBuyer, type BuyerData, type InvoiceData } from './document.ts'
import { invoiceLanguage } from './texts.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Why a paid deal got no invoice, or the issue to hand to the step. */
export type PaymentInvoice = { issue: Extract<InvoiceIssue, { kind: 'invoice' }> } | { issue: null; reason: NoInvoice }
type NoInvoice = 'off' | 'no-address' | 'not-found'

interface Context {
  config: Partial<Pick<Config, 'invoice'>>
}

/** The deal, the seller and the buyer's invoice data, or why there is no invoice. */
type Parties = { reason: NoInvoice } | { reason: null; deal: StoredDeal; seller: NonNullable<Config['invoice']>; buyer: BuyerData }

/** From the deal and its inquiry as the step read them: an invoice is composed without reading either again. */
function partiesOf(context: Context, deal: StoredDeal | null, inquiry: StoredInquiry | null): Parties {
  const seller = context.config.invoice ?? null
  if (!seller) return { reason: 'off' } as const
  if (!deal || !inquiry) return { reason: 'not-found' } as const
  const buyer = buyerOf(
    invoiceAddressOf(inquiry) ?? { name: inquiry.name, company: null, street: null, postcode: null, city: null, country: null, vatId: null },
  )
  if (!buyer) return { reason: 'no-address' } as const
  return { reason: null, deal, seller, buyer }
}

/** A plan whose name moves after the last rate: its payments before the transfer are advance payments (decision 046). */
export const paidInAdvance = (deal: Pick<StoredDeal, 'plan'>) => deal.plan?.transfer === 'after-last'

/**
 * The invoice over the whole price. `atSupply`: an instalment plan whose name moves at once is invoiced with the
 * transfer, the supply, and its rates still open are shown as open (decision 042). `supplied`: the final invoice of a
 * plan paid in advance, issued with the transfer, deducting the Anzahlungsrechnungen the store hands to `build`
 * (decision 046). Otherwise the invoice goes with the price received in full.
 */
export function paymentInvoice(
  context: Context,
  of: { deal: StoredDeal | null; inquiry: StoredInquiry | null },
  now: number,
  options: { atSupply?: boolean; supplied?: boolean } = {},
): PaymentInvoice {
  const parties = partiesOf(context, of.deal, of.inquiry)
  if (parties.reason !== null) return { issue: null, reason: parties.reason }
  const { deal, seller, buyer } = parties
  // Issued later than the payment (the owner's "Rechnung ausstellen"): the dates are the payment's, not today's.
  const paidAt = deal.paidAt ?? now
  const supplyBy = options.supplied ? (deal.transferredAt ?? now) : (deal.transferDueAt ?? paidAt + deal.transferDays * DAY_MS)
  return {
    issue: {
      kind: 'invoice',
      build(sequence, advances) {
        const data = invoiceDataOf({
          sequence,
          issuedAt: now,
          paidAt,
          supplyBy,
          language: invoiceLanguage(deal.buyer.language),
          currency: deal.currency,
          gross: deal.amount,
          domain: displayHost(deal.domain),
          dealReference: deal.reference,
          seller,
          buyer,
          // The plan's payments as they stand: marking the deal paid receives every rate still open (decision 042).
          ...(deal.plan && {
            instalments: deal.plan.rates.map((rate) => ({
              number: rate.number,
              amount: rate.amount,
              dueAt: rate.dueAt,
              paidAt: rate.paidAt ?? (options.atSupply ? null : now),
            })),
          }),
          deductions: advances.map((advance) => deductionOf(JSON.parse(advance.data) as InvoiceData)),
        })
        return { data: JSON.stringify(data), eInvoice: isBusinessBuyer(buyer) }
      },
    },
  }
}

/**
 * The Anzahlungsrechnungen of a plan paid in advance (decision 046): the store issues one for each rate received
 * without one. The transfer is expected the transfer time after the last rate's date.
 */
export function advanceInvoices(
  context: Context,
  of: { deal: StoredDeal | null; inquiry: StoredInquiry | null },
  now: number,
): { issue: AdvanceIssue } | { issue: null; reason: NoInvoice | 'not-in-advance' } {
  const parties = partiesOf(context, of.deal, of.inquiry)
  if (parties.reason !== null) return { issue: null, reason: parties.reason }
  const { deal, seller, buyer } = parties
  if (!paidInAdvance(deal) || !deal.plan) return { issue: null, reason: 'not-in-advance' }
  const lastDue = Math.max(...deal.plan.rates.map((rate) => rate.dueAt))
  const count = deal.plan.rates.filter((rate) => rate.number > 0).length
  return {
    issue: { build: (sequence, rate) => advanceOf(deal, seller, buyer, { sequence, now, rate, count, supplyBy: lastDue + deal.transferDays * DAY_MS }) },
  }
}

function advanceOf(
  deal: StoredDeal,
  seller: NonNullable<Config['invoice']>,
  buyer: BuyerData,
  input: { sequence: number; now: number; rate: { number: number; amount: number; paidAt: number }; count: number; supplyBy: number },
) {
  const data = advanceDataOf({
    sequence: input.sequence,
    issuedAt: input.now,
    paidAt: input.rate.paidAt,
    supplyBy: input.supplyBy,
    language: invoiceLanguage(deal.buyer.language),
    currency: deal.currency,
    gross: input.rate.amount,
    domain: displayHost(deal.domain),
    dealReference: deal.reference,
    seller,
    buyer,
    rate: input.rate.number,
    count: input.count,
  })
  return { data: JSON.stringify(data), eInvoice: isBusinessBuyer(buyer) }
}

/** The address an invoice names: the checkout's, or the one a negotiated deal's buyer gave on the deal page. */
export const invoiceAddressOf = (inquiry: StoredInquiry): InvoiceAddress | null =>
  inquiry.checkout ? { name: inquiry.name, ...inquiry.checkout } : (inquiry.invoiceAddress ?? null)

/** The Stornorechnung of a cancelled deal's invoice (the store issues it only when there is one). */
export const cancellationInvoice = (now: number): InvoiceIssue => ({
  kind: 'cancellation',
  build(sequence, original) {
    return { data: JSON.stringify(cancellationOf(JSON.parse(original.data) as InvoiceData, sequence, now)), eInvoice: original.eInvoice }
  },
})
