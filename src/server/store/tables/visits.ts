// The visitor statistics' tables (decision 049): visit_counts, the counters a process gathers in memory, added in
// batches; visitor_hashes and visit_salts, the day's visitors and salt, erased once the day is over. Plain functions
// over the store's Kysely or a unit of work's transaction (decision 060), with their types.
import type { VisitMetric } from '../schema.ts'
import type { Q, Trx } from './db.ts'

export type { VisitMetric }

export interface VisitCount {
  /** ASCII (punycode), or a wildcard entry, or "andere" (decision 049). */
  domain: string
  /** The Berlin day, YYYY-MM-DD. */
  day: string
  metric: VisitMetric
  key: string
  count: number
}

export interface VisitorHash {
  domain: string
  day: string
  /** A hash of the day's salt, the client's address, its User-Agent and the host: never the address itself. */
  hash: string
}

/** Rows per INSERT: far below both databases' limits on bound values. */
const CHUNK = 500

/** Adds the counts to what is stored (one row per domain, day, metric and key). */
export async function addVisitCounts(q: Q, rows: readonly VisitCount[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await q
      .insertInto('visit_counts')
      .values(rows.slice(start, start + CHUNK))
      .onConflict((oc) =>
        oc.columns(['day', 'domain', 'metric', 'key']).doUpdateSet((eb) => ({ count: eb('visit_counts.count', '+', eb.ref('excluded.count')) })),
      )
      .execute()
  }
}

/** Stores the hashes of the day's visitors; one seen before that day is kept once. */
export async function addVisitorHashes(q: Q, rows: readonly VisitorHash[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await q
      .insertInto('visitor_hashes')
      .values(rows.slice(start, start + CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

/** The salt of a Berlin day: the stored one, or `candidate` if there was none (every process gets the same). */
export async function visitSalt(q: Q, day: string, candidate: string): Promise<string> {
  await q
    .insertInto('visit_salts')
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute()
  const row = await q.selectFrom('visit_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()
  return row.salt
}

/**
 * Ends the days before `day`, in the caller's transaction: their salts are erased, their visitor hashes become a
 * count (metric 'visitor') and are erased too.
 */
export async function settleVisitDays(trx: Trx, day: string): Promise<void> {
  await trx.deleteFrom('visit_salts').where('day', '<', day).execute()
  // Deleted and counted in one step: of several processes settling at once, each counts what it deleted.
  const gone = await trx.deleteFrom('visitor_hashes').where('day', '<', day).returning(['domain', 'day']).execute()
  const counts = new Map<string, VisitCount>()
  for (const row of gone) {
    const id = `${row.day} ${row.domain}`
    const found = counts.get(id)
    if (found) found.count++
    else counts.set(id, { domain: row.domain, day: row.day, metric: 'visitor', key: '', count: 1 })
  }
  await addVisitCounts(trx, [...counts.values()])
}

/** The first day anything was counted (how far back "no visitor" can be said), null before. */
export async function firstVisitDay(q: Q): Promise<string | null> {
  const row = await q
    .selectFrom('visit_counts')
    .select((eb) => eb.fn.min('day').as('day'))
    .executeTakeFirst()
  return row?.day ?? null
}

/** The counts from `sinceDay` on, today's visitors counted from the hashes. */
export async function visitCounts(q: Q, filter: { sinceDay: string; domain?: string }): Promise<VisitCount[]> {
  const [counts, live] = await Promise.all([
    q
      .selectFrom('visit_counts')
      .select(['domain', 'day', 'metric', 'key', 'count'])
      .where('day', '>=', filter.sinceDay)
      .$if(filter.domain !== undefined, (qb) => qb.where('domain', '=', filter.domain!))
      .execute(),
    q
      .selectFrom('visitor_hashes')
      .select((eb) => ['domain', 'day', eb.fn.countAll<number>().as('count')])
      .where('day', '>=', filter.sinceDay)
      .$if(filter.domain !== undefined, (qb) => qb.where('domain', '=', filter.domain!))
      .groupBy(['domain', 'day'])
      .execute(),
  ])
  return [
    ...counts.map((row) => ({ ...row, count: Number(row.count) })),
    ...live.map((row) => ({ domain: row.domain, day: row.day, metric: 'visitor' as VisitMetric, key: '', count: Number(row.count) })),
  ].sort((a, b) => a.day.localeCompare(b.day) || a.domain.localeCompare(b.domain) || a.metric.localeCompare(b.metric) || a.key.localeCompare(b.key))
}
