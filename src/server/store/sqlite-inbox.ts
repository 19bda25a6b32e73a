// The owner's side of the SQLite store: listing, exporting, resending, statistics and page views.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import { messageIdFor, toInquiry, toOutboxListing, type InquiryRow } from './rows.ts'
import { guarded, transaction } from './sqlite-common.ts'
import type { DailyStats, InquiryListing, OutboxStatus, Store } from './types.ts'

type InboxMethods = Pick<Store, 'addPageViews' | 'listInquiries' | 'listOutbox' | 'requeueMail' | 'requeueFailed' | 'dailyStats'>

export function sqliteInbox(db: DatabaseSync): InboxMethods {
  const q = {
    addViews: db.prepare(
      `INSERT INTO page_views (domain, day, views) VALUES (?, ?, ?)
       ON CONFLICT (domain, day) DO UPDATE SET views = views + excluded.views`,
    ),
    inquiry: db.prepare('SELECT id, token, domain FROM inquiries WHERE id = ?'),
    requeue: db.prepare(
      `INSERT INTO outbox (inquiry_id, message_id, status, attempts, next_attempt_at, created_at, mail_to, resends)
       VALUES (?, ?, 'pending', 0, ?, ?, ?, 1)
       ON CONFLICT (inquiry_id) DO UPDATE SET status = 'pending', next_attempt_at = excluded.next_attempt_at,
         created_at = excluded.created_at, attempts = 0, last_error = NULL, message_id = ?,
         mail_to = COALESCE(?, outbox.mail_to), resends = outbox.resends + 1, lease_owner = NULL, lease_until = NULL`,
    ),
    resends: db.prepare('SELECT resends FROM outbox WHERE inquiry_id = ?'),
    failedIds: db.prepare(`SELECT inquiry_id FROM outbox WHERE status = 'failed'`),
  }

  return {
    async addPageViews(rows) {
      if (rows.length === 0) return
      guarded(() => transaction(db, () => rows.forEach((row) => q.addViews.run(row.domain, row.day, row.views))))
    },
    async listInquiries(filter) {
      const where: string[] = []
      const params: SQLInputValue[] = []
      const condition = (sql: string, value: SQLInputValue) => {
        where.push(sql)
        params.push(value)
      }
      if (filter.domain) condition('i.domain = ?', filter.domain)
      if (filter.since !== undefined) condition('i.created_at >= ?', filter.since)
      if (filter.until !== undefined) condition('i.created_at < ?', filter.until)
      if (filter.spam !== undefined) where.push(filter.spam ? 'i.spam_reason IS NOT NULL' : 'i.spam_reason IS NULL')
      const sql = `SELECT i.*, o.status AS mail_status FROM inquiries i LEFT JOIN outbox o ON o.inquiry_id = i.id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY i.created_at DESC, i.id DESC LIMIT ?`
      const rows = db.prepare(sql).all(...params, filter.limit ?? -1) as unknown as (InquiryRow & { mail_status: OutboxStatus | null })[]
      return rows.map((row): InquiryListing => ({ ...toInquiry(row), mailStatus: row.mail_status }))
    },
    async listOutbox(status) {
      const rows = db
        .prepare(
          `SELECT o.inquiry_id, i.domain, o.status, o.attempts, o.next_attempt_at, o.last_error, o.created_at, o.mail_to
           FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id ${status ? 'WHERE o.status = ?' : ''} ORDER BY o.created_at`,
        )
        .all(...(status ? [status] : [])) as unknown as Record<string, unknown>[]
      return rows.map(toOutboxListing)
    },
    async requeueMail(inquiryId, now, mailTo = null) {
      return guarded(() =>
        transaction(db, () => {
          const inquiry = q.inquiry.get(inquiryId) as { id: number; token: string; domain: string } | undefined
          if (!inquiry) return false
          const resends = ((q.resends.get(inquiryId) as { resends: number } | undefined)?.resends ?? 0) + 1
          const messageId = messageIdFor(inquiry, resends)
          q.requeue.run(inquiryId, messageId, now, now, mailTo, messageId, mailTo)
          return true
        }),
      )
    },
    async requeueFailed(now) {
      const ids = (q.failedIds.all() as { inquiry_id: number }[]).map((row) => row.inquiry_id)
      for (const id of ids) await this.requeueMail(id, now)
      return ids.length
    },
    async dailyStats(filter) {
      const rows = db
        .prepare(
          `WITH inquiries_by_day AS (
             SELECT domain, strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day,
                    COUNT(*) FILTER (WHERE spam_reason IS NULL) AS inquiries,
                    COUNT(*) FILTER (WHERE spam_reason IS NOT NULL) AS spam
             FROM inquiries GROUP BY 1, 2),
           keys AS (SELECT domain, day FROM page_views UNION SELECT domain, day FROM inquiries_by_day)
           SELECT k.domain, k.day, COALESCE(v.views, 0) AS views, COALESCE(i.inquiries, 0) AS inquiries, COALESCE(i.spam, 0) AS spam
           FROM keys k LEFT JOIN page_views v USING (domain, day) LEFT JOIN inquiries_by_day i USING (domain, day)
           WHERE (? IS NULL OR k.domain = ?) AND (? IS NULL OR k.day >= ?)
           ORDER BY k.day, k.domain`,
        )
        .all(filter.domain ?? null, filter.domain ?? null, filter.sinceDay ?? null, filter.sinceDay ?? null) as unknown as DailyStats[]
      return rows.map((row) => ({ ...row }))
    },
  }
}
