// The store interface. The embedded default is SQLite (sqlite.ts); PostgreSQL (postgres.ts) implements the same.
import type { DealTemplateKind } from '../../shared/console-api.ts'
import type {
  ConfirmPlan,
  NewInquiry,
  NewReply,
  StoredInquiry,
  MailPlan,
  InquiryFilter,
  InquiryListing,
  OutboxListing,
  ConsoleFilter,
  ConsoleInquiry,
  InquiryThread,
  MailListing,
  DailyStats,
  SaveResult,
  OutboxItem,
  OutboxStatus,
  OutboxHealth,
  InvoiceAddress,
  OfferedPlan,
} from './inquiry-types.ts'
import type { DigestFacts } from './tables/digest.ts'
import type { JobStore } from './tables/job-runs.ts'
import type { DnsUpdateItem, DnsUpdateSent, DnsUpdateStore } from './tables/dns-updates.ts'
import type { DomainNoticeItem, DomainNoticeStore } from './tables/domain-notices.ts'
import type { LeasedQueueTable } from './tables/leased.ts'
import type { DomainCheckStore } from './tables/domain-checks.ts'
import type { DomainEditStore } from './tables/domain-edits.ts'
import type { Erased, PersonInquiry } from './privacy.ts'
import type { AuditEntry, AuditFilter, NewAuditEntry } from './tables/audit-log.ts'
import type { VisitCount, VisitorHash } from './tables/visits.ts'
import type { DealChange, DealChangeResult, DealMail } from './deal-step.ts'
import type { NewBankPayment } from './tables/bank-payments.ts'
import type { DealReminder } from './tables/deal-deadlines.ts'
import type { RateReminder } from './tables/deal-rates.ts'
import type { DealState, NewDeal, StoredDeal } from './tables/deals.ts'
import type { DealResult, DealStep } from './negotiation.ts'
import type { InvoiceIssue, InvoiceListing, KeepAddressResult, LateInvoiceResult, StoredInvoice } from './tables/invoices.ts'
import type { ConfirmationTarget, ConfirmResult } from './tables/confirmations.ts'
import type { UnitOfWork } from './unit-of-work.ts'
import type { PasskeyRecord, NewPasskey } from './tables/passkeys.ts'
import type { TotpRecord } from './tables/second-factor.ts'
import type { SessionDetails, SessionListing } from './tables/sessions.ts'
import type { ChallengePurpose } from './tables/webauthn-challenges.ts'

// The parts of the store with a file of their own; their types are these files', re-exported here.
export type * from './inquiry-types.ts'
// The deal's tables (decision 060): their types live beside their functions; these are the ones the features name.
export type { DealState, NewDeal, StoredDeal } from './tables/deals.ts'
export type { DealReminder } from './tables/deal-deadlines.ts'
export type { RateReminder, StoredRate } from './tables/deal-rates.ts'
export type { DealKind, DealResult } from './negotiation.ts'
export type { AdvanceIssue, InvoiceIssue, InvoiceListing, KeepAddressResult, LateInvoiceResult, StoredInvoice } from './tables/invoices.ts'
export type { DealChange, DealChangeResult, DealMail, SoldNotice } from './deal-step.ts'
export type { Work } from './unit-of-work.ts'
// The leased queues' tables (decisions 057, 060).
export type { DnsNameRecords, DnsUpdateItem, DnsUpdateSent } from './tables/dns-updates.ts'
export type { DomainNoticeItem } from './tables/domain-notices.ts'
// The background tables (decision 060).
export type { DigestDomain, DigestFacts } from './tables/digest.ts'
// The inquiries' confirmation (decision 060, second round).
export type { ConfirmationTarget } from './tables/confirmations.ts'
export type { Erased, PersonInquiry } from './privacy.ts'
// The audit trail's and the visitor statistics' tables (decision 060, second round).
export type * from './tables/audit-log.ts'
export type { VisitCount, VisitMetric, VisitorHash } from './tables/visits.ts'

