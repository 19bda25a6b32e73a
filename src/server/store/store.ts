// The store, once for both databases, through Kysely's typed query builder. What really differs between SQLite
// and PostgreSQL comes in as a `DialectSpecifics` (dialect.ts; made by sqlite.ts, postgres.ts): how errors map to "try again", how
// inquiries are committed (group commit or one transaction each), the UTC-day expression, and the locks.
import { sql, type Kysely, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import { inboxStore, INQUIRY_COLUMNS, toInquiry } from './inbox.ts'
import { inquirySaver, messageIdFor } from './save-inquiry.ts'
import { dealStore } from './deal.ts'
import { dealRecordStore } from './deal-record.ts'
import { dealRateStore } from './deal-rates.ts'
import { paymentStore } from './payments.ts'
import { sessionStore } from './sessions.ts'
import { signInStore } from './sign-in.ts'
import { confirmationStore } from './confirmation.ts'
import { privacyStore } from './privacy.ts'
import { invoiceStore } from './invoice.ts'
import { jobStore } from './jobs.ts'
import { dnsUpdateStore } from './dns-updates.ts'
import { domainCheckStore } from './domain-checks.ts'
import { auditStore } from './audit.ts'
import { visitStore } from './visits.ts'
import { domainEditStore } from './domain-edits.ts'
import type { Database } from './schema.ts'
import type { DailyStats, InquiryListing, OutboxHealth, OutboxItem, OutboxListing, Store } from './types.ts'

type Db = Kysely<Database>

const noLease = { lease_owner: null, lease_until: null } as const

/** Multi-row inserts stay far below both databases' limits on bound parameters. */
const PAGE_VIEW_CHUNK = 1000

/**
 * What both databases share: everything but the secret and what a start does with leases left over, which depend
 * on whether other processes may be using the store (sqlite.ts, postgres.ts).
 */
export type SharedStore = Omit<Store, 'secret' | 'releaseLeftoverLeases' | 'sharedByInstances'> & {
  /** Ends every lease: for a store only this process (or its cluster) uses. */
  releaseAllLeases(): Promise<void>
}

export function createStore(db: Db, dialect: DialectSpecifics): SharedStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)

  const saveOne = inquirySaver(db)
  const release = (owner: string | undefined) =>
    guard(() =>
      Promise.all(
        (['outbox', 'dns_updates', 'domain_notices'] as const).map((table) =>
          db
            .updateTable(table)
            .set(noLease)
            .$if(owner === undefined, (qb) => qb.where('lease_owner', 'is not', null))
            .$if(owner !== undefined, (qb) => qb.where('lease_owner', '=', owner!))
            .execute(),
        ),
      ),
    )
  const store: SharedStore = {
    ...inboxStore(db, dialect),
    ...sessionStore(db, dialect),
    ...signInStore(db, dialect),
    ...confirmationStore(db, dialect),
    ...dealStore(db, dialect),
    ...dealRecordStore(db, dialect),
    ...dealRateStore(db, dialect),
    ...paymentStore(db, dialect),
    ...privacyStore(db, dialect),
    ...invoiceStore(db, dialect),
    ...jobStore(db, dialect),
    ...dnsUpdateStore(db, dialect),
    ...domainCheckStore(db, dialect),
    ...auditStore(db, dialect),
    ...visitStore(db, dialect),
    ...domainEditStore(db, dialect),
    saveInquiry(inquiry, mail, confirm) {
      return dialect.saveInquiry((trx) => saveOne(trx, inquiry, mail, confirm))
    },
    async claimDueMail(now, limit, owner, leaseMs) {
      return guard(async () => {
        const claimed = await db
          .updateTable('outbox')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('outbox')
              .select('id')
              .where('status', '=', 'pending')
              .where('next_attempt_at', '<=', now)
              .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
              .orderBy('next_attempt_at')
              .orderBy('id')
              .limit(limit)
              // Rows another instance is claiming at this moment are passed over, not waited for (SQLite's
              // writers take turns on the file instead).
              .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
          )
          .returning('id')
          .execute()
        if (claimed.length === 0) return []
        const rows = await db
          .selectFrom('outbox as o')
          .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
          .leftJoin('replies as r', 'r.id', 'o.reply_id')
          .select(INQUIRY_COLUMNS)
          .select([
            'o.id as outbox_id',
            'o.message_id',
            'o.attempts',
            'o.created_at as outbox_created_at',
            'o.mail_to',
            'o.webhook_url',
            'o.deal_id',
            'o.deal_event',
            'o.deal_rate',
          ])
          .select(['r.id as reply_id', 'r.body as reply_body', 'r.reply_to', 'r.kind as reply_kind', 'r.amount as reply_amount'])
          // A reply refers to the mail the owner got about the inquiry (In-Reply-To), whatever became of it.
          .select((eb) =>
            eb
              .selectFrom('outbox as first')
              .select('first.message_id')
              .whereRef('first.inquiry_id', '=', 'o.inquiry_id')
              .where('first.reply_id', 'is', null)
              .where('first.webhook_url', 'is', null)
              .as('inquiry_message_id'),
          )
          .where(
            'o.id',
            'in',
            claimed.map((row) => row.id),
          )
          .orderBy('o.next_attempt_at')
          .orderBy('o.id')
          .execute()
        return rows.map((row): OutboxItem => {
          const inquiry = { ...toInquiry(row), status: row.status }
          return {
            id: row.outbox_id,
            messageId: row.message_id,
            mailTo: row.mail_to,
            webhookUrl: row.webhook_url,
            deal:
              row.deal_id === null || row.deal_event === null
                ? null
                : { id: Number(row.deal_id), event: row.deal_event, ...(Number(row.deal_rate) !== 0 && { rate: Number(row.deal_rate) }) },
            attempts: row.attempts,
            createdAt: row.outbox_created_at,
            inquiry,
            reply:
              row.reply_id === null
                ? null
                : {
                    id: row.reply_id,
                    kind: row.reply_kind ?? 'reply',
                    amount: row.reply_amount,
                    body: row.reply_body ?? '',
                    replyTo: row.reply_to,
                    inquiryMessageId: row.inquiry_message_id ?? messageIdFor(inquiry),
                  },
          }
        })
      })
    },
    async releaseLeases(owner) {
      await release(owner)
    },
    async releaseAllLeases() {
      await release(undefined)
    },
    async nextDueAt() {
      const row = await guard(() =>
        db
          .selectFrom('outbox')
          .select(sql<number | null>`MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END)`.as('at'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
      )
      return row.at
    },
    async markSent(id, now) {
      await guard(() =>
        db
          .updateTable('outbox')
          .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null, ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    async markRetry(id, nextAttemptAt, error) {
      await guard(() =>
        db
          .updateTable('outbox')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: nextAttemptAt, last_error: error.slice(0, 1000), ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    async markFailed(id, error, now) {
      await guard(() =>
        db
          .updateTable('outbox')
          .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: error.slice(0, 1000), failed_at: now, ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    async getInquiry(id) {
      const row = await guard(() => db.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.id', '=', id).executeTakeFirst())
      return row ? toInquiry(row) : null
    },
    async findInquiry(token) {
      const row = await guard(() => db.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.token', '=', token).executeTakeFirst())
      return row ? toInquiry(row) : null
    },
    async outboxStatus(inquiryId) {
      const row = await guard(() =>
        db
          .selectFrom('outbox')
          .select(['status', 'attempts', 'last_error'])
          .where('inquiry_id', '=', inquiryId)
          .where('reply_id', 'is', null)
          .where('webhook_url', 'is', null)
          .executeTakeFirst(),
      )
      return row ? { status: row.status, attempts: row.attempts, lastError: row.last_error } : null
    },
    async checkWritable(now) {
      await write(() =>
        db
          .insertInto('meta')
          .values({ key: 'ready-check', value: String(now) })
          .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
          .execute(),
      )
    },
    async outboxHealth() {
      const row = await guard(() =>
        db
          .selectFrom('outbox')
          .select((eb) => [
            eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
            eb.fn.countAll<number>().filterWhere('status', '=', 'failed').as('failed'),
            eb.fn.min('created_at').filterWhere('status', '=', 'pending').as('oldest_pending_at'),
            eb.fn
              .min('created_at')
              .filterWhere((eb) => eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)]))
              .as('failing_since'),
          ])
          .executeTakeFirstOrThrow(),
      )
      const health: OutboxHealth = { pending: row.pending, failed: row.failed, oldestPendingAt: row.oldest_pending_at, failingSince: row.failing_since }
      return health
    },
    async addPageViews(rows) {
      if (rows.length === 0) return
      await write(() =>
        db.transaction().execute(async (trx) => {
          for (let start = 0; start < rows.length; start += PAGE_VIEW_CHUNK) {
            await trx
              .insertInto('page_views')
              .values(rows.slice(start, start + PAGE_VIEW_CHUNK))
              .onConflict((oc) => oc.columns(['domain', 'day']).doUpdateSet((eb) => ({ views: eb('page_views.views', '+', eb.ref('excluded.views')) })))
              .execute()
          }
        }),
      )
    },
    async listInquiries(filter) {
      const rows = await guard(() =>
        db
          .selectFrom('inquiries as i')
          .leftJoin('outbox as o', (join) => join.onRef('o.inquiry_id', '=', 'i.id').on('o.reply_id', 'is', null).on('o.webhook_url', 'is', null))
          .select(INQUIRY_COLUMNS)
          .select('o.status as mail_status')
          .$if(Boolean(filter.domain), (qb) => qb.where('i.domain', '=', filter.domain!))
          .$if(filter.since !== undefined, (qb) => qb.where('i.created_at', '>=', filter.since!))
          .$if(filter.until !== undefined, (qb) => qb.where('i.created_at', '<', filter.until!))
          .$if(filter.spam !== undefined, (qb) => qb.where('i.spam_reason', filter.spam ? 'is not' : 'is', null))
          .orderBy('i.created_at', 'desc')
          .orderBy('i.id', 'desc')
          .$if(filter.limit !== undefined, (qb) => qb.limit(filter.limit!))
          .execute(),
      )
      return rows.map((row): InquiryListing => ({ ...toInquiry(row), mailStatus: row.mail_status }))
    },
    async listOutbox(status) {
      const rows = await guard(() =>
        db
          .selectFrom('outbox as o')
          .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
          .select(['o.inquiry_id', 'i.domain', 'o.status', 'o.attempts', 'o.next_attempt_at', 'o.last_error', 'o.created_at', 'o.mail_to', 'o.webhook_url'])
          .$if(status !== undefined, (qb) => qb.where('o.status', '=', status!))
          .orderBy('o.created_at')
          .execute(),
      )
      return rows.map((row): OutboxListing => ({
        inquiryId: row.inquiry_id,
        domain: row.domain,
        status: row.status,
        attempts: row.attempts,
        nextAttemptAt: row.next_attempt_at,
        lastError: row.last_error,
        createdAt: row.created_at,
        mailTo: row.mail_to,
        webhookUrl: row.webhook_url,
      }))
    },
    async requeueMail(inquiryId, now, mailTo = null) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const inquiry = await trx.selectFrom('inquiries').select(['id', 'token', 'domain']).where('id', '=', inquiryId).executeTakeFirst()
          if (!inquiry) return false
          const previous = await trx
            .selectFrom('outbox')
            .select('resends')
            .where('inquiry_id', '=', inquiryId)
            .where('reply_id', 'is', null)
            .where('webhook_url', 'is', null)
            .$if(postgres, (qb) => qb.forUpdate())
            .executeTakeFirst()
          const messageId = messageIdFor(inquiry, (previous?.resends ?? 0) + 1)
          await trx
            .insertInto('outbox')
            .values({
              inquiry_id: inquiryId,
              message_id: messageId,
              status: 'pending',
              attempts: 0,
              next_attempt_at: now,
              created_at: now,
              mail_to: mailTo,
              resends: 1,
            })
            .onConflict((oc) =>
              oc
                .column('inquiry_id')
                .where('reply_id', 'is', null)
                .where('webhook_url', 'is', null)
                .doUpdateSet((eb) => ({
                  status: 'pending',
                  next_attempt_at: eb.ref('excluded.next_attempt_at'),
                  created_at: eb.ref('excluded.created_at'),
                  attempts: 0,
                  last_error: null,
                  message_id: eb.ref('excluded.message_id'),
                  mail_to: eb.fn.coalesce('excluded.mail_to', 'outbox.mail_to'),
                  resends: eb('outbox.resends', '+', 1),
                  ...noLease,
                })),
            )
            .execute()
          return true
        }),
      )
    },
    async requeueFailed(now) {
      const rows = await guard(() => db.selectFrom('outbox').select('id').where('status', '=', 'failed').execute())
      let queued = 0
      for (const row of rows) if (await store.resendMail(row.id, now)) queued++
      return queued
    },
    async dailyStats(filter) {
      const rows = await guard(() =>
        db
          .with('inquiries_by_day', (db) =>
            db
              .selectFrom('inquiries')
              .select((eb) => [
                'domain',
                dialect.utcDay(eb.ref('created_at')).as('day'),
                eb.fn.countAll<number>().filterWhere('spam_reason', 'is', null).as('inquiries'),
                eb.fn.countAll<number>().filterWhere('spam_reason', 'is not', null).as('spam'),
              ])
              .groupBy(['domain', 'day']),
          )
          // Visits as counted since decision 049, and the page views counted before it (robots included).
          .with('views_by_day', (db) =>
            db
              .selectFrom((db) =>
                db
                  .selectFrom('page_views')
                  .select(['domain', 'day', 'views'])
                  .unionAll(db.selectFrom('visit_counts').select(['domain', 'day', 'count as views']).where('metric', '=', 'visit'))
                  .as('u'),
              )
              .select((eb) => ['u.domain', 'u.day', eb.fn.sum<number>('u.views').as('views')])
              .groupBy(['u.domain', 'u.day']),
          )
          .with('keys', (db) =>
            db
              .selectFrom('views_by_day')
              .select(['domain', 'day'])
              .union(db.selectFrom('inquiries_by_day').select(['domain', 'day'])),
          )
          .selectFrom('keys as k')
          .leftJoin('views_by_day as v', (join) => join.onRef('v.domain', '=', 'k.domain').onRef('v.day', '=', 'k.day'))
          .leftJoin('inquiries_by_day as i', (join) => join.onRef('i.domain', '=', 'k.domain').onRef('i.day', '=', 'k.day'))
          .select((eb) => [
            'k.domain',
            'k.day',
            eb.fn.coalesce('v.views', sql<number>`0`).as('views'),
            eb.fn.coalesce('i.inquiries', sql<number>`0`).as('inquiries'),
            eb.fn.coalesce('i.spam', sql<number>`0`).as('spam'),
          ])
          .$if(filter.domain !== undefined, (qb) => qb.where('k.domain', '=', filter.domain!))
          .$if(filter.sinceDay !== undefined, (qb) => qb.where('k.day', '>=', filter.sinceDay!))
          .orderBy('k.day')
          .orderBy('k.domain')
          .execute(),
      )
      return rows.map((row): DailyStats => ({
        domain: row.domain,
        day: row.day,
        views: Number(row.views),
        inquiries: Number(row.inquiries),
        spam: Number(row.spam),
      }))
    },
    async approveWildcardName({ wildcard, name, day, limit }) {
      const known = async (q: Db | Transaction<Database>) =>
        (await q.selectFrom('tls_names').select('name').where('wildcard', '=', wildcard).where('name', '=', name).executeTakeFirst()) !== undefined
      const full = async (q: Db | Transaction<Database>) =>
        (
          await q
            .selectFrom('tls_names')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('wildcard', '=', wildcard)
            .where('day', '=', day)
            .executeTakeFirstOrThrow()
        ).count >= limit
      return guard(async () => {
        // Known names and a spent limit are answered without a lock or a transaction: a flood of asks never
        // takes one.
        if (await known(db)) return true
        // Read again when full: another process may have approved this very name between the two reads.
        if (await full(db)) return known(db)
        // Two processes approving names under one wildcard at once would both see room for one more: they take
        // turns, and check again under the lock.
        return db.transaction().execute(async (trx) => {
          await dialect.lockWildcard?.(trx, wildcard)
          if (await known(trx)) return true
          if (await full(trx)) return false
          await trx.insertInto('tls_names').values({ wildcard, name, day }).execute()
          return true
        })
      })
    },
    close: () => dialect.close(),
  }
  return store
}
