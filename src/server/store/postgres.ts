// The store for several server instances: PostgreSQL through node-postgres (DATABASE_URL). Same tables, same
// columns and the same schema steps as the SQLite store; mail is claimed with FOR UPDATE SKIP LOCKED, so two
// instances never lease the same mail. Loaded only when DATABASE_URL is set: SQLite users never load `pg`.
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { createPool, guardedPg, transactionPg } from './postgres-common.ts'
import { migratePostgres } from './postgres-migrations.ts'
import { postgresInbox } from './postgres-inbox.ts'
import { postgresTlsNames } from './postgres-tls-names.ts'
import { OUTBOX_HEALTH_SQL, inquiryValues, messageIdFor, toInquiry, toOutboxItem, type InquiryRow, type LeasedRow } from './rows.ts'
import type { SaveResult, Store } from './types.ts'

export async function createPostgresStore(databaseUrl: string): Promise<Store> {
  const pool = createPool(databaseUrl)
  try {
    await guardedPg(() => migratePostgres(pool))
  } catch (error) {
    await pool.end()
    throw error
  }
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    guardedPg(async () => (await pool.query<R>(text, values)).rows)

  return {
    saveInquiry(inquiry, mail) {
      // One transaction per inquiry; PostgreSQL itself flushes the commits that arrive together with one WAL write.
      return guardedPg(() =>
        transactionPg(pool, async (client): Promise<SaveResult> => {
          const inserted = await client.query<{ id: number }>(
            `INSERT INTO inquiries (token, content_hash, domain, name, email, message, spam_reason, offer_eur, below_minimum, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (token) DO NOTHING RETURNING id`,
            inquiryValues(inquiry),
          )
          const id = inserted.rows[0]?.id
          if (id === undefined) {
            const existing = (await client.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM inquiries WHERE token = $1', [inquiry.token])).rows[0]!
            return existing.content_hash === inquiry.contentHash ? { status: 'duplicate', id: existing.id } : { status: 'conflict' }
          }
          if (mail.queue) {
            await client.query(
              `INSERT INTO outbox (inquiry_id, message_id, status, attempts, next_attempt_at, created_at, mail_to)
               VALUES ($1, $2, 'pending', 0, $3, $3, $4)`,
              [id, messageIdFor({ id, token: inquiry.token, domain: inquiry.domain }), inquiry.createdAt, mail.mailTo],
            )
          }
          return { status: 'created', id }
        }),
      )
    },
    async claimDueMail(now, limit, owner, leaseMs) {
      // SKIP LOCKED: rows another instance is claiming at this moment are passed over, not waited for.
      const rows = await query<LeasedRow>(
        `WITH claimed AS (
           UPDATE outbox SET lease_owner = $1, lease_until = $2
           WHERE id IN (SELECT id FROM outbox
                        WHERE status = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
                        ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
           RETURNING *)
         SELECT c.id AS outbox_id, c.message_id, c.attempts, c.created_at AS outbox_created_at, c.mail_to, i.*
         FROM claimed c JOIN inquiries i ON i.id = c.inquiry_id ORDER BY c.next_attempt_at, c.id`,
        [owner, now + leaseMs, now, limit],
      )
      return rows.map(toOutboxItem)
    },
    async releaseLeases(owner) {
      await query('UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner])
    },
    async releaseLeftoverLeases() {
      // Other instances may be sending right now: their leases are not ours to end. A dead one's run out.
    },
    async nextDueAt() {
      const rows = await query<{ at: number | null }>(
        `SELECT MIN(GREATEST(next_attempt_at, COALESCE(lease_until, 0))) AS at FROM outbox WHERE status = 'pending'`,
      )
      return rows[0]?.at ?? null
    },
    async markSent(id, now) {
      await query(
        `UPDATE outbox SET status = 'sent', sent_at = $1, attempts = attempts + 1, last_error = NULL, lease_owner = NULL, lease_until = NULL
         WHERE id = $2`,
        [now, id],
      )
    },
    async markRetry(id, nextAttemptAt, error) {
      await query(
        'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, lease_owner = NULL, lease_until = NULL WHERE id = $3',
        [nextAttemptAt, error.slice(0, 1000), id],
      )
    },
    async markFailed(id, error, now) {
      await query(
        `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = $1, failed_at = $2, lease_owner = NULL, lease_until = NULL
         WHERE id = $3`,
        [error.slice(0, 1000), now, id],
      )
    },
    async getInquiry(id) {
      const row = (await query<InquiryRow>('SELECT * FROM inquiries WHERE id = $1', [id]))[0]
      return row ? toInquiry(row) : null
    },
    async findInquiry(token) {
      const row = (await query<InquiryRow>('SELECT * FROM inquiries WHERE token = $1', [token]))[0]
      return row ? toInquiry(row) : null
    },
    async outboxStatus(inquiryId) {
      const row = (
        await query<{ status: 'pending' | 'sent' | 'failed'; attempts: number; last_error: string | null }>(
          'SELECT status, attempts, last_error FROM outbox WHERE inquiry_id = $1',
          [inquiryId],
        )
      )[0]
      return row ? { status: row.status, attempts: row.attempts, lastError: row.last_error } : null
    },
    async checkWritable(now) {
      await query(`INSERT INTO meta (key, value) VALUES ('ready-check', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(now)])
    },
    async outboxHealth() {
      const row = (
        await query<{ pending: number; failed: number; oldest_pending_at: number | null; failing_since: number | null }>(
          OUTBOX_HEALTH_SQL,
        )
      )[0]!
      return { pending: row.pending, failed: row.failed, oldestPendingAt: row.oldest_pending_at, failingSince: row.failing_since }
    },
    async secret() {
      // Every instance on this database must sign and check form tokens with the same secret: the first one to
      // ask stores its candidate, the others take that one.
      const candidate = randomBytes(32).toString('base64url')
      await query(`INSERT INTO meta (key, value) VALUES ('contact-secret', $1) ON CONFLICT (key) DO NOTHING`, [candidate])
      return (await query<{ value: string }>(`SELECT value FROM meta WHERE key = 'contact-secret'`))[0]!.value
    },
    ...postgresInbox(pool, query),
    ...postgresTlsNames(pool, query),
    async close() {
      await pool.end()
    },
  }
}