export interface Store
  extends
    DealStore,
    DealRecordStore,
    DealReminderStore,
    PaymentStore,
    JobStore,
    InvoiceStore,
    DnsUpdateStore,
    DomainCheckStore,
    DomainNoticeStore,
    AuditStore,
    VisitStore,
    DomainEditStore {
  /**
   * Stores the inquiry and, if the plans say so, its outbox entry and the visitor's confirmation, in one durable
   * transaction. A verify plan stores it as 'unconfirmed'.
   */
  saveInquiry(inquiry: NewInquiry, mail: MailPlan, confirm?: ConfirmPlan): Promise<SaveResult>
  /**
   * The digest's numbers: inquiries, spam, offers and failed mail in [since, until); page views of the UTC days from
   * since's day up to (not including) until's day.
   */
  digestFacts(range: { since: number; until: number; quietSince: number }): Promise<DigestFacts>
  /** Each leased table's functions, as its module hands them to its worker's queue (queue/leased-queue.ts). */
  readonly queues: {
    outbox: LeasedQueueTable<OutboxItem>
    dnsUpdates: LeasedQueueTable<DnsUpdateItem, DnsUpdateSent>
    domainNotices: LeasedQueueTable<DomainNoticeItem>
  }
  /**
   * Leases pending mail whose next attempt is due, oldest first, to `owner` until now + leaseMs: no other process
   * gets it meanwhile. Marking it sent, retried or failed ends the lease.
   */
  claimDueMail(now: number, limit: number, owner: string, leaseMs: number): Promise<OutboxItem[]>
  /** Ends the leases of `owner` exactly: a queue giving back what it will not deliver in time. */
  releaseLeases(owner: string): Promise<void>
  /**
   * Ends the leases of a process that is gone (`host:pid`, leaseOwnerOf), its queues' (`host:pid:dns`, …) with them:
   * a cluster's primary, for a worker that died.
   */
  releaseLeasesOfProcess(owner: string): Promise<void>
  /**
   * Called once as this host starts, before any of its processes claims mail (by a single server, or by a cluster's
   * primary): ends the leases a previous run left behind, where the store can tell which those are. SQLite: all of
   * them (only this host's processes use the file, and DATA_DIR is locked, so every lease in it is left over).
   * PostgreSQL: none (other instances may be running; a dead one's leases run out after MAIL_LEASE_SECONDS).
   */
  releaseLeftoverLeases(): Promise<void>
  /**
   * Whether server instances on other hosts can use this store at the same time: PostgreSQL yes; SQLite no (the file
   * is in DATA_DIR, which one server locks, and its cluster's processes share the host's files anyway).
   */
  readonly sharedByInstances: boolean
  /** When the next pending mail is due (or its lease ends), or null if none is pending. */
  nextDueAt(): Promise<number | null>
  markSent(id: number, now: number): Promise<void>
  markRetry(id: number, nextAttemptAt: number, error: string): Promise<void>
  markFailed(id: number, error: string, now: number): Promise<void>
  getInquiry(id: number): Promise<StoredInquiry | null>
  /** The inquiry a confirmation link names, or null when there is none (any more). */
  confirmationTarget(id: number): Promise<ConfirmationTarget | null>
  /** tables/confirmations.ts confirmInquiry in a transaction of its own. */
  confirmInquiry(id: number, domain: string, mail: MailPlan, now: number): Promise<ConfirmResult>
  /** Erases the inquiries that waited longer than UNCONFIRMED_TTL_MS, with their mails; returns how many. */
  eraseExpiredUnconfirmed(now: number): Promise<number>
  // GDPR (store/privacy.ts):
  /** Every inquiry whose e-mail address is this one (ignoring case), oldest first, with its replies and mail. */
  personData(email: string): Promise<PersonInquiry[]>
  /** Erases every inquiry with this e-mail address (ignoring case) with its replies and outbox rows (Art. 17). */
  eraseByEmail(email: string): Promise<Erased>
  /** Erases these inquiries with their replies and outbox rows, in one transaction; then call purgeErased. */
  eraseInquiries(ids: number[]): Promise<Erased>
  /** Rewrites SQLite's FTS index, which keeps erased words until its pages are merged. (eraseByEmail does it by itself.) */
  purgeErased(): Promise<void>
  /** Up to `limit` inquiries, oldest first, that arrived before `before` and have no reply since then. */
  staleInquiries(before: number, limit: number): Promise<number[]>
  /** The inquiry stored under a form token and content digest, if any (a token alone may stand for several). */
  findInquiry(token: string, contentHash: string): Promise<StoredInquiry | null>
  outboxStatus(inquiryId: number): Promise<{ status: OutboxStatus; attempts: number; lastError: string | null } | null>
  /** Writes a small row: throws StoreUnavailableError when the store cannot take writes now. */
  checkWritable(now: number): Promise<void>
  outboxHealth(): Promise<OutboxHealth>
  /** Adds page views counted in memory (domain, UTC day, count). */
  addPageViews(rows: { domain: string; day: string; views: number }[]): Promise<void>
  // The owner's inbox (the CLI):
  listInquiries(filter: InquiryFilter): Promise<InquiryListing[]>
  listOutbox(status?: OutboxStatus): Promise<OutboxListing[]>
  /** Queues the inquiry's mail again (to `mailTo`, or as before), due now, with a new Message-ID. */
  requeueMail(inquiryId: number, now: number, mailTo?: string | null): Promise<boolean>
  /** Queues every failed mail again; returns how many. */
  requeueFailed(now: number): Promise<number>
  dailyStats(filter: { domain?: string; sinceDay?: string }): Promise<DailyStats[]>
  /**
   * For a name only a wildcard entry covers (Caddy's on-demand TLS asks before it requests a certificate): true
   * when the name was approved before, or when fewer than `limit` names under `wildcard` were approved on `day`
   * (UTC, YYYY-MM-DD); then it is recorded as approved. Approved names stay approved, so renewals pass. Atomic
   * across every process on the store.
   */
  approveWildcardName(request: { wildcard: string; name: string; day: string; limit: number }): Promise<boolean>
  // The owner's console:
  consoleInquiries(filter: ConsoleFilter): Promise<ConsoleInquiry[]>
  /** Every domain with at least one inquiry (ASCII), sorted. */
  inquiryDomains(): Promise<string[]>
  inquiryThread(id: number): Promise<InquiryThread | null>
  /** Stores the reply, queues its mail to the visitor and marks the inquiry answered; null when there is no such inquiry. */
  addReply(reply: NewReply): Promise<number | null>
  /** Archives the inquiry, or brings it back (as answered when it has replies, else new). */
  setArchived(id: number, archived: boolean): Promise<boolean>
  /** Marks the inquiry as spam (reason "owner"); its mail and notifications, if still pending, are not sent. */
  markSpam(id: number): Promise<boolean>
  /**
   * Marks a spam inquiry as genuine and queues its mail to the owner (to `mailTo`, or MAIL_TO when null) and a
   * notification to each of `notify`.
   */
  markNotSpam(id: number, mailTo: string | null, now: number, notify?: readonly string[]): Promise<boolean>
  /** Erases the inquiry with its replies and every mail about it (GDPR Art. 17). */
  deleteInquiry(id: number): Promise<boolean>
  /**
   * Outbox entries in these states, oldest first; with `page`, at most `limit` of them, those after `after` (a keyset:
   * a long outbox is read page by page, never cut off).
   */
  listMail(statuses: OutboxStatus[], page?: { after?: { createdAt: number; id: number }; limit?: number }): Promise<MailListing[]>
  /** Queues one outbox entry again, due now; false when there is none or it is being sent. */
  resendMail(outboxId: number, now: number): Promise<boolean>
  /** Every genuine offer since `since` (epoch ms). */
  offersSince(since: number): Promise<{ domain: string; amount: number; currency: string; createdAt: number }[]>
  // Sign-in:
  /** The owner's password hash, or null when none is set. */
  ownerPassword(): Promise<string | null>
  /** Sets the owner's password hash and ends every session. */
  setOwnerPassword(hash: string, now: number): Promise<void>
  createSession(idHash: string, now: number, details?: SessionDetails): Promise<void>
  /**
   * True when the session exists, was used within `idleMs` and began within `maxMs`; it then counts as used now.
   * An expired session is removed.
   */
  useSession(idHash: string, now: number, idleMs: number, maxMs: number): Promise<boolean>
  deleteSession(idHash: string): Promise<void>
  /** The sessions valid now, the last used first (decision 041). */
  listSessions(now: number, idleMs: number, maxMs: number): Promise<SessionListing[]>
  deleteAllSessions(): Promise<void>
  listPasskeys(): Promise<PasskeyRecord[]>
  passkeyByCredentialId(credentialId: string): Promise<PasskeyRecord | null>
  /** Its id; null when a passkey with this credential id exists already. */
  addPasskey(passkey: NewPasskey, now: number): Promise<number | null>
  deletePasskey(id: number): Promise<boolean>
  /** Moves the signature counter from `counterBefore` to `counterAfter`; false when another sign-in moved it first. */
  usePasskey(id: number, counterBefore: number, counterAfter: number, now: number): Promise<boolean>
  putChallenge(challenge: string, purpose: ChallengePurpose, sessionHash: string | null, expiresAt: number, now: number): Promise<void>
  /** Takes the challenge (it is gone afterwards); null when unknown, of another purpose, or expired. */
  takeChallenge(challenge: string, purpose: ChallengePurpose, now: number): Promise<{ sessionHash: string | null } | null>
  totp(): Promise<TotpRecord | null>
  /** A new secret being set up; false when a confirmed one is on. */
  startTotp(secret: string, now: number): Promise<boolean>
  /**
   * Switches the factor on with its first code's time step and the recovery codes' hashes, and ends every session but
   * `keepSession` (the one switching it on); false when `secret` is not the one being set up.
   */
  confirmTotp(secret: string, step: number, recoveryHashes: string[], now: number, keepSession: string | null): Promise<boolean>
  /** Marks a time step used; false when it, or a later one, was used already (a replayed code). */
  useTotpStep(step: number): Promise<boolean>
  useRecoveryCode(codeHash: string, now: number): Promise<boolean>
  recoveryCodesLeft(): Promise<number>
  /** Switches the second factor off (set-password --reset-2fa) and ends every session. */
  resetSecondFactor(): Promise<void>
  /**
   * The secret that signs form tokens and keys the rate-limit counters, the same for every process on this store:
   * created by the first one that asks. SQLite keeps it in a file in DATA_DIR, PostgreSQL in the database.
   */
  secret(): Promise<string>
  /** Runs a use case's steps in one transaction over the tables' functions (decision 060). */
  transact: UnitOfWork
  close(): Promise<void>
}

