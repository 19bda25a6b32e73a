// The test project "postgres" runs the store's tests against a real PostgreSQL server started here. The schema steps
// run once, into a template database; each test's database is copied from it (databaseUrlFor), as cheap as a file
// copy, where running the steps again took 150-200 ms per test, serialized on the migration lock.
import { Kysely, PostgresDialect } from 'kysely'
import type { TestProject } from 'vitest/node'
import { migrateToLatest } from '../../src/server/store/migrate.ts'
import { createPool } from '../../src/server/store/postgres-common.ts'
import { pgAdminQuery, pgDatabaseUrl, startPostgresServer, TEMPLATE_DATABASE } from './postgres.ts'

export default async function setup(project: TestProject) {
  const server = await startPostgresServer()
  try {
    await pgAdminQuery(server.adminUrl, `CREATE DATABASE ${TEMPLATE_DATABASE}`)
    // The product's own entry, as a store opening on an empty database runs it.
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: createPool(pgDatabaseUrl(server.adminUrl, TEMPLATE_DATABASE)) }) })
    try {
      await migrateToLatest(db, 'postgres')
    } finally {
      await db.destroy()
    }
    // A session left on the template (a test given its URL by mistake) would make every copy fail: refuse them all.
    await pgAdminQuery(server.adminUrl, `ALTER DATABASE ${TEMPLATE_DATABASE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`)
  } catch (error) {
    await server.stop()
    throw error
  }
  project.provide('pgAdminUrl', server.adminUrl)
  return () => server.stop()
}
