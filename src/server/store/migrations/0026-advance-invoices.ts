// Advance-payment invoices (decision 046): an Anzahlungsrechnung is an invoice row naming the rate it was issued for
// (0 the down payment); a deal keeps one invoice over the whole price (the final one, rate null) and one advance
// invoice per rate, each under its own number of the one sequence.
import { sql } from 'kysely'
import type { SchemaDb } from '../migration-step.ts'

export async function up(db: SchemaDb) {
  await db.schema
    .alterTable('invoices')
    .addColumn('advance_rate', 'integer', (c) => c.check(sql`advance_rate BETWEEN 0 AND 60`))
    .execute()
  await db.schema.dropIndex('invoices_deal_invoice').execute()
  await db.schema
    .createIndex('invoices_deal_invoice')
    .unique()
    .on('invoices')
    .column('deal_id')
    .where(sql.ref('kind'), '=', 'invoice')
    .where(sql.ref('advance_rate'), 'is', null)
    .execute()
  await db.schema
    .createIndex('invoices_deal_advance')
    .unique()
    .on('invoices')
    .columns(['deal_id', 'advance_rate'])
    .where(sql.ref('kind'), '=', 'invoice')
    .where(sql.ref('advance_rate'), 'is not', null)
    .execute()
}