// The Store's methods over the deal's tables, for the callers that do not hold a unit of work themselves (decision 060).

export interface DealRecordStore {
  getDeal(id: number): Promise<StoredDeal | null>
  /** The deal whose link id hashes to `linkHash`, or null. */
  dealByLink(linkHash: string): Promise<StoredDeal | null>
  /** The open deal (not cancelled) of an inquiry, or null. */
  openDealOf(inquiryId: number): Promise<StoredDeal | null>
  /** Every deal, or those in one state; the next deadline first. */
  listDeals(filter?: { status?: DealState }): Promise<StoredDeal[]>
  /** One step of a deal composed by the caller: its new state and fields and its mail to the buyer, in one transaction. */
  changeDeal(id: number, change: DealChange): Promise<DealChangeResult>
  /** The sealed transfer code, or null. */
  dealTransferCode(id: number): Promise<string | null>
  /** An open deal (awaiting payment, paid, transferred) of a domain, or a completed one (sold); null when neither. */
  dealOfDomain(domain: string): Promise<{ id: number; status: DealState } | null>
  /** Every domain (ASCII) with a completed deal: sold, whatever the domains file says (decision 033). */
  soldDomains(): Promise<string[]>
  /** Transferred deals whose time to complete by themselves has come by `now`. */
  dealsToComplete(now: number): Promise<number[]>
  /** Erases the transfer codes of deals completed at or before `completedBy`; returns how many. */
  eraseTransferCodes(completedBy: number): Promise<number>
}

