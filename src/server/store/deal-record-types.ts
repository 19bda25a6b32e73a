// The store's part for deals (store/deal-record.ts; docs/deals.md): what an accepted offer became.
import type { AdvanceIssue, InvoiceIssue } from './invoice-types.ts'
import type { DealMailKind } from '../../shared/console-api.ts'
import type { DealState } from '../../shared/deal-api.ts'
import type { Language } from '../../shared/language.ts'

export type { DealState }

/** What the acceptance creates, in the same transaction as its mail. */
export interface NewDeal {
  /** SHA-256 (hex) of the random id in the page's link. */
  linkHash: string
  /** The link's token, sealed with the deal key. */
  linkSealed: string
  /** In minor units of `currency` (cents). */
  amount: number
  currency: string
  paymentDueAt: number
  /** Days the owner has for the transfer once the payment is marked received. */
  transferDays: number
  /** The addresses told `deal.created` (notifyUrlsFor); none when absent. */
  notify?: readonly string[]
  /** An instalment plan (decision 042): its payments, exact to the cent, and when the name moves. */
  plan?: NewPlan
}

interface NewPlan {
  transfer: 'after-last' | 'at-once'
  /** Number 0 the down payment, 1 … n the monthly rates; the amounts add up to the deal's. */
  rates: readonly { number: number; amount: number; dueAt: number }[]
}

/** One payment of a deal's instalment plan (decision 042). */
export interface StoredRate {
  number: number
  amount: number
  dueAt: number
  /** Its own payment reference (DL-2026-0042-R03). */
  reference: string
  paidAt: number | null
  paidBy: 'owner' | 'bank' | null
  remindedAt: number | null
  /** When it was found unpaid 7 days after its date (the owner told, the buyer reminded). */
  overdueAt: number | null
  /** When the owner decided to wait for an overdue rate. */
  waitedAt: number | null
}

/** A rate's reminders (decision 042): the buyer 3 days before its date; the owner and the buyer once it is 7 days late. */
export type RateReminder = 'rate-reminder' | 'rate-overdue'

export type RateChangeResult =
  | { status: 'done'; deal: StoredDeal; replyId: number | null; allPaid: boolean }
  | { status: 'not-found' }
  | { status: 'already-paid' }
  | { status: 'wrong-state'; current: DealState }

/** A deal's webhook events (docs/notifications.md): `deal.<event>`. */

export interface StoredDeal {
  id: number
  inquiryId: number
  linkHash: string
  /** The link's token, sealed with the deal key: the page's address for later mails. */
  linkSealed: string
  /** ASCII (punycode). */
  domain: string
  status: DealState
  amount: number
  currency: string
  /** The payment reference, unique per deal (DL-2026-0042). */
  reference: string
  createdAt: number
  paymentDueAt: number
  transferDays: number
  paidAt: number | null
  transferDueAt: number | null
  transferredAt: number | null
  /** When a transferred deal completes by itself unless the buyer confirms first. */
  completesAt: number | null
  completedAt: number | null
  cancelledAt: number | null
  cancelledBy: 'owner' | 'buyer' | null
  cancelReason: string | null
  /** Whether a transfer code is stored (the code itself only through dealTransferCode). */
  hasTransferCode: boolean
  transferNote: string | null
  /**
   * The owner's choice with "Übertragen": whether the other inquirers are told "bereits verkauft" when the deal
   * completes by itself (decision 037); null when not chosen (no notice).
   */
  notifyOthers: boolean | null
  buyer: { name: string; email: string; language: Language }
  /** The instalment plan, its rates in order; null for a deal paid at once. */
  plan: { transfer: 'after-last' | 'at-once'; rates: StoredRate[] } | null
}

/** Another open inquiry of a deal's domain, to be told the name is sold (decision 037). */
interface OtherInquirer {
  inquiryId: number
  email: string
  name: string
  language: Language
}

/** A "bereits verkauft" mail, composed in the inquirer's language, queued with the completion. */
export interface SoldNotice {
  inquiryId: number
  body: string
  to: string
  replyTo: string
}

/** A mail to the buyer that goes with a step, as a reply of the inquiry (its text composed before). */
export interface DealMail {
  kind: DealMailKind
  body: string
  to: string
  replyTo: string
}

export interface DealChange {
  /** The states the step may start from; checked in the step's transaction. */
  from: readonly DealState[]
  to: DealState
  now: number
  paidAt?: number
  transferDueAt?: number
  transferredAt?: number
  completesAt?: number
  completedAt?: number
  cancelledAt?: number
  cancelledBy?: 'owner' | 'buyer'
  cancelReason?: string | null
  /** Sealed transfer code (never the code). */
  transferCode?: string | null
  transferNote?: string | null
  notifyOthers?: boolean | null
  /**
   * "Bereits verkauft" to the other inquirers, in the step's transaction; an inquiry that is no longer open (declined,
   * archived, erased, told before) is left out there.
   */
  soldNotices?: readonly SoldNotice[]
  mail?: DealMail
  /** The addresses told of the step (`deal.<state>`), in its transaction. */
  notify?: readonly string[]
  /** An invoice or Stornorechnung issued with the step, in its transaction (decision 038). */
  invoice?: InvoiceIssue
  /** The Anzahlungsrechnungen of the rates received and not yet invoiced (decision 046), attached to the step's mail. */
  advances?: AdvanceIssue
  /** "Zahlung erhalten" on an instalment plan: its rates still open are marked received by the owner (decision 042). */
  ratesPaid?: boolean
}

