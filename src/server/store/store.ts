// The store, once for both databases, through Kysely's typed query builder. What really differs between SQLite
// and PostgreSQL comes in as a `DialectSpecifics` (dialect.ts; made by sqlite.ts, postgres.ts): how errors map to "try again", how
// inquiries are committed (group commit or one transaction each), the UTC-day expression, and the locks.
import type { Kysely, Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import { unitOfWork } from './unit-of-work.ts'
import { dailyStats, findInquiry, getInquiry, listInquiries } from './tables/inquiries.ts'
import { confirmationTarget, confirmInquiry, eraseExpiredUnconfirmed } from './tables/confirmations.ts'
import { writeReadyCheck } from './tables/meta.ts'
import { addPageViews } from './tables/page-views.ts'
import { addReply, consoleInquiries, deleteInquiry, inquiryDomainList, inquiryThread, markNotSpam, markSpam, offersSince, setArchived } from './inbox.ts'
import * as outbox from './tables/outbox.ts'
import { releaseLeases } from './tables/leased.ts'
import { inquirySaver } from './save-inquiry.ts'
import { dealStore } from './deal.ts'
import { dealRecordStore } from './deal-record.ts'
import { paymentStore } from './payments.ts'
import { signInStore } from './sign-in.ts'
import { eraseInquiries, eraseMailbox, personData, purgeErased, staleInquiries } from './privacy.ts'
import { invoiceStore } from './invoice.ts'
import * as jobRuns from './tables/job-runs.ts'
import { digestFacts } from './tables/digest.ts'
import * as dnsUpdates from './tables/dns-updates.ts'
import * as domainNotices from './tables/domain-notices.ts'
import * as domainChecks from './tables/domain-checks.ts'
import * as auditLog from './tables/audit-log.ts'
import * as visits from './tables/visits.ts'
import * as domainEdits from './tables/domain-edits.ts'
import type { Database } from './schema.ts'
import type { Store } from './types.ts'

type Db = Kysely<Database>

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
  // Each leased table's functions for its queue (decision 057), made once: the workers take them, the methods below
  // delegate to them.
  const queues = {
    outbox: outbox.outboxQueue(db, dialect),
    dnsUpdates: dnsUpdates.dnsUpdateQueue(db, dialect),
    domainNotices: domainNotices.domainNoticeQueue(db, dialect),
  }
  const inquiryDomains = inquiryDomainList()
  const store: SharedStore = {
    queues,
    claimDueMail: queues.outbox.claim,
    releaseLeases: queues.outbox.releaseLeases,
    releaseLeasesOfProcess: (owner) => releaseLeases(db, dialect, { process: owner }),
    releaseAllLeases: () => releaseLeases(db, dialect, { all: true }),
    nextDueAt: queues.outbox.nextDueAt,
    markSent: (id, now) => queues.outbox.markSent(id, now, {}),
    markRetry: queues.outbox.markRetry,
    markFailed: queues.outbox.markFailed,
    outboxStatus: (inquiryId) => guard(() => outbox.outboxStatus(db, inquiryId)),
    outboxHealth: () => guard(() => outbox.outboxHealth(db)),
    listOutbox: (status) => guard(() => outbox.listOutbox(db, status)),
    requeueMail: (inquiryId, now, mailTo = null) => transact((work) => outbox.requeueMail(work, inquiryId, now, mailTo)),
    async requeueFailed(now) {
      let queued = 0
      for (const id of await guard(() => outbox.failedMailIds(db))) if (await store.resendMail(id, now)) queued++
      return queued
    },
    listMail: (statuses, page) => guard(() => outbox.listMail(db, statuses, page)),
    resendMail: (outboxId, now) => transact((work) => outbox.resendMail(work, outboxId, now)),
    ...signInStore(db, dialect),
    ...dealStore(db, dialect),
    ...dealRecordStore(db, dialect),
    ...paymentStore(db, dialect),
    ...invoiceStore(db, dialect),
    claimJobRun: (job, period, claimedBy, pruneBefore) => write(() => jobRuns.claimJobRun(db, job, period, claimedBy, pruneBefore)),
    releaseJobRun: (job, period) => write(() => jobRuns.releaseJobRun(db, job, period)),
    digestFacts: (range) => guard(() => digestFacts(db, range)),
    queueDnsUpdate: (zone, names, now) => transact((work) => dnsUpdates.queueDnsUpdate(work, zone, names, now)),
    claimDnsUpdates: queues.dnsUpdates.claim,
    dnsPublishedNames: (zone) => guard(() => dnsUpdates.dnsPublishedNames(db, zone)),
    dnsZoneStates: () => guard(() => dnsUpdates.dnsZoneStates(db)),
    dnsPublishedZones: () => guard(() => dnsUpdates.dnsPublishedZones(db)),
    markDnsUpdateSent: (id, zone, names, now) => queues.dnsUpdates.markSent(id, now, { zone, names }),
    markDnsUpdateRetry: queues.dnsUpdates.markRetry,
    markDnsUpdateFailed: queues.dnsUpdates.markFailed,
    recordDnsPublish: (zone, names, now) => transact((work) => dnsUpdates.recordDnsPublish(work, zone, names, now)),
    listDnsUpdates: (statuses) => dnsUpdates.listDnsUpdates(db, dialect, statuses),
    resendDnsUpdate: (id, now) => dnsUpdates.resendDnsUpdate(db, dialect, id, now),
    nextDnsUpdateDueAt: queues.dnsUpdates.nextDueAt,
    domainChecks: (only) => guard(() => domainChecks.domainChecks(db, only)),
    domainCheckAttention: (names, options) => guard(() => domainChecks.domainCheckAttention(db, dialect.name, names, options)),
    saveDomainChecks: (checks, options) => domainChecks.saveDomainChecks(transact, checks, options),
    claimDomainNotices: queues.domainNotices.claim,
    markDomainNoticeSent: (id, now) => queues.domainNotices.markSent(id, now, {}),
    markDomainNoticeRetry: queues.domainNotices.markRetry,
    markDomainNoticeFailed: queues.domainNotices.markFailed,
    nextDomainNoticeDueAt: queues.domainNotices.nextDueAt,
    listDomainNotices: (statuses) => domainNotices.listDomainNotices(db, dialect, statuses),
    resendDomainNotice: (id, now) => domainNotices.resendDomainNotice(db, dialect, id, now),
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
    domainEditsAfter: (version, limit) => guard(() => domainEdits.domainEditsAfter(db, version, limit)),
    latestDomainEdit: () => guard(() => domainEdits.latestDomainEdit(db)),
    recordDomainEdit: (version, edits, now) => write(() => domainEdits.recordDomainEdit(db, version, edits, now)),
    pruneDomainEdits: (takenIn, before) => write(() => domainEdits.pruneDomainEdits(db, takenIn, before)),
    saveInquiry(inquiry, mail, confirm) {
      return dialect.saveInquiry((trx) => saveOne(trx, inquiry, mail, confirm))
    },
    getInquiry: (id) => guard(() => getInquiry(db, id)),
    findInquiry: (token, contentHash) => guard(() => findInquiry(db, token, contentHash)),
    checkWritable: (now) => write(() => writeReadyCheck(db, now)),
    addPageViews: async (rows) => {
      if (rows.length > 0) await write(() => db.transaction().execute((trx) => addPageViews(trx, rows)))
    },
    listInquiries: (filter) => guard(() => listInquiries(db, filter)),
    dailyStats: (filter) => guard(() => dailyStats(db, dialect.utcDay, filter)),
    confirmationTarget: (id) => guard(() => confirmationTarget(db, id)),
    confirmInquiry: (id, domain, mail, now) => transact((work) => confirmInquiry(work.trx, id, domain, mail, now)),
    eraseExpiredUnconfirmed: (now) => transact((work) => eraseExpiredUnconfirmed(work.trx, now)),
    personData: (email) => guard(() => personData(db, dialect.name, email)),
    async eraseByEmail(email) {
      const erased = await transact((work) => eraseMailbox(work.trx, work.dialect, email))
      if (erased.inquiries.length > 0) await store.purgeErased()
      return erased
    },
    eraseInquiries: (ids) => transact((work) => eraseInquiries(work.trx, ids)),
    purgeErased: () => write(() => purgeErased(db, dialect.name)),
    staleInquiries: (before, limit) => guard(() => staleInquiries(db, before, limit)),
    consoleInquiries: (filter) => guard(() => consoleInquiries(db, dialect.name, filter)),
    inquiryDomains: () => guard(() => inquiryDomains(db)),
    inquiryThread: (id) => guard(() => inquiryThread(db, id)),
    addReply: (reply) => transact((work) => addReply(work.trx, reply)),
    setArchived: (id, archived) => write(() => setArchived(db, id, archived)),
    markSpam: (id) => transact((work) => markSpam(work.trx, id)),
    markNotSpam: (id, mailTo, now, notify) => transact((work) => markNotSpam(work.trx, id, mailTo, now, notify)),
    deleteInquiry: (id) => transact((work) => deleteInquiry(work.trx, id)),
    offersSince: (since) => guard(() => offersSince(db, since)),
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
