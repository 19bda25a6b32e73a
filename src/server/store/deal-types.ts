// The store's part for the negotiation (store/deal.ts; docs/negotiation.md).
import type { DealTemplateKind } from '../../shared/console-api.ts'
import type { NewDeal } from './tables/deals.ts'
import type { InquiryStatus, OfferedPlan } from './inquiry-types.ts'

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

export interface DealStore {
  /** Stores the counter-offer, queues its mail and marks the inquiry countered until `expiresAt`, in one transaction. */
  counterOffer(id: number, step: DealStep & { amount: number; expiresAt: number; plan?: OfferedPlan }): Promise<DealResult>
  /** `amount`: what was agreed (the counter-offer's or the visitor's offer), kept with the reply. */
  accept(id: number, step: DealStep & { amount: number | null; confirmExpired?: boolean; deal?: NewDeal }): Promise<DealResult>
  decline(id: number, step: DealStep): Promise<DealResult>
  /** Marks every counter-offer whose time ran out by `now` as expired; returns how many. */
  expireCounterOffers(now: number): Promise<number>
  /** The owner's edited mail templates (absent: the default text). */
  dealTemplates(): Promise<Partial<Record<DealTemplateKind, string>>>
  /** Stores the owner's template, or goes back to the default with null. */
  setDealTemplate(kind: DealTemplateKind, text: string | null): Promise<void>
}
