// `node scripts/schema-fixtures.ts`: writes tests/fixtures/schema/{sqlite,postgres}.json, the description
// (tests/helpers/schema.ts) of a fresh store migrated by this program, on SQLite and on a throw-away PostgreSQL server.
// The files were written by the program whose schema steps were SQL text (commit cb8f7d9): the test of the steps
// (src/server/store/migrations.test.ts) holds every later program to them. Write them anew only for a
// new schema step, and read the difference.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openStore } from '../src/server/store/index.ts'
import { startPostgresServer } from '../tests/helpers/postgres.ts'
import { describeStoreSchema } from '../tests/helpers/schema.ts'

const out = path.join(import.meta.dirname, '..', 'tests', 'fixtures', 'schema')

async function describeFresh(databaseUrl?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-fixtures-'))
  try {
    const config = { dataDir, databaseUrl }
    await (await openStore(config)).close()
    return await describeStoreSchema(config)
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const write = (name: string, description: unknown) => fs.writeFileSync(path.join(out, name), `${JSON.stringify(description, null, 2)}\n`)

fs.mkdirSync(out, { recursive: true })
write('sqlite.json', await describeFresh())
const server = await startPostgresServer()
try {
  const admin = new pg.Client({ connectionString: server.adminUrl })
  await admin.connect()
  await admin.query('CREATE SCHEMA fixtures')
  await admin.end()
  write('postgres.json', await describeFresh(`${server.adminUrl}?options=${encodeURIComponent('-c search_path=fixtures')}`))
} finally {
  await server.stop()
}
