// Edits of the domains file made in the console or the CLI (decision 044): numbered without gaps, each instance
// takes in the ones its own file lacks.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, notNull } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .createTable('domain_edits')
    .addColumn('version', big(dialect), (c) => c.primaryKey())
    .addColumn('edits', 'text', notNull)
    .addColumn('created_at', big(dialect), notNull)
    .execute()
}