export type DealChangeResult =
  | { status: 'done'; deal: StoredDeal; replyId: number | null; soldNotices?: number; invoiceId?: number | null }
  | { status: 'not-found' }
  | { status: 'wrong-state'; current: DealState }

/** New deadlines for a deal (a date each, ms); only those given change. */
interface DealDeadlines {
  paymentDueAt?: number
  transferDueAt?: number
}

export interface DealRecordStore {
  getDeal(id: number): Promise<StoredDeal | null>
  /** The deal whose link id hashes to `linkHash`, or null. */
  dealByLink(linkHash: string): Promise<StoredDeal | null>
  /** The open deal (not cancelled) of an inquiry, or null. */
  openDealOf(inquiryId: number): Promise<StoredDeal | null>
  /** Every deal, or those in one state; the next deadline first. */
  listDeals(filter?: { status?: DealState }): Promise<StoredDeal[]>
  /** One step of a deal: its new state and fields and its mail to the buyer, in one transaction. */
  changeDeal(id: number, change: DealChange): Promise<DealChangeResult>
  /** The sealed transfer code, or null. */
  dealTransferCode(id: number): Promise<string | null>
  /**
   * Moves a deal's deadlines (decision 037): the payment's while it waits for payment, the transfer's while paid. The
   * reminders of a moved deadline are planned again (their marks cleared). Refused in any other state.
   */
  changeDealDeadlines(id: number, deadlines: DealDeadlines): Promise<DealChangeResult>
  /**
   * The open inquiries of a domain other than `exceptInquiryId` (not spam, unconfirmed, declined or archived, not told
   * before), newest first: whom "bereits verkauft" may reach.
   */
  otherInquirers(domain: string, exceptInquiryId: number): Promise<OtherInquirer[]>
  /** An open deal (awaiting payment, paid, transferred) of a domain, or a completed one (sold); null when neither. */
  dealOfDomain(domain: string): Promise<{ id: number; status: DealState } | null>
  /** Every domain (ASCII) with a completed deal: sold, whatever the domains file says (decision 033). */
  soldDomains(): Promise<string[]>
  /** Transferred deals whose time to complete by themselves has come by `now`. */
  dealsToComplete(now: number): Promise<number[]>
  /** Erases the transfer codes of deals completed at or before `completedBy`; returns how many. */
  eraseTransferCodes(completedBy: number): Promise<number>
}

/** The store's part for a deal's deadline reminders (store/deal-reminders.ts; decision 036). */
export interface DealReminderStore {
  /** The deadline reminders due by `now` and not sent yet (decision 036), oldest deal first. */
  dealRemindersDue(now: number): Promise<{ id: number; reminder: DealReminder }[]>
  /**
   * Queues a reminder's mail and marks it sent, in one transaction; false (nothing queued) when it was sent already or
   * the deal has moved on since.
   */
  queueDealReminder(id: number, reminder: DealReminder, mail: DealMail, now: number, notify?: readonly string[]): Promise<boolean>
}

/** The store's part for instalment plans (store/deal-rates.ts; decision 042). */
export interface DealRateStore {
  /**
   * Marks one rate of a deal's plan received, with its mail to the buyer, in one transaction. The mail is left out when
   * it was the last rate open (`allPaid`): the caller then takes the deal's own "paid" step, which mails.
   */
  markRatePaid(id: number, number: number, change: { by: 'owner' | 'bank'; now: number; mail?: DealMail; advances?: AdvanceIssue }): Promise<RateChangeResult>
  /** The owner's decision to wait for an overdue rate (decision 042): marked, nobody mailed. */
  waitForRate(id: number, number: number, now: number): Promise<RateChangeResult>
  /** The rates' reminders due by `now` and not sent yet, of deals not cancelled. */
  rateRemindersDue(now: number): Promise<{ id: number; number: number; reminder: RateReminder }[]>
  /**
   * Queues a rate's mails and marks the reminder sent, in one transaction (with `deal.overdue` for an overdue rate);
   * false when it was sent already, the rate is paid or the deal cancelled.
   */
  queueRateReminder(id: number, number: number, reminder: RateReminder, mails: readonly DealMail[], now: number, notify?: readonly string[]): Promise<boolean>
}

/**
 * A deal's deadlines (decision 036): the buyer reminded halfway to the payment deadline, the owner told when it has
 * passed, the owner reminded a day before the transfer deadline (or after it, if the server was down then).
 */
export type DealReminder = 'payment-reminder' | 'payment-overdue' | 'transfer-reminder'
