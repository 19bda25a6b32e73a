// A store for one test, on the store of the test project (the SQLite file, or a schema of its own on the real
// PostgreSQL server in the project "postgres"), removed when the test ends. Two stores opened on one config stand
// for two server processes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'
import { openStore, type StoreConfig } from '../../src/server/store/index.ts'
import type { NewInquiry, Store } from '../../src/server/store/types.ts'
import { databaseUrlFor } from './postgres.ts'

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
