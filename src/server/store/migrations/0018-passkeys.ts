// Passkeys and a second factor for the console (decision 041): the passkeys' public keys and counters, the
// challenges handed out (single use, short-lived), the TOTP secret with the last time step used (replay), the
// recovery codes' hashes, and what the sessions page shows of a session (browser summary, address in part, how).
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull, oneOf, rowId } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', notNull)
    .addColumn('counter', big(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'text', notNull)
    .addColumn('created_at', big(dialect), notNull)
    .addColumn('last_used_at', big(dialect))
    .execute()
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(oneOf('purpose', ['register', 'sign-in'])))
    .addColumn('session_hash', 'text')
    .addColumn('expires_at', big(dialect), notNull)
    .execute()
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute()
  await db.schema
    .createTable('totp')
    .addColumn('owner', 'integer', (c) => c.primaryKey().check(sql`owner = 1`))
    .addColumn('secret', 'text', notNull)
    .addColumn('confirmed_at', big(dialect))
    .addColumn('last_step', big(dialect), (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big(dialect), notNull)
    .execute()
  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('used_at', big(dialect))
    .execute()
  for (const column of ['user_agent', 'address', 'method']) await db.schema.alterTable('sessions').addColumn(column, 'text').execute()
}
