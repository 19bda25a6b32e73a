// The store, once for both databases, through Kysely's typed query builder. What really differs between SQLite
// and PostgreSQL comes in as a `DialectSpecifics` (dialect.ts; made by sqlite.ts, postgres.ts): how errors map to "try again", how
// inquiries are committed (group commit or one transaction each), the UTC-day expression, and the locks.
import { sql, type Kysely, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import { unitOfWork } from './unit-of-work.ts'
import { getInquiry } from './tables/inquiries.ts'
import { inboxStore, INQUIRY_COLUMNS, toInquiry } from './inbox.ts'
import { outboxStore } from './outbox.ts'
import { inquirySaver } from './save-inquiry.ts'
import { dealStore } from './deal.ts'
import { dealRecordStore } from './deal-record.ts'
import { paymentStore } from './payments.ts'
import { signInStore } from './sign-in.ts'
import { confirmationStore } from './confirmation.ts'
import { privacyStore } from './privacy.ts'
import { invoiceStore } from './invoice.ts'
import { jobStore } from './jobs.ts'
import { dnsUpdateStore } from './dns-updates.ts'
import { domainCheckStore } from './domain-checks.ts'
import * as auditLog from './tables/audit-log.ts'
import * as visits from './tables/visits.ts'
import { domainEditStore } from './domain-edits.ts'
import type { Database } from './schema.ts'
import type { DailyStats, InquiryListing, Store } from './types.ts'

type Db = Kysely<Database>

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
  const write = writer(dialect)

  const saveOne = inquirySaver(db)
  const transact = unitOfWork(db, dialect)
  const store: SharedStore = {
    ...inboxStore(db, dialect),
    ...outboxStore(db, dialect),
    ...signInStore(db, dialect),
    ...confirmationStore(db, dialect),
    ...dealStore(db, dialect),
    ...dealRecordStore(db, dialect),
    ...paymentStore(db, dialect),
    ...privacyStore(db, dialect),
    ...invoiceStore(db, dialect),
    ...jobStore(db, dialect),
    ...dnsUpdateStore(db, dialect),
    ...domainCheckStore(db, dialect),
    // The audit trail and the visitor statistics (decision 060): one query, or one unit of work, over their tables.
    addAuditEntry: (entry) => write(() => auditLog.addAuditEntry(db, entry)),
    auditEntries: (filter) => guard(() => auditLog.auditEntries(db, filter)),
    pruneAudit: (before) => write(() => auditLog.pruneAudit(db, before)),
    async addVisitCounts(rows) {
      if (rows.length > 0) await transact((work) => visits.addVisitCounts(work.trx, rows))
    },
    async addVisitorHashes(rows) {
      if (rows.length > 0) await transact((work) => visits.addVisitorHashes(work.trx, rows))
    },
    visitSalt: (day, candidate) => write(() => visits.visitSalt(db, day, candidate)),
    settleVisitDays: (day) => transact((work) => visits.settleVisitDays(work.trx, day)),
    firstVisitDay: () => guard(() => visits.firstVisitDay(db)),
    visitCounts: (filter) => guard(() => visits.visitCounts(db, filter)),
    ...domainEditStore(db, dialect),
    saveInquiry(inquiry, mail, confirm) {
      return dialect.saveInquiry((trx) => saveOne(trx, inquiry, mail, confirm))
    },
    getInquiry: (id) => guard(() => getInquiry(db, id)),
    async findInquiry(token, contentHash) {
      const row = await guard(() =>
        db.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.token', '=', token).where('i.content_hash', '=', contentHash).executeTakeFirst(),
      )
      return row ? toInquiry(row) : null
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
    transact,
    close: () => dialect.close(),
  }
  return store
}
