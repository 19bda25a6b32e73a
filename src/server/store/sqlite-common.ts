// Row mapping and write helpers shared by the SQLite store's parts.
import type { DatabaseSync } from 'node:sqlite'
import { StoreUnavailableError, type StoredInquiry } from './types.ts'

export interface InquiryRow {
  id: number
  token: string
  content_hash: string
  domain: string
  name: string
  email: string
  message: string
  spam_reason: string | null
  offer_eur: number | null
  below_minimum: number
  created_at: number
}

export const toInquiry = (row: InquiryRow): StoredInquiry => ({
  id: row.id,
  token: row.token,
  contentHash: row.content_hash,
  domain: row.domain,
  name: row.name,
  email: row.email,
  message: row.message,
  spamReason: row.spam_reason,
  offerEur: row.offer_eur,
  belowMinimum: row.below_minimum === 1,
  createdAt: row.created_at,
})

/**
 * A stable Message-ID, so that a mail sent again after a crash is recognisable as the same mail. A deliberate
 * resend (the owner asked for it) gets a new one, so that no mail system drops it as a duplicate.
 */
export const messageIdFor = (inquiry: { id: number; token: string; domain: string }, resend = 0) =>
  `<inquiry-${inquiry.id}-${inquiry.token}${resend ? `-resend${resend}` : ''}@${inquiry.domain}>`

// SQLite result codes that mean "not now" rather than "never": BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN.
const TRANSIENT_CODES = [5, 6, 8, 10, 13, 14]

export function isTransientError(error: unknown): boolean {
  const e = error as { errcode?: number; code?: string }
  return e?.code === 'ERR_SQLITE_ERROR' && TRANSIENT_CODES.includes((e.errcode ?? 0) & 0xff)
}

/** Runs a write; a transient SQLite failure becomes StoreUnavailableError (503 + Retry-After for the client). */
export function guarded<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (isTransientError(error)) throw new StoreUnavailableError((error as Error).message, { cause: error })
    throw error
  }
}

export function transaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = work()
    db.exec('COMMIT')
    return result
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}

