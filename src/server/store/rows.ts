// Row mapping shared by the stores: both keep the same columns under the same names.
import type { NewInquiry, OutboxItem, OutboxListing, OutboxStatus, StoredInquiry } from './types.ts'

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

/** The inquiry's columns in the order of both stores' INSERT statements. */
export const inquiryValues = (inquiry: NewInquiry) => [
  inquiry.token,
  inquiry.contentHash,
  inquiry.domain,
  inquiry.name,
  inquiry.email,
  inquiry.message,
  inquiry.spamReason,
  inquiry.offerEur,
  inquiry.belowMinimum ? 1 : 0,
  inquiry.createdAt,
]

/** The outbox figures for /readyz: the same SQL in both dialects. */
export const OUTBOX_HEALTH_SQL = `SELECT
  COUNT(*) FILTER (WHERE status = 'pending') AS pending,
  COUNT(*) FILTER (WHERE status = 'failed') AS failed,
  MIN(created_at) FILTER (WHERE status = 'pending') AS oldest_pending_at,
  MIN(created_at) FILTER (WHERE status = 'pending' AND attempts > 0) AS failing_since
FROM outbox`

/** A leased outbox row joined with its inquiry, as both stores' claim queries return it. */
export type LeasedRow = InquiryRow & {
  outbox_id: number
  message_id: string
  attempts: number
  outbox_created_at: number
  mail_to: string | null
}

export const toOutboxItem = (row: LeasedRow): OutboxItem => ({
  id: row.outbox_id,
  messageId: row.message_id,
  mailTo: row.mail_to,
  attempts: row.attempts,
  createdAt: row.outbox_created_at,
  inquiry: toInquiry(row),
})

export const toOutboxListing = (row: Record<string, unknown>): OutboxListing => ({
  inquiryId: row.inquiry_id as number,
  domain: row.domain as string,
  status: row.status as OutboxStatus,
  attempts: row.attempts as number,
  nextAttemptAt: row.next_attempt_at as number,
  lastError: row.last_error as string | null,
  createdAt: row.created_at as number,
  mailTo: row.mail_to as string | null,
})

/**
 * A stable Message-ID, so that a mail sent again after a crash is recognisable as the same mail. A deliberate
 * resend (the owner asked for it) gets a new one, so that no mail system drops it as a duplicate.
 */
export const messageIdFor = (inquiry: { id: number; token: string; domain: string }, resend = 0) =>
  `<inquiry-${inquiry.id}-${inquiry.token}${resend ? `-resend${resend}` : ''}@${inquiry.domain}>`
