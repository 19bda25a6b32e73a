// The daily checks (decision 047): the last result per name, what the owner was last told, and the notifications in
// an outbox of their own (leased, retried like mail). Same for both databases.
import { sql, type Kysely } from 'kysely'
import type { DomainCheck } from '../../shared/domain-checks.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import { leasedTable, noLease } from './leased-table.ts'
import type { Database } from './schema.ts'
import type { DomainCheckStore, DomainNoticeEvent, DomainNoticeFacts } from './types.ts'

/** Rows per statement, far below both databases' limits on bound parameters. */
const CHUNK = 500

type CheckRow = Database['domain_checks']

const toCheck = (row: CheckRow): DomainCheck => ({
  domain: row.domain,
  checkedAt: Number(row.checked_at),
  pointing: row.pointing,
  pointingDetail: row.pointing_detail,
  records: row.records,
  recordsDetail: row.records_detail,
  expiry: row.expiry,
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  expiryDetail: row.expiry_detail,
  rdapCheckedAt: row.rdap_checked_at === null ? null : Number(row.rdap_checked_at),
})

const columnsOf = (check: DomainCheck) => ({
  checked_at: check.checkedAt,
  pointing: check.pointing,
  pointing_detail: check.pointingDetail,
  records: check.records,
  records_detail: check.recordsDetail,
  expiry: check.expiry,
  expires_at: check.expiresAt,
  expiry_detail: check.expiryDetail,
  rdap_checked_at: check.rdapCheckedAt,
})

export function domainCheckStore(db: Kysely<Database>, dialect: DialectSpecifics): DomainCheckStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)
  const queue = leasedTable(db, dialect, 'domain_notices')
  return {
    async domainChecks(only) {
      if (only?.length === 0) return []
      const rows = await guard(() =>
        db
          .selectFrom('domain_checks')
          .selectAll()
          .$if(only !== undefined, (qb) => qb.where('domain', 'in', only!))
          .orderBy('domain')
          .execute(),
      )
      return rows.map(toCheck)
    },
    async domainCheckAttention(names, { now, expiringMs, limit }) {
      if (names.length === 0) return { checked: 0, total: 0, checks: [] }
      // The names as one bound value, however many: a list of 100,000 parameters is over both databases' limits.
      const named = postgres
        ? sql<boolean>`domain IN (SELECT unnest(CAST(${names} AS text[])))`
        : sql<boolean>`domain IN (SELECT value FROM json_each(${JSON.stringify(names)}))`
      // needsAttention (shared/domain-checks.ts) in SQL; domain-health.test.ts holds the two to the same answer.
      const attention = sql<boolean>`(pointing = 'elsewhere' OR records NOT IN ('ok', 'unknown') OR (expires_at IS NOT NULL AND expires_at < ${now + expiringMs}))`
      return guard(async () => {
        const counts = await db
          .selectFrom('domain_checks')
          .select([sql<number | string>`COUNT(*)`.as('checked'), sql<number | string | null>`SUM(CASE WHEN ${attention} THEN 1 ELSE 0 END)`.as('total')])
          .where(named)
          .executeTakeFirstOrThrow()
        const rows = await db
          .selectFrom('domain_checks')
          .selectAll()
          .where(named)
          .where(attention)
          // Not pointing here first, then the nearest expiry, then records; byte order of the (ASCII) names last.
          .orderBy(sql`CASE WHEN pointing = 'elsewhere' THEN 0 WHEN expires_at IS NOT NULL THEN 1 ELSE 2 END`)
          .orderBy(sql`COALESCE(expires_at, 0)`)
          .orderBy(postgres ? sql`domain COLLATE "C"` : sql`domain`)
          .limit(limit)
          .execute()
        return { checked: Number(counts.checked), total: Number(counts.total ?? 0), checks: rows.map(toCheck) }
      })
    },
    async saveDomainChecks(checks, { now, expiringMs, notify }) {
      const events: { domain: string; event: DomainNoticeEvent }[] = []
      for (let start = 0; start < checks.length; start += CHUNK) {
        const chunk = checks.slice(start, start + CHUNK)
        await write(() =>
          db.transaction().execute(async (trx) => {
            // Locked, so that two instances saving the same name decide "told" once.
            const told = new Map(
              (
                await trx
                  .selectFrom('domain_checks')
                  .select(['domain', 'told_pointing', 'told_expires_at'])
                  .where(
                    'domain',
                    'in',
                    chunk.map((check) => check.domain),
                  )
                  .$if(postgres, (qb) => qb.forUpdate())
                  .execute()
              ).map((row) => [row.domain, row]),
            )
            const notices: { domain: string; event: DomainNoticeEvent; facts: DomainNoticeFacts }[] = []
            for (const check of chunk) {
              const before = told.get(check.domain)
              let toldPointing = before?.told_pointing ?? null
              let toldExpiresAt = before?.told_expires_at === undefined || before.told_expires_at === null ? null : Number(before.told_expires_at)
              const facts = { time: check.checkedAt, pointingDetail: check.pointingDetail, expiresAt: check.expiresAt }
              if (check.pointing === 'elsewhere' && toldPointing !== 'elsewhere') notices.push({ domain: check.domain, event: 'unreachable', facts })
              // "unknown" (DNS did not answer) changes nothing: the owner hears of a real change only.
              if (check.pointing !== 'unknown') toldPointing = check.pointing
              if (check.expiresAt !== null && check.expiresAt - now < expiringMs && check.expiresAt !== toldExpiresAt) {
                notices.push({ domain: check.domain, event: 'expiring', facts })
                toldExpiresAt = check.expiresAt
              }
              const values = { ...columnsOf(check), told_pointing: toldPointing, told_expires_at: toldExpiresAt }
              await trx
                .insertInto('domain_checks')
                .values({ domain: check.domain, ...values })
                .onConflict((oc) => oc.column('domain').doUpdateSet(values))
                .execute()
            }
            events.push(...notices.map(({ domain, event }) => ({ domain, event })))
            const rows = notices.flatMap((notice) =>
              [...new Set(notify(notice.domain))].map((url) => ({
                domain: notice.domain,
                event: notice.event,
                facts: JSON.stringify(notice.facts),
                webhook_url: url,
                status: 'pending' as const,
                next_attempt_at: now,
                created_at: now,
                last_error: null,
                sent_at: null,
                failed_at: null,
                ...noLease,
              })),
            )
            if (rows.length) await trx.insertInto('domain_notices').values(rows).execute()
          }),
        )
      }
      return events
    },
    async claimDomainNotices(now, limit, owner, leaseMs) {
      const claimed = await queue.claim(now, limit, owner, leaseMs)
      return claimed.map((row) => ({
        id: Number(row.id),
        domain: row.domain,
        event: row.event,
        facts: JSON.parse(row.facts) as DomainNoticeFacts,
        webhookUrl: row.webhook_url,
        attempts: row.attempts,
        createdAt: Number(row.created_at),
      }))
    },
    markDomainNoticeSent: (id, now) => queue.markSent(id, now),
    markDomainNoticeRetry: queue.markRetry,
    markDomainNoticeFailed: queue.markFailed,
    nextDomainNoticeDueAt: queue.nextDueAt,
    async listDomainNotices(statuses) {
      const rows = await queue.list(statuses, ['domain', 'event', 'webhook_url'])
      return rows.map(({ webhook_url, ...row }) => ({ ...row, webhookUrl: webhook_url }))
    },
    resendDomainNotice: (id, now) => queue.resend(id, now, write),
  }
}
