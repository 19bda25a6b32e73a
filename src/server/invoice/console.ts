// A deal's invoices as the console shows them on "Verkäufe" (decision 038), and the owner's "Rechnung ausstellen" for
// a deal that was marked paid without one: a negotiated deal whose buyer gave the address only afterwards.
import type { DealInvoices } from '../../shared/deal-api.ts'
import type { Config } from '../config.ts'
import type { LateInvoiceResult, StoredDeal, Store } from '../store/types.ts'
import { lockDeal } from '../store/tables/deals.ts'
import { getInquiry } from '../store/tables/inquiries.ts'
import { issueInvoiceIn } from '../store/tables/invoices.ts'
import { invoiceAddressOf, paidInAdvance, paymentInvoice } from './issue.ts'

const PAID: readonly StoredDeal['status'][] = ['paid', 'transferred', 'completed']
/** A plan paid in advance has its invoice over the whole price with the supply (decision 046). */
const SUPPLIED: readonly StoredDeal['status'][] = ['transferred', 'completed']

interface Context {
  store: Store
  config: Partial<Pick<Config, 'invoice'>>
}

export async function dealInvoices(context: Context, deal: StoredDeal): Promise<DealInvoices> {
  const invoices = await context.store.dealInvoices(deal.id)
  const states = paidInAdvance(deal) ? SUPPLIED : PAID
  const waiting = Boolean(context.config.invoice) && states.includes(deal.status) && !invoices.some((invoice) => invoice.kind === 'invoice')
  const inquiry = waiting ? await context.store.getInquiry(deal.inquiryId) : null
  const hasAddress = inquiry !== null && invoiceAddressOf(inquiry) !== null
  return { invoices, canIssue: waiting && hasAddress, missingAddress: waiting && !hasAddress }
}

export type IssueOutcome = LateInvoiceResult | { status: 'off' } | { status: 'no-address' }

/**
 * Issues the missing invoice of a paid deal: the payment's dates, the next number, no mail (the buyer's page lists
 * it). One unit of work (decision 060): the deal locked and read once, checked, its invoice issued.
 */
export function issueMissingInvoice(context: Context, dealId: number, now: number): Promise<IssueOutcome> {
  return context.store.transact(async (work): Promise<IssueOutcome> => {
    const deal = await lockDeal(work, dealId)
    if (deal && paidInAdvance(deal) && !SUPPLIED.includes(deal.status)) return { status: 'wrong-state', current: deal.status }
    const inquiry = deal && (await getInquiry(work.trx, deal.inquiryId))
    const planned = paymentInvoice(context, { deal, inquiry }, now, { supplied: deal !== null && paidInAdvance(deal) })
    if (!planned.issue) return { status: planned.reason === 'not-found' ? 'not-found' : planned.reason }
    if (!deal) return { status: 'not-found' }
    if (!PAID.includes(deal.status)) return { status: 'wrong-state', current: deal.status }
    const invoiceId = await issueInvoiceIn(work.trx, dealId, planned.issue, null, now)
    return invoiceId === null ? { status: 'invoiced' } : { status: 'done', invoiceId }
  })
}
