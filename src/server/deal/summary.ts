// A deal as the owner sees it in the console and the CLI: its state, amount, buyer, next deadline, never its code.
import { DEAL_STATE_LABEL, type DealSummary } from '../../shared/deal-api.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredDeal } from '../store/types.ts'
import { formatMinor } from '../lib/money.ts'
import { nextRate, rateCount, rateLabel } from './rates.ts'
import { dealPageUrl, type DealStepContext } from './steps.ts'

const NEXT: Partial<Record<StoredDeal['status'], { field: 'paymentDueAt' | 'transferDueAt' | 'completesAt'; label: string }>> = {
  awaiting_payment: { field: 'paymentDueAt', label: 'Zahlung bis' },
  paid: { field: 'transferDueAt', label: 'Übertragung bis' },
  transferred: { field: 'completesAt', label: 'Abschluss von selbst am' },
}

/** The deadline the deal waits for, or null once it is over. */
function nextDeadlineOf(deal: StoredDeal): { at: number; label: string; rate?: true } | null {
  // A plan waits for its next rate while one is open (also once the name moved at once).
  const rate = deal.status === 'cancelled' ? null : nextRate(deal)
  if (rate && (deal.status === 'awaiting_payment' || deal.status === 'transferred' || deal.status === 'completed'))
    return { at: rate.dueAt, label: `${rateLabel(rate, rateCount(deal), 'de')} bis`, rate: true }
  const next = NEXT[deal.status]
  const at = next && deal[next.field]
  return next && at !== null && at !== undefined ? { at, label: next.label } : null
}

export function dealSummary(deal: StoredDeal, config: DealStepContext['config'], now: number): DealSummary {
  const next = nextDeadlineOf(deal)
  return {
    id: deal.id,
    inquiryId: deal.inquiryId,
    domain: displayHost(deal.domain),
    status: deal.status,
    statusLabel: DEAL_STATE_LABEL[deal.status],
    amount: formatMinor(deal.amount, deal.currency),
    reference: deal.reference,
    buyer: { name: deal.buyer.name, email: deal.buyer.email, language: deal.buyer.language },
    createdAt: deal.createdAt,
    nextDeadline: next?.at ?? null,
    nextDeadlineLabel: next?.label ?? null,
    // Completing by itself is no seller's delay.
    overdue: next !== null && (deal.status !== 'transferred' || next.rate === true) && next.at <= now,
    hasTransferCode: deal.hasTransferCode,
    transferNote: deal.transferNote,
    cancelReason: deal.cancelReason,
    cancelledBy: deal.cancelledBy,
    pageUrl: dealPageUrl(config, deal),
    notifyOthers: deal.notifyOthers,
    ...(deal.plan && {
      plan: {
        transfer: deal.plan.transfer,
        rates: deal.plan.rates.map((rate) => ({
          number: rate.number,
          label: rateLabel(rate, rateCount(deal), 'de'),
          amount: formatMinor(rate.amount, deal.currency),
          dueAt: rate.dueAt,
          reference: rate.reference,
          paidAt: rate.paidAt,
          paidBy: rate.paidBy,
          overdue: rate.paidAt === null && deal.status !== 'cancelled' && rate.dueAt <= now,
          waitedAt: rate.waitedAt,
        })),
      },
    }),
  }
}
