// Several domains: offers, per-domain recipients, and page views counted per domain and day.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, withoutRowid } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema.alterTable('inquiries').addColumn('offer_eur', 'integer').execute()
  await db.schema
    .alterTable('inquiries')
    .addColumn('below_minimum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('outbox').addColumn('mail_to', 'text').execute()
  await db.schema
    .alterTable('outbox')
    .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('inquiries_created').on('inquiries').column('created_at').execute()
  await db.schema
    .createTable('page_views')
    .addColumn('domain', 'text', notNull)
    .addColumn('day', 'text', notNull)
    .addColumn('views', big(dialect), notNull)
    .addPrimaryKeyConstraint('page_views_pkey', ['domain', 'day'])
    .$call(withoutRowid(dialect))
    .execute()
}
