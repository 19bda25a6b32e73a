// English pages (docs/decisions/025): the language the buyer wrote in. Every inquiry before was German.
import type { SchemaDb } from '../migration-step.ts'
import { oneOf } from './common.ts'

export async function up(db: SchemaDb) {
  await db.schema
    .alterTable('inquiries')
    .addColumn('language', 'text', (c) =>
      c
        .notNull()
        .defaultTo('de')
        .check(oneOf('language', ['de', 'en'])),
    )
    .execute()
}
