// The daily checks (decision 047): the last result per name, what the owner was last told, and the notifications it
// queues in their outbox (domain-notices.ts). Plain functions over the store's Kysely or a unit of work (decision
// 060). Same for both databases.
import { sql } from 'kysely'
import type { DomainCheck } from '../../../shared/domain-checks.ts'
import type { DialectName } from '../migration-step.ts'
import type { Database } from '../schema.ts'
import type { UnitOfWork, Work } from '../unit-of-work.ts'
import type { Q } from './db.ts'
import type { DomainNoticeEvent, DomainNoticeFacts } from './domain-notices.ts'
import { noLease } from './leased.ts'

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

/** The Store's methods over this table (store.ts delegates each to a function below). */
export interface DomainCheckStore {
  /**
   * The last check of every name checked (also of names no longer listed: nothing is dropped silently), or of the
   * names given (ASCII).
   */
  domainChecks(only?: readonly string[]): Promise<DomainCheck[]>
  /**
   * The Übersicht's names that need attention (needsAttention), of the `names` given (ASCII, the domains file's):
   * how many of them have a check, how many of those need attention, and the `limit` most urgent of those (not
   * pointing here, then the nearest expiry, then records). Counted and picked in the database: reads `limit` rows.
   */
  domainCheckAttention(
    names: readonly string[],
    options: { now: number; expiringMs: number; limit: number },
  ): Promise<{ checked: number; total: number; checks: DomainCheck[] }>
  /**
   * Stores the checks and, in the same transaction, decides what the owner is told: domain.unreachable when a name is
   * found pointing elsewhere and the owner was not told so since it last pointed here; domain.expiring when its
   * expiry date is under `expiringMs` away and not the date told before. One row per address `notify` gives for the
   * name (none: the change is still recorded, so a later address is not told old news). Returns the events, per name.
   */
  saveDomainChecks(
    checks: DomainCheck[],
    options: { now: number; expiringMs: number; notify: (ascii: string) => readonly string[] },
  ): Promise<{ domain: string; event: DomainNoticeEvent }[]>
}

export async function domainChecks(q: Q, only?: readonly string[]): Promise<DomainCheck[]> {
  if (only?.length === 0) return []
  const rows = await q
    .selectFrom('domain_checks')
    .selectAll()
    .$if(only !== undefined, (qb) => qb.where('domain', 'in', only!))
    .orderBy('domain')
    .execute()
  return rows.map(toCheck)
}

export async function domainCheckAttention(
  q: Q,
  dialect: DialectName,
  names: readonly string[],
  { now, expiringMs, limit }: { now: number; expiringMs: number; limit: number },
): Promise<{ checked: number; total: number; checks: DomainCheck[] }> {
  const postgres = dialect === 'postgres'
  if (names.length === 0) return { checked: 0, total: 0, checks: [] }
  // The names as one bound value, however many: a list of 100,000 parameters is over both databases' limits.
  const named = postgres
    ? sql<boolean>`domain IN (SELECT unnest(CAST(${names} AS text[])))`
    : sql<boolean>`domain IN (SELECT value FROM json_each(${JSON.stringify(names)}))`
  // needsAttention (shared/domain-checks.ts) in SQL; domain-health.test.ts holds the two to the same answer.
  const attention = sql<boolean>`(pointing = 'elsewhere' OR records NOT IN ('ok', 'unknown') OR (expires_at IS NOT NULL AND expires_at < ${now + expiringMs}))`
  const counts = await q
    .selectFrom('domain_checks')
    .select([sql<number | string>`COUNT(*)`.as('checked'), sql<number | string | null>`SUM(CASE WHEN ${attention} THEN 1 ELSE 0 END)`.as('total')])
    .where(named)
    .executeTakeFirstOrThrow()
  const rows = await q
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
}

/**
 * Each chunk in a unit of work of its own: the checks stored, what the owner is told decided and queued with them.
 */
export async function saveDomainChecks(
  transact: UnitOfWork,
  checks: DomainCheck[],
  options: { now: number; expiringMs: number; notify: (ascii: string) => readonly string[] },
): Promise<{ domain: string; event: DomainNoticeEvent }[]> {
  const events: { domain: string; event: DomainNoticeEvent }[] = []
  for (let start = 0; start < checks.length; start += CHUNK) {
    const chunk = checks.slice(start, start + CHUNK)
    events.push(...(await transact((work) => saveChunk(work, chunk, options))))
  }
  return events
}

async function saveChunk(
  work: Work,
  chunk: DomainCheck[],
  { now, expiringMs, notify }: { now: number; expiringMs: number; notify: (ascii: string) => readonly string[] },
): Promise<{ domain: string; event: DomainNoticeEvent }[]> {
  const { trx } = work
  // Locked, so that two instances saving the same name decide "told" once.
  const told = new Map(
    (
      await work
        .forUpdate(
          trx
            .selectFrom('domain_checks')
            .select(['domain', 'told_pointing', 'told_expires_at'])
            .where(
              'domain',
              'in',
              chunk.map((check) => check.domain),
            ),
        )
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
  return notices.map(({ domain, event }) => ({ domain, event }))
}
