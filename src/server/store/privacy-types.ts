// The store's part for GDPR: what is stored about one person, erasing it, and retention (store/privacy.ts).
import type { DealState } from '../../shared/deal-api.ts'
import type { AuditEntry } from './tables/audit-log.ts'
import type { InquiryStatus, OutboxStatus, ReplyKind, StoredInquiry } from './inquiry-types.ts'

/** One inquiry with everything stored with it, as Art. 15 asks. */
export interface PersonInquiry {
  inquiry: StoredInquiry & { status: InquiryStatus }
  replies: { id: number; kind: ReplyKind; body: string; amount: number | null; replyTo: string | null; createdAt: number }[]
  /**
   * The inquiry's deals (docs/deals.md), with their dates: never the transfer code nor the page's link, which are
   * secrets of the sale, not data about the person.
   */
  deals: PersonDeal[]
  /** Every outbox row: the owner's mail (replyId and webhookUrl null), each reply's mail, each webhook. */
  mails: {
    id: number
    replyId: number | null
    webhookUrl: string | null
    messageId: string
    status: OutboxStatus
    attempts: number
    lastError: string | null
    mailTo: string | null
    createdAt: number
    sentAt: number | null
    failedAt: number | null
  }[]
  /** The audit trail's rows naming the inquiry or one of its deals (decision 043), oldest first. */
  audit: AuditEntry[]
}

/** What an erasure removed: the inquiries (with their domains), their replies, their outbox rows. */
export interface Erased {
  inquiries: { id: number; domain: string }[]
  replyIds: number[]
  outboxRows: number
  /** Rows of the audit trail that named the inquiries or their deals: kept, their ids moved into the detail (decision 043). */
  auditRows: number
  /**
   * The numbers of the invoices of their deals, which are not erased: an invoice and the data on it are kept for
   * their own period (INVOICE_RETENTION_YEARS; §147 AO, §14b UStG; GDPR Art. 17(3)(b)), without their link to the
   * inquiry (decision 038).
   */
  keptInvoices: number[]
}

export interface PrivacyStore {
  /** Every inquiry whose e-mail address is this one (ignoring case), oldest first, with its replies and mail. */
  personData(email: string): Promise<PersonInquiry[]>
  /** Erases every inquiry with this e-mail address (ignoring case) with its replies and outbox rows (Art. 17). */
  eraseByEmail(email: string): Promise<Erased>
  /** Erases these inquiries with their replies and outbox rows, in one transaction; then call purgeErased. */
  eraseInquiries(ids: number[]): Promise<Erased>
  /**
   * Rewrites what still holds erased words: SQLite's FTS index only marks a deleted row and keeps its words in its
   * pages until they are merged, which this does now. (eraseByEmail does it by itself.)
   */
  purgeErased(): Promise<void>
  /**
   * Up to `limit` inquiries, oldest first, that arrived before `before` and have no reply since then (a negotiation
   * still going on is not stale).
   */
  staleInquiries(before: number, limit: number): Promise<number[]>
}

interface PersonDeal {
  id: number
  domain: string
  reference: string
  status: DealState
  amount: number
  currency: string
  createdAt: number
  paymentDueAt: number
  paidAt: number | null
  transferDueAt: number | null
  transferredAt: number | null
  completedAt: number | null
  cancelledAt: number | null
  cancelledBy: 'owner' | 'buyer' | null
  cancelReason: string | null
  transferNote: string | null
  /** An instalment plan's payments (decision 042): each with its due time, amount, when received, its reference. */
  rates: { number: number; amount: number; dueAt: number; paidAt: number | null; reference: string }[]
  /** The deal's invoices, Anzahlungsrechnungen and Stornorechnungen (decisions 038, 046): number, kind, date. */
  invoices: { number: number; kind: 'invoice' | 'advance' | 'cancellation'; issuedAt: number }[]
}
