// The daily checks of every listed name (decision 047): the last result per name, what the owner was last told of
// (so a webhook goes once per change of state), and the notifications (domain.unreachable, domain.expiring) in an
// outbox of their own, as the DNS updates have (outbox rows belong to an inquiry).
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, MAIL_STATES, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('domain_checks')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', big(dialect), notNull)
    .addColumn('pointing', 'text', (c) => c.notNull().check(oneOf('pointing', ['here', 'elsewhere', 'unknown'])))
    .addColumn('pointing_detail', 'text', notNull)
    .addColumn('records', 'text', (c) => c.notNull().check(oneOf('records', ['ok', 'missing', 'stale', 'left-over', 'malformed', 'unknown'])))
    .addColumn('records_detail', 'text', notNull)
    .addColumn('expiry', 'text', (c) => c.notNull().check(oneOf('expiry', ['known', 'none', 'unknown'])))
    .addColumn('expires_at', big(dialect))
    .addColumn('expiry_detail', 'text', notNull)
    .addColumn('rdap_checked_at', big(dialect))
    .addColumn('told_pointing', 'text', (c) => c.check(oneOf('told_pointing', ['here', 'elsewhere'])))
    .addColumn('told_expires_at', big(dialect))
    .execute()
  await db.schema.createIndex('domain_checks_checked').on('domain_checks').column('checked_at').execute()
  await db.schema
    .createTable('domain_notices')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('domain', 'text', notNull)
    .addColumn('event', 'text', (c) => c.notNull().check(oneOf('event', ['unreachable', 'expiring'])))
    .addColumn('facts', 'text', notNull)
    .addColumn('webhook_url', 'text', notNull)
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
  await db.schema.createIndex('domain_notices_pending_due').on('domain_notices').column('next_attempt_at').where(sql.ref('status'), '=', 'pending').execute()
}
