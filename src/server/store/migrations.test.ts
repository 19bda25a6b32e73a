// The schema steps make, on either database, exactly the schema the steps made when they were SQL text (the
// description in tests/fixtures/schema/, written by that program), and a store made by any earlier program opens and
// reaches that schema with its rows.
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { newInquiry, openTestStore as open, testStoreConfig } from '../../../tests/helpers/store.ts'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { describeStoreSchema, oldSchema, oldStepCount } from '../../../tests/helpers/schema.ts'

const expected = (postgres: boolean) =>
  JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'schema', postgres ? 'postgres.json' : 'sqlite.json'), 'utf8'),
  )

test('a fresh store gets the schema the steps as SQL text made, table by table, column by column, under the same step names', async () => {
  const config = await testStoreConfig('store-', { empty: true })
  await open(config)
  expect(await describeStoreSchema(config)).toEqual(expected(config.databaseUrl !== undefined))
})

// Versions across the history, counted as each database counted them (PostgreSQL has one step more from the fifth:
// its rate-limit counters): after the first step, the version before the query layer, just after the console's
// outbox rebuild, after the deal deadlines, just before the TOTP sealing, and just before the last step.
const VERSIONS = { sqlite: [1, 5, 7, 13, 23, 27], postgres: [1, 6, 8, 14, 24, 28] }

for (const recorded of [false, true]) {
  for (const [index, sqliteVersion] of VERSIONS.sqlite.entries()) {
    const how = recorded ? 'its steps recorded by the Migrator' : 'its version in the old marker only'
    test(`a store of ${sqliteVersion} steps (SQLite; PostgreSQL: ${VERSIONS.postgres[index]}), ${how}, opens with its rows and reaches the same schema`, async () => {
      const config = await testStoreConfig('store-', { empty: true })
      const postgres = config.databaseUrl !== undefined
      const at = (postgres ? VERSIONS.postgres : VERSIONS.sqlite)[index]!
      expect(at).toBeLessThan(oldStepCount(postgres))
      await oldSchema(config, at, { recorded })
      const old = newInquiry({ message: 'Eine alte Anfrage' })
      await queryStore(config.dataDir, 'INSERT INTO inquiries (token, content_hash, domain, name, email, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        old.token,
        old.contentHash,
        old.domain,
        old.name,
        old.email,
        old.message,
        old.createdAt,
      ])
      const store = await open(config)
      expect(await store.findInquiry(old.token, old.contentHash)).toMatchObject({ message: 'Eine alte Anfrage', language: 'de', offer: null })
      // The search index (made at the console's step) holds the rows from before it too.
      expect(await store.consoleInquiries({ words: ['alte'], limit: 10 })).toHaveLength(1)
      expect(await describeStoreSchema(config)).toEqual(expected(postgres))
    })
  }
}
