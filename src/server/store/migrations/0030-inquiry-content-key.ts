// A submission is its form token and its content together (decision 055): tokens are derived from host and second,
// so visitors who load a page in the same second share one. The UNIQUE on the token alone gives way to one on
// (token, content_hash); the rows stay as they are (each token was unique, so each pair is).
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { analyze } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  if (dialect === 'postgres') await db.schema.alterTable('inquiries').dropConstraint('inquiries_token_key').execute()
  else await rebuildSqliteInquiries(db)
  await db.schema.createIndex('inquiries_token_content').unique().on('inquiries').columns(['token', 'content_hash']).execute()
  await analyze(db, 'inquiries')
}

/**
 * SQLite cannot drop a UNIQUE constraint: the table is made anew from its own CREATE text without the token's
 * UNIQUE (every column, CHECK and reference as the earlier steps left them, whichever program wrote them), its rows
 * copied with their ids, the old one dropped and the new one given its name, then its indexes and triggers made
 * again (SQLite's own procedure, https://sqlite.org/lang_altertable.html#otheralter). The tables referring to
 * inquiries (outbox, replies, deals, ...) name it, and find the same ids in the new table. This needs foreign keys
 * off (the store turns them on after migrating, and checks them all before the migration commits): with them on,
 * the implicit DELETE of DROP TABLE would cascade to the deals. The search index (an FTS table over "inquiries")
 * keeps its rows: the ids do not change, and DROP TABLE fires no triggers.
 */
async function rebuildSqliteInquiries(db: SchemaDb) {
  const { foreign_keys } = (await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db)).rows[0]!
  if (foreign_keys) throw new Error('0030: foreign keys must be off while the table inquiries is made anew')
  const objects = await db
    .selectFrom('sqlite_master')
    .select(['type', 'name', 'sql'])
    .where('tbl_name', '=', 'inquiries')
    .where('sql', 'is not', null)
    .orderBy('type')
    .orderBy('name')
    .execute()
  const table = objects.find((object) => object.type === 'table')
  const unique = /^(\s*create\s+table\s+)"?inquiries"?(\s*\(.*\btoken"?\s+text\s+not\s+null)\s+unique\b/is
  if (!table || !unique.test(table.sql)) throw new Error(`0030: the table inquiries is not as the earlier steps left it: ${table?.sql}`)
  await sql.raw(table.sql.replace(unique, '$1inquiries_next$2')).execute(db)
  await sql`INSERT INTO inquiries_next SELECT * FROM inquiries`.execute(db)
  await db.schema.dropTable('inquiries').execute()
  await db.schema.alterTable('inquiries_next').renameTo('inquiries').execute()
  for (const object of objects) if (object.type !== 'table') await sql.raw(object.sql).execute(db)
}
