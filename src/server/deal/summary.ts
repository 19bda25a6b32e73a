// A deal as the owner sees it in the console and the CLI: its state, amount, buyer, next deadline, never its code.
import { DEAL_STATE_LABEL, type DealSummary } from '../../shared/console-api.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredDeal } from '../store/types.ts'
import { formatMinor } from './money.ts'
import { dealPageUrl, type DealStepContext } from './steps.ts'

const NEXT: Partial<Record<StoredDeal['status'], { field: 'paymentDueAt' | 'transferDueAt' | 'completesAt'; label: string }>> = {
  awaiting_payment: { field: 'paymentDueAt', label: 'Zahlung bis' },
  paid: { field: 'transferDueAt', label: 'Übertragung bis' },
  transferred: { field: 'completesAt', label: 'Abschluss von selbst am' },
}

/** The deadline the deal waits for, or null once it is over. */
function nextDeadlineOf(deal: StoredDeal): { at: number; label: string } | null {
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
    overdue: next !== null && deal.status !== 'transferred' && next.at <= now,
    hasTransferCode: deal.hasTransferCode,
    transferNote: deal.transferNote,
    cancelReason: deal.cancelReason,
    cancelledBy: deal.cancelledBy,
    pageUrl: dealPageUrl(config, deal),
    notifyOthers: deal.notifyOthers,
  }
}
