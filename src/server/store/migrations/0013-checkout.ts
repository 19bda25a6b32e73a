// The fixed-price checkout (decision 035): a checkout is an inquiry of its own kind, with the buyer's postal
// address, company, country and VAT ID beside it, so the inbox, access/forget, retention and exports cover it.
import type { SchemaDb } from '../migration-step.ts'
import { oneOf } from './common.ts'

export async function up(db: SchemaDb) {
  await db.schema
    .alterTable('inquiries')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('inquiry')
        .check(oneOf('kind', ['inquiry', 'checkout'])),
    )
    .execute()
  for (const column of ['buyer_company', 'buyer_street', 'buyer_postcode', 'buyer_city', 'buyer_country', 'buyer_vat_id']) {
    await db.schema.alterTable('inquiries').addColumn(column, 'text').execute()
  }
}
