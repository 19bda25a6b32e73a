// The owner's side of the PostgreSQL store: listing, exporting, resending, statistics and page views.
import type pg from 'pg'
import { guardedPg, transactionPg } from './postgres-common.ts'
import { messageIdFor, toInquiry, toOutboxListing, type InquiryRow } from './rows.ts'
import type { DailyStats, InquiryListing, OutboxStatus, Store } from './types.ts'

type InboxMethods = Pick<Store, 'addPageViews' | 'listInquiries' | 'listOutbox' | 'requeueMail' | 'requeueFailed' | 'dailyStats'>
type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>

export function postgresInbox(pool: pg.Pool, query: Query): InboxMethods {
  return {
    async addPageViews(rows) {
      if (rows.length === 0) return
      await query(
        `INSERT INTO page_views (domain, day, views)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (domain, day) DO UPDATE SET views = page_views.views + excluded.views`,
        [rows.map((row) => row.domain), rows.map((row) => row.day), rows.map((row) => row.views)],
      )
    },
    async listInquiries(filter) {
      const where: string[] = []
      const params: unknown[] = []
      const param = (value: unknown) => `$${params.push(value)}`
      if (filter.domain) where.push(`i.domain = ${param(filter.domain)}`)
      if (filter.since !== undefined) where.push(`i.created_at >= ${param(filter.since)}`)
      if (filter.until !== undefined) where.push(`i.created_at < ${param(filter.until)}`)
      if (filter.spam !== undefined) where.push(filter.spam ? 'i.spam_reason IS NOT NULL' : 'i.spam_reason IS NULL')
      const rows = await query<InquiryRow & { mail_status: OutboxStatus | null }>(
        `SELECT i.*, o.status AS mail_status FROM inquiries i LEFT JOIN outbox o ON o.inquiry_id = i.id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY i.created_at DESC, i.id DESC LIMIT ${param(filter.limit ?? null)}`,
        params,
      )
      return rows.map((row): InquiryListing => ({ ...toInquiry(row), mailStatus: row.mail_status }))
    },
    async listOutbox(status) {
      const rows = await query(
        `SELECT o.inquiry_id, i.domain, o.status, o.attempts, o.next_attempt_at, o.last_error, o.created_at, o.mail_to
         FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id ${status ? 'WHERE o.status = $1' : ''} ORDER BY o.created_at`,
        status ? [status] : [],
      )
      return rows.map(toOutboxListing)
    },
    async requeueMail(inquiryId, now, mailTo = null) {
      return guardedPg(() =>
        transactionPg(pool, async (client) => {
          const inquiry = (await client.query<{ id: number; token: string; domain: string }>('SELECT id, token, domain FROM inquiries WHERE id = $1', [inquiryId])).rows[0]
          if (!inquiry) return false
          const previous = (await client.query<{ resends: number }>('SELECT resends FROM outbox WHERE inquiry_id = $1 FOR UPDATE', [inquiryId])).rows[0]
          const messageId = messageIdFor(inquiry, (previous?.resends ?? 0) + 1)
          await client.query(
            `INSERT INTO outbox (inquiry_id, message_id, status, attempts, next_attempt_at, created_at, mail_to, resends)
             VALUES ($1, $2, 'pending', 0, $3, $3, $4, 1)
             ON CONFLICT (inquiry_id) DO UPDATE SET status = 'pending', next_attempt_at = excluded.next_attempt_at,
               created_at = excluded.created_at, attempts = 0, last_error = NULL, message_id = excluded.message_id,
               mail_to = COALESCE(excluded.mail_to, outbox.mail_to), resends = outbox.resends + 1, lease_owner = NULL, lease_until = NULL`,
            [inquiryId, messageId, now, mailTo],
          )
          return true
        }),
      )
    },
    async requeueFailed(now) {
      const ids = (await query<{ inquiry_id: number }>(`SELECT inquiry_id FROM outbox WHERE status = 'failed'`)).map((row) => row.inquiry_id)
      for (const id of ids) await this.requeueMail(id, now)
      return ids.length
    },
    async dailyStats(filter) {
      return query<DailyStats>(
        `WITH inquiries_by_day AS (
           SELECT domain, to_char(to_timestamp(created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                  COUNT(*) FILTER (WHERE spam_reason IS NULL) AS inquiries,
                  COUNT(*) FILTER (WHERE spam_reason IS NOT NULL) AS spam
           FROM inquiries GROUP BY 1, 2),
         keys AS (SELECT domain, day FROM page_views UNION SELECT domain, day FROM inquiries_by_day)
         SELECT k.domain, k.day, COALESCE(v.views, 0) AS views, COALESCE(i.inquiries, 0) AS inquiries, COALESCE(i.spam, 0) AS spam
         FROM keys k LEFT JOIN page_views v USING (domain, day) LEFT JOIN inquiries_by_day i USING (domain, day)
         WHERE ($1::text IS NULL OR k.domain = $1) AND ($2::text IS NULL OR k.day >= $2)
         ORDER BY k.day, k.domain`,
        [filter.domain ?? null, filter.sinceDay ?? null],
      )
    },
  }
}
