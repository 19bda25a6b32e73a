// The invoice address of a deal from a negotiation (decision 038), given by the buyer on the deal page into the
// checkout's buyer_* columns; the name on the invoice is a column of its own, because the inquiry's name is what
// the search index holds.
import type { SchemaDb } from '../migration-step.ts'

export async function up(db: SchemaDb) {
  await db.schema.alterTable('inquiries').addColumn('buyer_name', 'text').execute()
}
