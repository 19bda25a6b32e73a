// A row the readiness check rewrites: proves the database can take a write right now.
import type { SchemaDb } from '../migration-step.ts'
import { notNull } from './common.ts'

export async function up(db: SchemaDb) {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', notNull)
    .execute()
}
