// Names a wildcard entry let through /tls-check, by the day they were first approved (for the daily limit).
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { notNull, withoutRowid } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('tls_names')
    .addColumn('wildcard', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('day', 'text', notNull)
    .addPrimaryKeyConstraint('tls_names_pkey', ['wildcard', 'name'])
    .$call(withoutRowid(dialect))
    .execute()
  await db.schema.createIndex('tls_names_day').on('tls_names').columns(['wildcard', 'day']).execute()
}
