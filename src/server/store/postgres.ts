// The store for several server instances: PostgreSQL through node-postgres (DATABASE_URL), the same query layer
// and tables as the SQLite store. Loaded only when DATABASE_URL is set: SQLite users never load `pg`.
import { randomBytes } from 'node:crypto'
import { Kysely, PostgresDialect, sql } from 'kysely'
import { createPool, guardedPg } from './postgres-common.ts'
import { migrateToLatest } from './migrate.ts'
import type { MigrationContext } from './migration-step.ts'
import type { Database } from './schema.ts'
import { createStore } from './store.ts'
import { observed, type QueryObserver } from './unit-of-work.ts'
import type { Store } from './types.ts'

/** Any fixed number: with the wildcard's hash, the advisory lock under which one wildcard's names are counted. */
const TLS_NAMES_LOCK = 4_711_002

export async function createPostgresStore(databaseUrl: string, migration: MigrationContext = {}, onQuery?: QueryObserver): Promise<Store> {
  const pool = createPool(databaseUrl)
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...observed(onQuery) })
  try {
    await guardedPg(() => migrateToLatest(db as Kysely<unknown>, 'postgres', migration))
  } catch (error) {
    await db.destroy()
    throw error
  }
  const { releaseAllLeases: _endsOthersLeases, ...shared } = createStore(db, {
    name: 'postgres',
    guard: guardedPg,
    // One transaction per inquiry; PostgreSQL itself flushes the commits that arrive together with one WAL write.
    saveInquiry: (save) => guardedPg(() => db.transaction().execute(save)),
    utcDay: (column) => sql<string>`to_char(to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    async lockWildcard(trx, wildcard) {
      await sql`SELECT pg_advisory_xact_lock(${TLS_NAMES_LOCK}, hashtext(${wildcard}))`.execute(trx)
    },
    close: () => db.destroy(),
  })
  return {
    ...shared,
    async releaseLeftoverLeases() {
      // Other instances may be sending right now: their leases are not ours to end. A dead one's run out.
    },
    sharedByInstances: true,
    async secret() {
      // Every instance on this database must sign and check form tokens with the same secret: the first one to
      // ask stores its candidate, the others take that one.
      const candidate = randomBytes(32).toString('base64url')
      return guardedPg(async () => {
        await db
          .insertInto('meta')
          .values({ key: 'contact-secret', value: candidate })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute()
        return (await db.selectFrom('meta').select('value').where('key', '=', 'contact-secret').executeTakeFirstOrThrow()).value
      })
    },
  }
}
