// A store for one test, on the store of the test project (the SQLite file, or a database of its own on the real
// PostgreSQL server in the project "postgres"), removed when the test ends. Two stores opened on one config stand
// for two server processes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, PostgresDialect } from 'kysely'
import { onTestFinished } from 'vitest'
import { openStore, sqliteFileOf, type StoreConfig } from '../../src/server/store/index.ts'
import type { SqliteStoreOptions } from '../../src/server/store/sqlite.ts'
import { migrate, stepsOf } from '../../src/server/store/migrate.ts'
import { NodeSqliteDialect } from '../../src/server/store/node-sqlite-dialect.ts'
import { createPool } from '../../src/server/store/postgres-common.ts'
import type { NewInquiry, Store } from '../../src/server/store/types.ts'
import { databaseUrlFor } from './postgres.ts'

/**
 * A fresh DATA_DIR (and PostgreSQL database, already migrated), deleted after the test. `empty`: a database without
 * any schema, for a test that migrates from nothing or builds an earlier program's schema (schemaBefore, oldSchema).
 */
export async function testStoreConfig(prefix = 'store-', { empty = false } = {}): Promise<StoreConfig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  return { dataDir, databaseUrl: await databaseUrlFor(dataDir, { empty }) }
}

/**
 * Opens the store of `config` (a fresh one without), closed after the test, before its DATA_DIR goes. `onQuery` sees
 * every statement (on either store).
 */
export async function openTestStore(config?: StoreConfig, options: Pick<SqliteStoreOptions, 'onQuery'> = {}): Promise<Store> {
  const store = await openStore(config ?? (await testStoreConfig()), options)
  onTestFinished(() => store.close())
  return store
}

let counter = 0
/** An inquiry as the contact route stores it; each call has its own token and content. */
export function newInquiry(overrides: Partial<NewInquiry> = {}): NewInquiry {
  counter++
  return {
    token: `token${String(counter).padStart(10, '0')}`,
    contentHash: `hash-${counter}`,
    domain: 'example.de',
    name: 'Erika Mustermann',
    email: 'erika@example.de',
    message: `Nachricht ${counter}`,
    language: 'de',
    spamReason: null,
    offer: null,
    belowMinimum: false,
    createdAt: Date.now() - 60_000,
    ...overrides,
  }
}

/**
 * Makes `config`'s empty store (testStoreConfig(…, { empty: true })) what the program before `step` left: every earlier schema step run and recorded, as
 * that program left them. `step` finds the step among the names of the modules of src/server/store/migrations/ that
 * the test's database runs (such as '0025-seal-totp-secrets'). Returns the number of steps in all, for the test to
 * see them all recorded after the store is opened.
 */
export async function schemaBefore(config: StoreConfig, step: (steps: readonly string[]) => number): Promise<number> {
  const dialect = config.databaseUrl !== undefined ? 'postgres' : 'sqlite'
  const steps = stepsOf(dialect)
  const before = step(steps.map((each) => each.id))
  if (before < 0) throw new Error('schemaBefore: no such step')
  let db: Kysely<unknown>
  if (config.databaseUrl) db = new Kysely({ dialect: new PostgresDialect({ pool: createPool(config.databaseUrl) }) })
  else {
    const file = sqliteFileOf(config)
    fs.closeSync(fs.openSync(file, 'w', 0o600))
    db = new Kysely({ dialect: new NodeSqliteDialect(new DatabaseSync(file), file) })
  }
  try {
    await migrate(db, dialect, {}, before)
  } finally {
    await db.destroy()
  }
  return steps.length
}
