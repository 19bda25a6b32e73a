// The store interface. The embedded default is SQLite (sqlite.ts); PostgreSQL (postgres.ts) implements the same.
import type { ConfirmationStore, ConfirmPlan } from './confirmation-types.ts'
import type { DealStore } from './deal-types.ts'
import type { DealRateStore, DealRecordStore, DealReminderStore } from './deal-record-types.ts'
import type {
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
} from './inquiry-types.ts'
import type { JobStore } from './job-types.ts'
import type { DnsUpdateStore } from './dns-types.ts'
import type { DomainCheckStore } from './domain-check-types.ts'
import type { PaymentStore } from './payment-types.ts'
import type { InvoiceStore } from './invoice-types.ts'
import type { DomainEditStore } from './domain-edits-types.ts'
import type { PrivacyStore } from './privacy-types.ts'
import type { AuditStore } from './audit-types.ts'
import type { VisitStore } from './visit-types.ts'

// The parts of the store with a file of their own; their types are these files', re-exported here.
export type * from './inquiry-types.ts'
export type * from './confirmation-types.ts'
export type * from './deal-types.ts'
export type * from './deal-record-types.ts'
export type * from './privacy-types.ts'
export type * from './job-types.ts'
export type * from './payment-types.ts'
export type * from './invoice-types.ts'
export type * from './dns-types.ts'
export type * from './domain-check-types.ts'
export type * from './audit-types.ts'
export type * from './domain-edits-types.ts'
export type * from './visit-types.ts'

export interface Store
  extends
    ConfirmationStore,
    DealStore,
    DealRecordStore,
    DealReminderStore,
    DealRateStore,
    PaymentStore,
    PrivacyStore,
    JobStore,
    InvoiceStore,
    DnsUpdateStore,
    DomainCheckStore,
    AuditStore,
    VisitStore,
    DomainEditStore {
  /**
   * Stores the inquiry and, if the plans say so, its outbox entry and the visitor's confirmation, in one durable
   * transaction. A verify plan stores it as 'unconfirmed'.
   */
  saveInquiry(inquiry: NewInquiry, mail: MailPlan, confirm?: ConfirmPlan): Promise<SaveResult>
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
  close(): Promise<void>
}

/** What the sessions page shows of a session (decision 041). */
interface SessionDetails {
  userAgent: string | null
  address: string | null
  method: string
}

interface SessionListing {
  idHash: string
  createdAt: number
  lastSeenAt: number
  userAgent: string | null
  address: string | null
  method: string | null
}

interface NewPasskey {
  credentialId: string
  publicKey: string
  counter: number
  transports: string[]
  name: string
}

export interface PasskeyRecord extends NewPasskey {
  id: number
  createdAt: number
  lastUsedAt: number | null
}

type ChallengePurpose = 'register' | 'sign-in'

interface TotpRecord {
  /** Sealed with the deal key (lib/seal.ts): the store never sees the secret itself. */
  secret: string
  confirmedAt: number | null
  lastStep: number
}

/** Thrown when the store cannot take a write now (disk full, locked): the client is told to retry, never "ok". */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}

/**
 * Thrown when an invoice's stored PDF does not have the stored SHA-256 (decision 038): the bytes were changed or
 * swapped outside the server. Its bytes are handed to no one (a 500, a failed CLI command, a mail held back) until
 * the invoice is restored from a backup.
 */
export class InvoiceHashMismatchError extends Error {
  override name = 'InvoiceHashMismatchError'
  /** The invoice's number in the gapless sequence. */
  readonly invoice: number
  constructor(invoice: number, detail: string) {
    super(`invoice ${invoice}: hash mismatch, ${detail}; its bytes are not handed out (restore the invoice from a backup)`)
    this.invoice = invoice
  }
}

/** Wraps work so that a failure `isTransient` calls "not now" becomes StoreUnavailableError (503 + Retry-After). */
export function guardBy(isTransient: (error: unknown) => boolean) {
  const unavailable = (error: unknown) => (isTransient(error) ? new StoreUnavailableError((error as Error).message, { cause: error }) : error)
  return {
    sync<T>(work: () => T): T {
      try {
        return work()
      } catch (error) {
        throw unavailable(error)
      }
    },
    async async<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work()
      } catch (error) {
        throw unavailable(error)
      }
    },
  }
}
