// The inquiries, and the outbox: one mail per inquiry, sent and retried by the mail worker.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, MAIL_STATES, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('inquiries')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('content_hash', 'text', notNull)
    .addColumn('domain', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('email', 'text', notNull)
    .addColumn('message', 'text', notNull)
    .addColumn('spam_reason', 'text')
    .addColumn('created_at', big(dialect), notNull)
    .execute()
  await db.schema.createIndex('inquiries_domain_created').on('inquiries').columns(['domain', 'created_at']).execute()
  await db.schema
    .createTable('outbox')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('inquiry_id', big(dialect), (c) => c.notNull().unique().references('inquiries.id'))
    .addColumn('message_id', 'text', notNull)
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', MAIL_STATES)))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', big(dialect), notNull)
    .addColumn('last_error', 'text')
    .addColumn('created_at', big(dialect), notNull)
    .addColumn('sent_at', big(dialect))
    .addColumn('failed_at', big(dialect))
    .execute()
  await db.schema.createIndex('outbox_pending_due').on('outbox').column('next_attempt_at').where(sql.ref('status'), '=', 'pending').execute()
}
