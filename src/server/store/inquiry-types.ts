// The inquiries, their replies and the mail about them: the types every part of the store shares. Each feature's
// own types are in its *-types.ts; types.ts gathers them all, with the Store interface.
import type { InquiryStatus, ReplyKind } from '../../shared/console-api.ts'
import type { Language } from '../../shared/language.ts'

export type { InquiryStatus, ReplyKind }

/** What a deal's webhooks announce (decision 033). */
export type DealEvent = 'created' | 'paid' | 'transferred' | 'completed' | 'overdue' | 'cancelled'

export interface Offer {
  amount: number
  /** ISO 4217 code, the domain's currency when the offer was made. */
  currency: string
}

export interface NewInquiry {
  /**
   * The form token. Derived from host and second (decision 055), so pages served in the same second share it: with
   * the content's digest it is the idempotency key of a submission, and not unique by itself.
   */
  token: string
  /** A digest of the content: the same token and content again is a retry, other content a submission of its own. */
  contentHash: string
  /** ASCII (punycode) form of the domain the visitor wrote from. */
  domain: string
  name: string
  email: string
  message: string
  /** The language of the page the visitor wrote from: their confirmation mail is in it, the owner's mail names it. */
  language: Language
  /** Why the submission was recognised as spam, or null for a genuine inquiry. */
  spamReason: string | null
  /** The visitor's offer, in whole units of the domain's currency, if the form asked for one. */
  offer: Offer | null
  /** The offer is below the domain's minimum: kept, but not a lead. */
  belowMinimum: boolean
  createdAt: number
  /** Set for a purchase at the fixed price (decision 035): the offer is then the listed price. */
  checkout?: CheckoutDetails
  /**
   * An instalment plan (decision 042): chosen by the buyer at a checkout that offers one, or offered by the owner with
   * a counter-offer. `downPayment` in minor units.
   */
  plan?: OfferedPlan
}

export interface OfferedPlan {
  rates: number
  downPayment: number
  transfer: 'after-last' | 'at-once'
}

/** What a checkout asks besides name and address: for the invoice. */
export interface CheckoutDetails {
  company: string | null
  street: string
  postcode: string
  city: string
  /** ISO 3166-1 alpha-2, upper case. */
  country: string
  vatId: string | null
}

/** The buyer on an invoice: the checkout's details with the name. */
export interface InvoiceAddress extends CheckoutDetails {
  name: string
}

export interface StoredInquiry extends NewInquiry {
  id: number
  /** A negotiated deal's invoice address, as its buyer gave it on the deal page (decision 038). */
  invoiceAddress?: InvoiceAddress
  /** The owner's counter-offer (in the offer's currency) and when it expires; absent when none was made. */
  counter?: { amount: number; expiresAt: number }
}

/**
 * What to do with the inquiry's mail: queue it (to this recipient, or MAIL_TO when null) with a notification to each
 * of `notify` (webhooks and presets), or not at all.
 */
export type MailPlan = { queue: true; mailTo: string | null; notify?: readonly string[] } | { queue: false }

/** The visitor's confirmation of a new genuine inquiry (the domains file's `confirm`; docs/confirmation.md). */
export interface ConfirmPlan {
  /** notice: a note that it arrived; verify: a link to follow, and the inquiry waits as 'unconfirmed' until then. */
  kind: 'notice' | 'verify'
  /** false: the address has had its share of confirmation mails for the day; the inquiry is stored without one. */
  mail: boolean
  /** What the console shows as the mail's text (never a link). */
  body: string
  /** Where an answer to the mail goes: the domain's mailTo, or MAIL_TO when null. */
  replyTo: string | null
}

export interface InquiryFilter {
  domain?: string
  /** Epoch milliseconds, inclusive. */
  since?: number
  /** Epoch milliseconds, exclusive. */
  until?: number
  /** true: only spam; false: only genuine inquiries; undefined: both. */
  spam?: boolean
  limit?: number
}

export interface InquiryListing extends StoredInquiry {
  mailStatus: OutboxStatus | null
}

export interface OutboxListing {
  inquiryId: number
  domain: string
  status: OutboxStatus
  attempts: number
  nextAttemptAt: number
  lastError: string | null
  createdAt: number
  mailTo: string | null
  /** Set for a notification (webhook or preset): its address, which may hold a token (show only its host). */
  webhookUrl: string | null
}

/** The console's inbox: newest first, keyset-paginated by (createdAt, id). */
export interface ConsoleFilter {
  domain?: string
  status?: InquiryStatus
  /** Epoch milliseconds, inclusive. */
  since?: number
  /** Epoch milliseconds, exclusive. */
  until?: number
  /** Words that must all occur in name, e-mail or message, as words or the start of one. */
  words?: string[]
  /** Only inquiries older than this one (the last row of the previous page). */
  before?: { createdAt: number; id: number }
  limit: number
}

export interface ConsoleInquiry extends StoredInquiry {
  status: InquiryStatus
  /** The owner's mail about the inquiry, or null when none was queued. */
  mailStatus: OutboxStatus | null
}

export interface MailRow {
  /** The outbox entry. */
  id: number
  status: OutboxStatus
  attempts: number
  lastError: string | null
  messageId: string
}

export interface InquiryThread {
  inquiry: ConsoleInquiry
  ownerMail: MailRow | null
  replies: { id: number; kind: ReplyKind; amount: number | null; body: string; createdAt: number; mail: MailRow | null }[]
}

export interface NewReply {
  inquiryId: number
  body: string
  /** The visitor's address, where the reply goes. */
  to: string
  /** Where the visitor's answer goes: the domain's mailTo or MAIL_TO. */
  replyTo: string
  createdAt: number
}

export interface MailListing {
  id: number
  inquiryId: number
  replyId: number | null
  domain: string
  status: OutboxStatus
  attempts: number
  lastError: string | null
  createdAt: number
  nextAttemptAt: number
  /** Set for a notification (webhook or preset): its address, which may hold a token (show only its host). */
  webhookUrl: string | null
}

export interface DailyStats {
  domain: string
  /** UTC day, YYYY-MM-DD. */
  day: string
  views: number
  inquiries: number
  spam: number
}

/** 'duplicate': the same token and content were stored before (a retry), as `id`. */
export type SaveResult = { status: 'created'; id: number } | { status: 'duplicate'; id: number }

export interface OutboxItem {
  id: number
  messageId: string
  /**
   * A mail to the visitor (the owner's reply, a step of the negotiation, a confirmation: `kind`), or null for the
   * mail about the inquiry to the owner or a webhook.
   */
  reply: { id: number; kind: ReplyKind; amount: number | null; body: string; replyTo: string | null; inquiryMessageId: string } | null
  /** Recipient for this mail, or null for MAIL_TO. */
  mailTo: string | null
  /** Set for a webhook: the address the inquiry's notification is posted to (no mail). */
  webhookUrl: string | null
  /** Set for a deal's webhook (deal.*): which deal and event; the payload is made from the deal when it is sent. */
  /** `rate`: the instalment a rate's event is about (decision 042). */
  deal: { id: number; event: DealEvent; rate?: number } | null
  attempts: number
  createdAt: number
  inquiry: StoredInquiry & { status: InquiryStatus }
}

export type OutboxStatus = 'pending' | 'sent' | 'failed'

export interface OutboxHealth {
  pending: number
  failed: number
  /** When the oldest pending mail was created, or null. */
  oldestPendingAt: number | null
  /** When the oldest pending mail that has already failed at least once was created, or null. */
  failingSince: number | null
}