/** The negotiation (store/deal.ts over store/negotiation.ts; docs/negotiation.md). */
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

/** A deal's deadline reminders (store/deal.ts over tables/deal-deadlines.ts; decision 036). */
export interface DealReminderStore {
  /** The deadline reminders due by `now` and not sent yet (decision 036), oldest deal first. */
  dealRemindersDue(now: number): Promise<{ id: number; reminder: DealReminder }[]>
  /**
   * Queues a reminder's mail and marks it sent, in one transaction; false (nothing queued) when it was sent already or
   * the deal has moved on since.
   */
  queueDealReminder(id: number, reminder: DealReminder, mail: DealMail, now: number, notify?: readonly string[]): Promise<boolean>
  /** The instalment plans' rate reminders due by `now` and not sent yet, of deals not cancelled (decision 042). */
  rateRemindersDue(now: number): Promise<{ id: number; number: number; reminder: RateReminder }[]>
}

/** Invoices (store/invoice.ts over tables/invoices.ts; decision 038). */
export interface InvoiceStore {
  /**
   * Keeps the invoice address of a deal from a negotiation (the checkout's columns of its inquiry), in a transaction
   * that also finds no invoice of the deal: an address on an issued invoice never changes.
   */
  keepInvoiceAddress(dealId: number, address: InvoiceAddress): Promise<KeepAddressResult>
  /** Issues the invoice of a deal that is paid (or further) and has none, without a mail: the buyer's page lists it. */
  issueLateInvoice(dealId: number, issue: Extract<InvoiceIssue, { kind: 'invoice' }>, now: number): Promise<LateInvoiceResult>
  /**
   * The invoice with its PDF, whose bytes are checked against the stored SHA-256 on every read: InvoiceHashMismatchError
   * when they differ (changed or swapped in the database), or one of the two is missing.
   */
  getInvoice(id: number): Promise<StoredInvoice | null>
  /** A deal's invoices, oldest first. */
  dealInvoices(dealId: number): Promise<InvoiceListing[]>
  /** Every invoice, newest first. */
  listInvoices(): Promise<InvoiceListing[]>
  /** The invoices that go with the mail of this reply. */
  replyInvoices(replyId: number): Promise<number[]>
  /**
   * Keeps the PDF drawn for an invoice, unless one is kept already (another process drew it first): an invoice's
   * bytes never change once stored. Returns the bytes and hash that are kept.
   */
  keepInvoicePdf(id: number, pdf: Buffer, sha256: string): Promise<{ pdf: Buffer; sha256: string }>
  /**
   * Erases the invoices issued before `issuedBefore` (their retention period over, decision 038), in one transaction;
   * an invoice whose Stornorechnung is still kept stays with it. Returns the erased numbers.
   */
  eraseInvoicesIssuedBefore(issuedBefore: number): Promise<number[]>
}

