// One open deal per name (decision 037): the acceptance checks it in its transaction; the index holds it against
// any other writer. A completed deal is left out: the name is sold, and the acceptance refuses it before.
import { sql } from 'kysely'
import type { SchemaDb } from '../migration-step.ts'

export async function up(db: SchemaDb) {
  await db.schema
    .createIndex('deals_open_domain')
    .unique()
    .on('deals')
    .column('domain')
    .where(sql.ref('status'), 'in', ['awaiting_payment', 'paid', 'transferred'])
    .execute()
}
