// A deal's deadlines (decision 036): when each reminder went out, set in the transaction that queues it, so that it
// goes out once; the reminders' own reply kinds; and the deal's webhooks (deal.*): outbox rows of their own, once
// per deal, event and address.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, widenCheck } from './common.ts'

const REPLY_KINDS = [
  'reply',
  'counter',
  'accept',
  'decline',
  'notice',
  'verify',
  'deal-paid',
  'deal-transferred',
  'deal-completed',
  'deal-cancelled',
  'deal-payment-reminder',
  'deal-overdue',
  'deal-transfer-reminder',
]

export async function up(db: SchemaDb, { dialect }: StepContext) {
  for (const column of ['payment_reminded_at', 'payment_overdue_at', 'transfer_reminded_at']) {
    await db.schema.alterTable('deals').addColumn(column, big(dialect)).execute()
  }
  await widenCheck(db, dialect, 'replies', 'kind', REPLY_KINDS, 'reply')
  await db.schema.alterTable('outbox').addColumn('deal_id', big(dialect)).execute()
  await db.schema.alterTable('outbox').addColumn('deal_event', 'text').execute()
  await db.schema.dropIndex('outbox_inquiry_webhook').execute()
  await db.schema
    .createIndex('outbox_inquiry_webhook')
    .unique()
    .on('outbox')
    .columns(['inquiry_id', 'webhook_url'])
    .where(sql.ref('webhook_url'), 'is not', null)
    .where(sql.ref('deal_event'), 'is', null)
    .execute()
  await db.schema
    .createIndex('outbox_deal_webhook')
    .unique()
    .on('outbox')
    .columns(['deal_id', 'deal_event', 'webhook_url'])
    .where(sql.ref('deal_event'), 'is not', null)
    .execute()
}
