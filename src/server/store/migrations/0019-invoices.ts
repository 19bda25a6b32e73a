// Invoices (decision 038): one row per invoice or Stornorechnung, its frozen data and, once drawn, its PDF and
// hash; the gapless number from one counter row, taken in the transaction that inserts the invoice. An invoice
// outlives its deal and inquiry (§147 AO, §14b UStG): the references to them are set null, never cascaded.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('invoice_numbers')
    .addColumn('seller', 'text', (c) => c.primaryKey())
    .addColumn('last', big(dialect), notNull)
    .execute()
  await db.schema
    .createTable('invoices')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('number', big(dialect), (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['invoice', 'cancellation'])))
    .addColumn('deal_id', big(dialect), (c) => c.references('deals.id').onDelete('set null'))
    .addColumn('cancels_id', big(dialect), (c) => c.unique().references('invoices.id'))
    .addColumn('reply_id', big(dialect), (c) => c.references('replies.id').onDelete('set null'))
    .addColumn('issued_at', big(dialect), notNull)
    .addColumn('data', 'text', notNull)
    .addColumn('e_invoice', dialect === 'sqlite' ? 'integer' : 'smallint', (c) => c.notNull().check(sql`e_invoice IN (0, 1)`))
    .addColumn('pdf', dialect === 'sqlite' ? 'blob' : 'bytea')
    .addColumn('sha256', 'text')
    .execute()
  await db.schema.createIndex('invoices_deal_invoice').unique().on('invoices').column('deal_id').where(sql.ref('kind'), '=', 'invoice').execute()
  await db.schema.createIndex('invoices_reply').on('invoices').column('reply_id').execute()
}
