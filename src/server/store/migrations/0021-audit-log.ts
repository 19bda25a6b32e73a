// The audit trail (decision 043): one row per change made through the console or the CLI, and per sign-in. No
// foreign keys: a row outlives the inquiry or deal it names until forget or retention (2 years) removes it.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('at', big(dialect), notNull)
    .addColumn('actor', 'text', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('outcome', 'text', (c) => c.notNull().check(oneOf('outcome', ['ok', 'refused', 'failed'])))
    .addColumn('inquiry_id', big(dialect))
    .addColumn('deal_id', big(dialect))
    .addColumn('domain', 'text')
    .addColumn('detail', 'text')
    .execute()
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute()
  await db.schema.createIndex('audit_log_inquiry').on('audit_log').column('inquiry_id').where(sql.ref('inquiry_id'), 'is not', null).execute()
  await db.schema.createIndex('audit_log_deal').on('audit_log').column('deal_id').where(sql.ref('deal_id'), 'is not', null).execute()
}
