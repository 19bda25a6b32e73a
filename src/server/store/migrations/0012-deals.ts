// Deals (docs/deals.md, decision 033): an accepted offer becomes a deal with its own states, payment reference
// and deadlines; its page is found by the SHA-256 of a random link id (a copy of the database does not give the
// links away); the transfer code is kept encrypted with a key outside the database. The mails of a deal are
// replies of kinds of their own.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId, widenCheck } from './common.ts'

const REPLY_KINDS = ['reply', 'counter', 'accept', 'decline', 'notice', 'verify', 'deal-paid', 'deal-transferred', 'deal-completed', 'deal-cancelled']

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('deals')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('link_hash', 'text', (c) => c.notNull().unique())
    .addColumn('link_sealed', 'text', notNull)
    .addColumn('inquiry_id', big(dialect), (c) => c.notNull().references('inquiries.id').onDelete('cascade'))
    .addColumn('domain', 'text', notNull)
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', ['awaiting_payment', 'paid', 'transferred', 'completed', 'cancelled'])))
    .addColumn('amount', big(dialect), (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', notNull)
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', big(dialect), notNull)
    .addColumn('payment_due_at', big(dialect), notNull)
    .addColumn('transfer_days', 'integer', notNull)
    .addColumn('paid_at', big(dialect))
    .addColumn('transfer_due_at', big(dialect))
    .addColumn('transferred_at', big(dialect))
    .addColumn('completes_at', big(dialect))
    .addColumn('completed_at', big(dialect))
    .addColumn('cancelled_at', big(dialect))
    .addColumn('cancelled_by', 'text', (c) => c.check(oneOf('cancelled_by', ['owner', 'buyer'])))
    .addColumn('cancel_reason', 'text')
    .addColumn('transfer_code', 'text')
    .addColumn('transfer_note', 'text')
    .execute()
  await db.schema.createIndex('deals_open_inquiry').unique().on('deals').column('inquiry_id').where(sql.ref('status'), '<>', 'cancelled').execute()
  await db.schema.createIndex('deals_status').on('deals').column('status').execute()
  await db.schema.createIndex('deals_domain').on('deals').columns(['domain', 'status']).execute()
  await widenCheck(db, dialect, 'replies', 'kind', REPLY_KINDS, 'reply')
}
