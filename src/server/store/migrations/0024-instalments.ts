// Instalments (decision 042): the plan an inquiry was offered (with a counter-offer, or chosen at the checkout), the
// deal's choice of when the name moves, its rates each with a reference of their own and the marks of their
// reminders; a rate's webhooks (deal.overdue) are told apart by their rate number, 0 for the deal's own events.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .alterTable('inquiries')
    .addColumn('plan_rates', 'integer', (c) => c.check(sql`plan_rates BETWEEN 2 AND 60`))
    .execute()
  await db.schema.alterTable('inquiries').addColumn('plan_down_payment', big(dialect)).execute()
  for (const table of ['inquiries', 'deals']) {
    await db.schema
      .alterTable(table)
      .addColumn('plan_transfer', 'text', (c) => c.check(oneOf('plan_transfer', ['after-last', 'at-once'])))
      .execute()
  }
  await db.schema
    .createTable('deal_rates')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('deal_id', big(dialect), (c) => c.notNull().references('deals.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull().check(sql`number BETWEEN 0 AND 60`))
    .addColumn('amount', big(dialect), (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('due_at', big(dialect), notNull)
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('paid_at', big(dialect))
    .addColumn('paid_by', 'text', (c) => c.check(oneOf('paid_by', ['owner', 'bank'])))
    .addColumn('reminded_at', big(dialect))
    .addColumn('overdue_at', big(dialect))
    .addColumn('waited_at', big(dialect))
    .addUniqueConstraint('deal_rates_deal_id_number_key', ['deal_id', 'number'])
    .execute()
  await db.schema
    .alterTable('outbox')
    .addColumn('deal_rate', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.dropIndex('outbox_deal_webhook').execute()
  await db.schema
    .createIndex('outbox_deal_webhook')
    .unique()
    .on('outbox')
    .columns(['deal_id', 'deal_event', 'deal_rate', 'webhook_url'])
    .where(sql.ref('deal_event'), 'is not', null)
    .execute()
}
