// When an invoice is issued (decision 038): with "Zahlung erhalten" (markPaid), for a deal whose buyer gave a postal
// address, while the seller is configured; a Stornorechnung with the cancellation of a deal that has an invoice.
import type { Config } from '../config.ts'
import { displayHost } from '../sites/host.ts'
import type { InvoiceAddress, InvoiceIssue, StoredInquiry, Store } from '../store/types.ts'
import { buyerOf, cancellationOf, invoiceDataOf, isBusinessBuyer, type InvoiceData } from './document.ts'
import { invoiceLanguage } from './texts.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Why a paid deal got no invoice, or the issue to hand to the step. */
export type PaymentInvoice = { issue: Extract<InvoiceIssue, { kind: 'invoice' }> } | { issue: null; reason: 'off' | 'no-address' | 'not-found' }

/**
 * `atSupply`: an instalment plan whose name moves at once is invoiced with the transfer, the supply, and its rates
 * still open are shown as open (decision 042); otherwise the invoice goes with the price received in full.
 */
export async function paymentInvoice(context: { store: Store; config: Partial<Pick<Config, 'invoice'>> }, dealId: number, now: number, atSupply = false): Promise<PaymentInvoice> {
  const seller = context.config.invoice ?? null
  if (!seller) return { issue: null, reason: 'off' }
  const deal = await context.store.getDeal(dealId)
  const inquiry = deal && (await context.store.getInquiry(deal.inquiryId))
  if (!deal || !inquiry) return { issue: null, reason: 'not-found' }
  const buyer = buyerOf(invoiceAddressOf(inquiry) ?? { name: inquiry.name, company: null, street: null, postcode: null, city: null, country: null, vatId: null })
  if (!buyer) return { issue: null, reason: 'no-address' }
  // Issued later than the payment (the owner's "Rechnung ausstellen"): the dates are the payment's, not today's.
  const paidAt = deal.paidAt ?? now
  return {
    issue: {
      kind: 'invoice',
      build(sequence) {
        const data = invoiceDataOf({
          sequence,
          issuedAt: now,
          paidAt,
          supplyBy: deal.transferDueAt ?? paidAt + deal.transferDays * DAY_MS,
          language: invoiceLanguage(deal.buyer.language),
          currency: deal.currency,
          gross: deal.amount,
          domain: displayHost(deal.domain),
          dealReference: deal.reference,
          seller,
          buyer,
          // The plan's payments as they stand: marking the deal paid receives every rate still open (decision 042).
          ...(deal.plan && { instalments: deal.plan.rates.map((rate) => ({ number: rate.number, amount: rate.amount, dueAt: rate.dueAt, paidAt: rate.paidAt ?? (atSupply ? null : now) })) }),
        })
        return { data: JSON.stringify(data), eInvoice: isBusinessBuyer(buyer) }
      },
    },
  }
}

/** The address an invoice names: the checkout's, or the one a negotiated deal's buyer gave on the deal page. */
export const invoiceAddressOf = (inquiry: StoredInquiry): InvoiceAddress | null => (inquiry.checkout ? { name: inquiry.name, ...inquiry.checkout } : (inquiry.invoiceAddress ?? null))

/** The Stornorechnung of a cancelled deal's invoice (the store issues it only when there is one). */
export const cancellationInvoice = (now: number): InvoiceIssue => ({
  kind: 'cancellation',
  build(sequence, original) {
    return { data: JSON.stringify(cancellationOf(JSON.parse(original.data) as InvoiceData, sequence, now)), eInvoice: original.eInvoice }
  },
})
