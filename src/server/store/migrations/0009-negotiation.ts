// From inquiry to deal (docs/negotiation.md): the states of a negotiation and of a buyer's confirmation, a
// counter-offer's amount and expiry, the kind of each mail to the visitor, and webhooks as outbox rows of their own
// (one per inquiry and address).
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { analyze, big, oneOf } from './common.ts'

const STATES = ['new', 'unconfirmed', 'answered', 'countered', 'expired', 'accepted', 'declined', 'archived', 'spam']

export async function up(db: SchemaDb, { dialect }: StepContext) {
  if (dialect === 'sqlite') {
    // A column's CHECK cannot be altered in SQLite: the state moves to a new column, and its indexes with it.
    await db.schema
      .alterTable('inquiries')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('new').check(oneOf('state', STATES)))
      .execute()
    await db
      .updateTable('inquiries')
      .set((eb) => ({ state: eb.ref('status') }))
      .where('status', '<>', 'new')
      .execute()
    await db.schema.dropIndex('inquiries_status_created').execute()
    await db.schema.dropIndex('inquiries_domain_status_created').execute()
    await db.schema.alterTable('inquiries').dropColumn('status').execute()
    await db.schema.alterTable('inquiries').renameColumn('state', 'status').execute()
    await db.schema.createIndex('inquiries_status_created').on('inquiries').columns(['status', 'created_at']).execute()
    await db.schema.createIndex('inquiries_domain_status_created').on('inquiries').columns(['domain', 'status', 'created_at']).execute()
    await db.schema
      .createIndex('inquiries_email')
      .on('inquiries')
      .expression(sql`email COLLATE NOCASE`)
      .execute()
  } else {
    await db.schema.alterTable('inquiries').dropConstraint('inquiries_status_check').execute()
    await db.schema.alterTable('inquiries').addCheckConstraint('inquiries_status_check', oneOf('status', STATES)).execute()
    await db.schema
      .createIndex('inquiries_email')
      .on('inquiries')
      .expression(sql`lower(email)`)
      .execute()
  }
  await db.schema.alterTable('inquiries').addColumn('counter_amount', big(dialect)).execute()
  await db.schema.alterTable('inquiries').addColumn('counter_expires_at', big(dialect)).execute()
  await db.schema
    .alterTable('replies')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('reply')
        .check(oneOf('kind', ['reply', 'counter', 'accept', 'decline', 'notice', 'verify'])),
    )
    .execute()
  await db.schema.alterTable('replies').addColumn('amount', big(dialect)).execute()
  await db.schema.alterTable('outbox').addColumn('webhook_url', 'text').execute()
  await db.schema.dropIndex('outbox_inquiry_mail').execute()
  await db.schema
    .createIndex('outbox_inquiry_mail')
    .unique()
    .on('outbox')
    .column('inquiry_id')
    .where(sql.ref('reply_id'), 'is', null)
    .where(sql.ref('webhook_url'), 'is', null)
    .execute()
  await db.schema
    .createIndex('outbox_inquiry_webhook')
    .unique()
    .on('outbox')
    .columns(['inquiry_id', 'webhook_url'])
    .where(sql.ref('webhook_url'), 'is not', null)
    .execute()
  // The indexes made anew have no statistics beside the others' (SQLite), and a new column has none until the next
  // ANALYZE, which no write triggers soon on a large table (PostgreSQL): the planner then took the wrong index for a
  // domain's inbox, or every outbox row for a webhook (docs/benchmarks.md#console).
  await analyze(db, 'inquiries', 'outbox', 'replies')
}
