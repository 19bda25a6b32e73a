// DNS updates (decision 045): the server's RFC 2136 updates of _for-sale records, an outbox of their own (one row
// per zone and change, the zone's records as JSON), and the names the server has put records on (so that a name
// removed from the domains file gets its records deleted).
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, MAIL_STATES, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('dns_updates')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('zone', 'text', notNull)
    .addColumn('names', 'text', notNull)
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', MAIL_STATES)))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', big(dialect), notNull)
    .addColumn('last_error', 'text')
    .addColumn('created_at', big(dialect), notNull)
    .addColumn('sent_at', big(dialect))
    .addColumn('failed_at', big(dialect))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', big(dialect))
    .execute()
  await db.schema.createIndex('dns_updates_zone').on('dns_updates').columns(['zone', 'id']).execute()
  await db.schema.createIndex('dns_updates_pending_due').on('dns_updates').column('next_attempt_at').where(sql.ref('status'), '=', 'pending').execute()
  await db.schema
    .createTable('dns_names')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('zone', 'text', notNull)
    .execute()
  await db.schema.createIndex('dns_names_zone').on('dns_names').column('zone').execute()
}
