// Offers are in the domain's currency; every offer made before was in euros.
import type { SchemaDb } from '../migration-step.ts'

export async function up(db: SchemaDb) {
  await db.schema.alterTable('inquiries').renameColumn('offer_eur', 'offer_amount').execute()
  await db.schema.alterTable('inquiries').addColumn('offer_currency', 'text').execute()
  await db.updateTable('inquiries').set({ offer_currency: 'EUR' }).where('offer_amount', 'is not', null).execute()
}
