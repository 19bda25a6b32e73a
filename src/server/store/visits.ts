// Visitor statistics (decision 049): the counters a process gathers in memory, added here in batches; the day's
// visitor hashes and salt, erased once the day is over.
import type { Kysely } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { Database } from './schema.ts'
import type { VisitCount, VisitMetric, VisitStore } from './visit-types.ts'

/** Rows per INSERT: far below both databases' limits on bound values. */
const CHUNK = 500

export function visitStore(db: Kysely<Database>, dialect: DialectSpecifics): VisitStore {
  const { guard } = dialect
  const write = writer(dialect)

  const addCounts = async (trx: Kysely<Database>, rows: VisitCount[]) => {
    for (let start = 0; start < rows.length; start += CHUNK) {
      await trx
        .insertInto('visit_counts')
        .values(rows.slice(start, start + CHUNK))
        .onConflict((oc) =>
          oc.columns(['day', 'domain', 'metric', 'key']).doUpdateSet((eb) => ({ count: eb('visit_counts.count', '+', eb.ref('excluded.count')) })),
        )
        .execute()
    }
  }

  return {
    async addVisitCounts(rows) {
      if (rows.length === 0) return
      await write(() => db.transaction().execute((trx) => addCounts(trx, rows)))
    },
    async addVisitorHashes(rows) {
      if (rows.length === 0) return
      await write(() =>
        db.transaction().execute(async (trx) => {
          for (let start = 0; start < rows.length; start += CHUNK) {
            await trx
              .insertInto('visitor_hashes')
              .values(rows.slice(start, start + CHUNK))
              .onConflict((oc) => oc.doNothing())
              .execute()
          }
        }),
      )
    },
    async visitSalt(day, candidate) {
      return write(async () => {
        await db
          .insertInto('visit_salts')
          .values({ day, salt: candidate })
          .onConflict((oc) => oc.column('day').doNothing())
          .execute()
        const row = await db.selectFrom('visit_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()
        return row.salt
      })
    },
    async settleVisitDays(day) {
      await write(() =>
        db.transaction().execute(async (trx) => {
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
          await addCounts(trx, [...counts.values()])
        }),
      )
    },
    async firstVisitDay() {
      const row = await guard(() =>
        db
          .selectFrom('visit_counts')
          .select((eb) => eb.fn.min('day').as('day'))
          .executeTakeFirst(),
      )
      return row?.day ?? null
    },
    async visitCounts(filter) {
      const [counts, live] = await guard(() =>
        Promise.all([
          db
            .selectFrom('visit_counts')
            .select(['domain', 'day', 'metric', 'key', 'count'])
            .where('day', '>=', filter.sinceDay)
            .$if(filter.domain !== undefined, (qb) => qb.where('domain', '=', filter.domain!))
            .execute(),
          db
            .selectFrom('visitor_hashes')
            .select((eb) => ['domain', 'day', eb.fn.countAll<number>().as('count')])
            .where('day', '>=', filter.sinceDay)
            .$if(filter.domain !== undefined, (qb) => qb.where('domain', '=', filter.domain!))
            .groupBy(['domain', 'day'])
            .execute(),
        ]),
      )
      return [
        ...counts.map((row) => ({ ...row, count: Number(row.count) })),
        ...live.map((row) => ({ domain: row.domain, day: row.day, metric: 'visitor' as VisitMetric, key: '', count: Number(row.count) })),
      ].sort((a, b) => a.day.localeCompare(b.day) || a.domain.localeCompare(b.domain) || a.metric.localeCompare(b.metric) || a.key.localeCompare(b.key))
    },
  }
}