/** Bank statements (store/payments.ts over tables/bank-payments.ts; decision 040). */
export interface PaymentStore {
  /** Which of these keys are recorded, with the deal each went to (null once the deal is erased). */
  bankPaymentsByKey(keys: readonly string[]): Promise<Map<string, number | null>>
  /** Net minor units recorded per deal (payments less returns), in the deal's currency. */
  receivedByDeal(dealIds: readonly number[]): Promise<Map<number, number>>
  /** Net minor units recorded per reference of these deals (an instalment plan's rates, decision 042). */
  receivedByReference(dealIds: readonly number[]): Promise<Map<string, number>>
  /** Records the bookings not recorded yet, in one transaction; returns how many were new. */
  recordBankPayments(payments: readonly NewBankPayment[], now: number): Promise<number>
}

/** The audit trail (tables/audit-log.ts; decision 043). */
interface AuditStore {
  addAuditEntry(entry: NewAuditEntry): Promise<void>
  auditEntries(filter: AuditFilter): Promise<AuditEntry[]>
  /** Removes the rows from before `before` (retention, 2 years); returns how many. */
  pruneAudit(before: number): Promise<number>
}

/** Visitor statistics (tables/visits.ts; decision 049). */
interface VisitStore {
  /** Adds the counts to what is stored (one row per domain, day, metric and key). */
  addVisitCounts(rows: VisitCount[]): Promise<void>
  /** Stores the hashes of the day's visitors; one seen before that day is kept once. */
  addVisitorHashes(rows: VisitorHash[]): Promise<void>
  /** The salt of a Berlin day: the stored one, or `candidate` if there was none (every process gets the same). */
  visitSalt(day: string, candidate: string): Promise<string>
  /**
   * Ends the days before `day`: their salts are erased, their visitor hashes become a count (metric 'visitor') and
   * are erased too. Safe to run in several processes at once: each hash is counted by the one that deleted it.
   */
  settleVisitDays(day: string): Promise<void>
  /** The counts from `sinceDay` on, today's visitors counted from the hashes. */
  visitCounts(filter: { sinceDay: string; domain?: string }): Promise<VisitCount[]>
  /** The first day anything was counted (how far back "no visitor" can be said), null before. */
  firstVisitDay(): Promise<string | null>
}

export { guardBy, InvoiceHashMismatchError, StoreUnavailableError } from './errors.ts'
