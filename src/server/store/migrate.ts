// Brings a database to the current schema with Kysely's Migrator, in one transaction under a lock, so that
// processes starting together on one database never migrate it twice. Databases made before the Migrator (their
// version in PRAGMA user_version or the table schema_version) are taken over as they are.
import { sql, type Kysely, type Transaction } from 'kysely'
import { Migrator, NO_MIGRATIONS, type Migration } from 'kysely/migration'
import type { DialectName, MigrationContext, SchemaStep } from './migration-step.ts'
import { SCHEMA_STEPS } from './migrations/index.ts'

/** Any fixed number: the advisory lock that keeps two instances starting at once from migrating together. */
export const MIGRATION_LOCK = 4_711_001

/** The steps `dialect` runs, in order (migrations/index.ts). */
export const stepsOf = (dialect: DialectName): SchemaStep[] => SCHEMA_STEPS.filter((step) => !step.only || step.only === dialect)

/** A step's recorded name: its place among the steps of its database, in the order the Migrator runs them. */
const nameOf = (index: number) => `${String(index + 1).padStart(4, '0')}`

function migrationsOf(dialect: DialectName, context: MigrationContext): Record<string, Migration> {
  return Object.fromEntries(stepsOf(dialect).map((step, index) => [nameOf(index), { up: (db: Kysely<unknown>) => step.up(db, { ...context, dialect }) }]))
}

async function legacyVersion(trx: Kysely<unknown>, dialect: DialectName, { create = true } = {}): Promise<number> {
  if (dialect === 'sqlite') {
    return (await sql<{ user_version: number }>`PRAGMA user_version`.execute(trx)).rows[0]!.user_version
  }
  if (create) await sql`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`.execute(trx)
  return (await sql<{ version: number }>`SELECT version FROM schema_version`.execute(trx)).rows[0]?.version ?? 0
}

async function recordLegacyVersion(trx: Transaction<unknown>, dialect: DialectName, version: number) {
  // Kept so that an older program refuses a schema newer than it knows ("newer than this program").
  if (dialect === 'sqlite') await sql.raw(`PRAGMA user_version = ${version}`).execute(trx)
  else {
    await sql`DELETE FROM schema_version`.execute(trx)
    await sql`INSERT INTO schema_version (version) VALUES (${version})`.execute(trx)
  }
}

/** Whether the schema is current, read without a lock: the old version marker is moved on with every step. */
async function isCurrent(db: Kysely<unknown>, dialect: DialectName): Promise<boolean> {
  try {
    return (await legacyVersion(db, dialect, { create: false })) === stepsOf(dialect).length
  } catch {
    return false // no schema_version table yet
  }
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: DialectName, context: MigrationContext = {}): Promise<void> {
  // Every process opens the store as it starts (each worker of a cluster): one that finds the schema current must
  // not queue for the write lock behind the others.
  if (await isCurrent(db, dialect)) return
  await migrate(db, dialect, context, stepsOf(dialect).length)
}

/** Runs the first `count` steps (those not run yet); the tests make a store of an earlier program with it. */
export async function migrate(db: Kysely<unknown>, dialect: DialectName, context: MigrationContext, count: number): Promise<void> {
  const steps = stepsOf(dialect)
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx)
    // (SQLite: BEGIN IMMEDIATE already holds the file's write lock.)
    const legacy = await legacyVersion(trx, dialect)
    if (legacy > steps.length) {
      throw new Error(`The database is of schema version ${legacy}, newer than this program (${steps.length}).`)
    }
    // The steps have no way down.
    if (legacy > count) throw new Error(`The database is of schema version ${legacy}, past the ${count} steps asked for.`)
    const migrator = new Migrator({ db: trx, provider: { getMigrations: async () => migrationsOf(dialect, context) } })
    // The Migrator's own tables, as it makes them, made here: it looks for them in every schema of the database
    // (a PostgreSQL database shared by several installations, each in a schema of its own, would fool it), and
    // the steps an older program ran are recorded as done before it looks.
    await sql`CREATE TABLE IF NOT EXISTS kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`.execute(trx)
    await sql`CREATE TABLE IF NOT EXISTS kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer NOT NULL DEFAULT 0)`.execute(trx)
    await sql`INSERT INTO kysely_migration_lock (id, is_locked) VALUES ('migration_lock', 0) ON CONFLICT (id) DO NOTHING`.execute(trx)
    const recorded = (await sql<{ n: number }>`SELECT COUNT(*) AS n FROM kysely_migration`.execute(trx)).rows[0]!
    if (Number(recorded.n) === 0) {
      for (let index = 0; index < legacy; index++) {
        await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${nameOf(index)}, ${new Date(0).toISOString()})`.execute(trx)
      }
    }
    const { error } = await migrator.migrateTo(count === 0 ? NO_MIGRATIONS : nameOf(count - 1))
    if (error) throw error
    // SQLite migrates with foreign keys off (a table made anew must be dropped without its references acting,
    // migrations/0030-inquiry-content-key.ts): every reference is checked here instead, before anything commits.
    if (dialect === 'sqlite') {
      const broken = (await sql<Record<string, unknown>>`PRAGMA foreign_key_check`.execute(trx)).rows
      if (broken.length > 0) throw new Error(`The migration would leave broken references: ${JSON.stringify(broken.slice(0, 5))}`)
    }
    await recordLegacyVersion(trx, dialect, count)
  })
}
