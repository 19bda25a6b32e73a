// A store for one test, on the store of the test project (the SQLite file, or a schema of its own on the real
// PostgreSQL server in the project "postgres"), removed when the test ends. Two stores opened on one config stand
// for two server processes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'
import { openStore, sqliteFileOf, type StoreConfig } from '../../src/server/store/index.ts'
import { statementsOf } from '../../src/server/store/migrate.ts'
import type { MigrationStep } from '../../src/server/store/migration-step.ts'
import { POSTGRES_MIGRATIONS } from '../../src/server/store/migrations-postgres.ts'
import { SQLITE_MIGRATIONS } from '../../src/server/store/migrations-sqlite.ts'
import type { NewInquiry, Store } from '../../src/server/store/types.ts'
import { databaseUrlFor, queryStore } from './postgres.ts'

/** A fresh DATA_DIR (and PostgreSQL schema), deleted after the test. */
export async function testStoreConfig(prefix = 'store-'): Promise<StoreConfig> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  return { dataDir, databaseUrl: await databaseUrlFor(dataDir) }
}

/** Opens the store of `config` (a fresh one without), closed after the test, before its DATA_DIR goes. */
export async function openTestStore(config?: StoreConfig): Promise<Store> {
  const store = await openStore(config ?? (await testStoreConfig()))
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
 * Makes `config`'s (empty) store what the program before `step` left: every earlier step run, counted the way the
 * programs before the Migrator counted them (PRAGMA user_version, PostgreSQL's schema_version), which migrate.ts still
 * takes over. Steps given as code change data only, and there is none yet: they are left out. Returns the number of
 * steps in all, for the test to see them all recorded after the store is opened.
 */
export async function schemaBefore(config: StoreConfig, step: (steps: MigrationStep[]) => number): Promise<number> {
  const postgres = config.databaseUrl !== undefined
  const steps = postgres ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS
  const before = step(steps)
  if (before < 0) throw new Error('schemaBefore: no such step')
  if (!postgres) fs.closeSync(fs.openSync(sqliteFileOf(config), 'w', 0o600))
  for (const text of steps.slice(0, before)) {
    if (typeof text === 'string') for (const statement of statementsOf(text)) await queryStore(config.dataDir, statement)
  }
  if (postgres)
    await queryStore(
      config.dataDir,
      `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL); DELETE FROM schema_version; INSERT INTO schema_version VALUES (${before})`,
    )
  else await queryStore(config.dataDir, `PRAGMA user_version = ${before}`)
  return steps.length
}
