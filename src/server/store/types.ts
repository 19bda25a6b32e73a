// The store interface. The embedded default is SQLite (sqlite.ts); other stores implement the same methods.

export interface NewInquiry {
  /** The form token: single use, and the idempotency key of a submission. */
  token: string
  /** A digest of the content, to tell a retry (same content) from a re-use (different content). */
  contentHash: string
  /** ASCII (punycode) form of the domain the visitor wrote from. */
  domain: string
  name: string
  email: string
  message: string
  /** Why the submission was recognised as spam, or null for a genuine inquiry (the only kind that is mailed). */
  spamReason: string | null
  createdAt: number
}

export interface StoredInquiry extends NewInquiry {
  id: number
}

export type SaveResult =
  | { status: 'created'; id: number }
  | { status: 'duplicate'; id: number }
  | { status: 'conflict' }

export interface OutboxItem {
  id: number
  messageId: string
  attempts: number
  createdAt: number
  inquiry: StoredInquiry
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

export interface Store {
  /** Stores the inquiry and, unless it is spam, its outbox entry, in one durable transaction. */
  saveInquiry(inquiry: NewInquiry): Promise<SaveResult>
  /** Pending mail whose next attempt is due, oldest first. */
  dueMail(now: number, limit: number): Promise<OutboxItem[]>
  /** When the next pending mail is due, or null if none is pending. */
  nextDueAt(): Promise<number | null>
  markSent(id: number, now: number): Promise<void>
  markRetry(id: number, nextAttemptAt: number, error: string): Promise<void>
  markFailed(id: number, error: string, now: number): Promise<void>
  getInquiry(id: number): Promise<StoredInquiry | null>
  outboxStatus(inquiryId: number): Promise<{ status: OutboxStatus; attempts: number; lastError: string | null } | null>
  /** Writes a small row: throws StoreUnavailableError when the store cannot take writes now. */
  checkWritable(now: number): Promise<void>
  outboxHealth(): Promise<OutboxHealth>
  close(): Promise<void>
}

/** Thrown when the store cannot take a write now (disk full, locked): the client is told to retry, never "ok". */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError'
}
