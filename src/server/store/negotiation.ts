// A step of the negotiation on an inquiry (docs/negotiation.md), in the use case's unit of work (decision 060;
// deal/actions.ts takes it): which state refuses it, then what it writes: an acceptance's deal, its reply row (the
// mail's text as composed), the mail to the visitor in the outbox, and the inquiry's new state.
import { createOrRenewDeal } from './deal-create.ts'
import type { InquiryStatus, OfferedPlan } from './inquiry-types.ts'
import { queueReplyMail } from './reply-mail.ts'
import { otherOpenDealOf, soldDealOf, uncancelledDealOf, type NewDeal } from './tables/deals.ts'
import { lockInquiry, setNegotiationState, type LockedInquiry, type NegotiationUpdate } from './tables/inquiries.ts'
import type { Work } from './unit-of-work.ts'

export type { NegotiationUpdate }

/** A step of the negotiation (docs/negotiation.md): the mail's text is composed before it is stored. */
export type DealKind = 'counter' | 'accept' | 'decline'

export interface DealStep {
  /** The mail's text as the visitor gets it (the owner's template with the values filled in). */
  body: string
  /** The visitor's address, where the mail goes. */
  to: string
  /** Where the visitor's answer goes: the domain's mailTo or MAIL_TO. */
  replyTo: string
  now: number
}

/** What a step records: the amount kept with the reply (a counter-offer's, or what an acceptance agreed). */
export type NegotiationStep = DealStep & { amount: number | null; confirmExpired?: boolean; deal?: NewDeal | undefined }

/** What a step did: queued (its reply and mail), or why it was refused. */
export type DealResult =
  /** `dealId`: the deal an acceptance with an agreed amount created or renewed. */
  | { status: 'queued'; replyId: number; inquiryStatus: InquiryStatus; dealId?: number }
  | { status: 'not-found' }
  | { status: 'spam' }
  | { status: 'unconfirmed' }
  /** Accepting after the counter-offer ran out needs the owner's confirmation (confirmExpired). */
  | { status: 'counter-expired'; expiredAt: number }
  /**
   * The inquiry has a deal: no counter-offer or refusal while it is open, and no new acceptance once it is paid
   * (docs/deals.md). The owner cancels the deal first.
   */
  | { status: 'deal-in-progress'; dealId: number }
  /** A checkout, while another inquiry's deal for the same name is open (decision 037): one sale of a name at a time. */
  | { status: 'domain-deal-open'; dealId: number }
  /** The name is sold (a completed deal): nothing is accepted for it any more. */
  | { status: 'sold'; dealId: number }

/** A counter-offer's values on the inquiry, its plan with it (none: a new counter-offer withdraws the one before). */
export const counterUpdate = (step: { amount: number; expiresAt: number; plan?: OfferedPlan | undefined }): NegotiationUpdate => ({
  counter_amount: step.amount,
  counter_expires_at: step.expiresAt,
  plan_rates: step.plan?.rates ?? null,
  plan_down_payment: step.plan?.downPayment ?? null,
  plan_transfer: step.plan?.transfer ?? null,
})

const STATUS_AFTER: Record<DealKind, InquiryStatus> = { counter: 'countered', accept: 'accepted', decline: 'declined' }

/**
 * Why the inquiry, as locked in this work, refuses the step; null when it may be taken. The deals it depends on are
 * read in the same work, so two instances accepting the same name see each other.
 */
export async function negotiationRefusal(work: Work, inquiry: LockedInquiry, kind: DealKind, step: Pick<NegotiationStep, 'now' | 'confirmExpired'>) {
  // Spam stays unanswered: its address is whatever a bot typed. An unconfirmed address has not shown that it belongs
  // to whoever wrote: mailing it could reach a stranger.
  if (inquiry.status === 'spam') return { status: 'spam' } as const
  if (inquiry.status === 'unconfirmed') return { status: 'unconfirmed' } as const
  if (kind === 'accept') {
    // The counter-offer the visitor may be accepting has run out: the owner decides again (docs/decisions/020).
    const expiredAt = inquiry.counterExpiresAt
    const expired = inquiry.status === 'expired' || (inquiry.status === 'countered' && expiredAt !== null && expiredAt <= step.now)
    if (expired && !step.confirmExpired) return { status: 'counter-expired', expiredAt: expiredAt ?? 0 } as const
    // Nothing is accepted for a sold name, and nothing (checkout or offer) while another inquiry's deal for the name
    // is open: one buyer at a time is asked to pay (decision 037; the unique index deals_open_domain is the second
    // lock). On PostgreSQL two acceptances of the same name take turns here.
    await work.lockKey(`deal-domain:${inquiry.domain}`)
    const sold = await soldDealOf(work.trx, inquiry.domain)
    if (sold !== null) return { status: 'sold', dealId: sold } as const
    const open = await otherOpenDealOf(work.trx, inquiry.domain, inquiry.id)
    if (open !== null) return { status: 'domain-deal-open', dealId: open } as const
    return null
  }
  // A counter-offer or a refusal would contradict a sale under way: the owner cancels the deal first.
  const open = await uncancelledDealOf(work.trx, inquiry.id)
  return open === null ? null : ({ status: 'deal-in-progress', dealId: open } as const)
}

/** Records a step the caller has checked (negotiationRefusal) against the inquiry it locked in this work. */
export async function recordNegotiationStep(
  work: Work,
  inquiry: LockedInquiry,
  kind: DealKind,
  step: NegotiationStep,
  update: NegotiationUpdate,
): Promise<DealResult> {
  let dealId: number | undefined
  if (step.deal) {
    const deal = await createOrRenewDeal(work, inquiry.id, inquiry.domain, step.deal, step.now)
    if ('inProgress' in deal) return { status: 'deal-in-progress', dealId: deal.inProgress }
    dealId = deal.dealId
  }
  const replyId = await queueReplyMail(work.trx, inquiry, { kind, amount: step.amount, body: step.body, replyTo: step.replyTo, to: step.to }, step.now)
  const status = STATUS_AFTER[kind]
  await setNegotiationState(work.trx, inquiry.id, status, update)
  return { status: 'queued', replyId, inquiryStatus: status, ...(dealId !== undefined && { dealId }) }
}

/** The whole step as the Store's callers take it (the tests): the inquiry locked and read, checked, recorded. */
export async function negotiate(work: Work, id: number, kind: DealKind, step: NegotiationStep, update: NegotiationUpdate): Promise<DealResult> {
  const inquiry = await lockInquiry(work, id)
  if (!inquiry) return { status: 'not-found' }
  return (await negotiationRefusal(work, inquiry, kind, step)) ?? recordNegotiationStep(work, inquiry, kind, step, update)
}
