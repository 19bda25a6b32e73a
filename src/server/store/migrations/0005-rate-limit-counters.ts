// Rate-limit counters, shared by every instance: PostgreSQL only (SQLite keeps them in a file of its own,
// sqlite-rate-limit.ts). UNLOGGED: counters need no crash safety, so they cost no WAL writes.
import { sql } from 'kysely'
import type { SchemaDb } from '../migration-step.ts'
import { notNull } from './common.ts'

export const only = 'postgres'

export async function up(db: SchemaDb) {
  await db.schema
    .createTable('rate_limit_counters')
    .modifyFront(sql`unlogged`)
    .addColumn('scope', 'text', notNull)
    .addColumn('key', 'text', notNull)
    .addColumn('count', 'integer', notNull)
    .addColumn('expires', 'bigint', notNull)
    .addPrimaryKeyConstraint('rate_limit_counters_pkey', ['scope', 'key'])
    .execute()
}
