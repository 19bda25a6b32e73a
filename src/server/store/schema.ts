// The tables as the query layer sees them, the same in both databases (PostgreSQL's BIGINT columns are read as
// numbers: see postgres.ts). Generated columns are `Generated`, so inserts need not name them.
import type { Generated } from 'kysely'
import type { OutboxStatus } from './types.ts'

export interface Database {
  inquiries: {
    id: Generated<number>
    token: string
    content_hash: string
    domain: string
    name: string
    email: string
    message: string
    spam_reason: string | null
    offer_amount: number | null
    offer_currency: string | null
    /** 0 or 1: SQLite has no boolean. */
    below_minimum: number
    created_at: number
  }
  outbox: {
    id: Generated<number>
    inquiry_id: number
    message_id: string
    status: OutboxStatus
    attempts: Generated<number>
    next_attempt_at: number
    last_error: string | null
    created_at: number
    sent_at: number | null
    failed_at: number | null
    mail_to: string | null
    resends: Generated<number>
    lease_owner: string | null
    lease_until: number | null
  }
  meta: { key: string; value: string }
  page_views: { domain: string; day: string; views: number }
  tls_names: { wildcard: string; name: string; day: string }
}
