// Several processes on one database: a worker leases the mail it is sending, so no other sends it at the same time.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema.alterTable('outbox').addColumn('lease_owner', 'text').execute()
  await db.schema.alterTable('outbox').addColumn('lease_until', big(dialect)).execute()
}
