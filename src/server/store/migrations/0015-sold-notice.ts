// "Bereits verkauft" (decision 037): the owner's choice, made with "Übertragen", to tell the other inquirers when
// the deal completes by itself; and the notice's own reply kind.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { widenCheck } from './common.ts'

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
  'sold-notice',
]

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .alterTable('deals')
    .addColumn('notify_others', 'integer', (c) => c.check(sql`notify_others IN (0, 1)`))
    .execute()
  await widenCheck(db, dialect, 'replies', 'kind', REPLY_KINDS, 'reply')
}
