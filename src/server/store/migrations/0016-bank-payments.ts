// Bank statements (decision 040): each booking applied to a deal, once, by its key (the account and the bank's
// reference, or a digest of the booking). No name, no remittance text: the amount, the date and the references.
// A deal erased (forget, retention) leaves its bookings' keys, so that importing the file again changes nothing.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('bank_payments')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('bank_key', 'text', (c) => c.notNull().unique())
    .addColumn('deal_id', big(dialect), (c) => c.references('deals.id').onDelete('set null'))
    .addColumn('reference', 'text', notNull)
    .addColumn('account', 'text', notNull)
    .addColumn('bank_ref', 'text')
    .addColumn('booked_on', 'text')
    .addColumn('amount', big(dialect), notNull)
    .addColumn('currency', 'text', notNull)
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['payment', 'return'])))
    .addColumn('created_at', big(dialect), notNull)
    .execute()
  await db.schema.createIndex('bank_payments_deal').on('bank_payments').column('deal_id').execute()
}
