// The owner's console: an inquiry's state, free-text search, replies to the visitor (mail of their own in the outbox,
// which therefore holds one mail per inquiry and one per reply) and sign-in sessions.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { big, MAIL_STATES, notNull, oneOf, rowId, withoutRowid } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema
    .alterTable('inquiries')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('new')
        .check(oneOf('status', ['new', 'answered', 'archived', 'spam'])),
    )
    .execute()
  await db.updateTable('inquiries').set({ status: 'spam' }).where('spam_reason', 'is not', null).execute()
  await db.schema.createIndex('inquiries_status_created').on('inquiries').columns(['status', 'created_at']).execute()
  await db.schema.createIndex('inquiries_domain_status_created').on('inquiries').columns(['domain', 'status', 'created_at']).execute()
  if (dialect === 'sqlite') await sqliteSearch(db)
  else await postgresSearch(db)
  await db.schema
    .createTable('replies')
    .addColumn('id', big(dialect), rowId(dialect))
    .addColumn('inquiry_id', big(dialect), (c) => c.notNull().references('inquiries.id'))
    .addColumn('body', 'text', notNull)
    .addColumn('reply_to', 'text')
    .addColumn('created_at', big(dialect), notNull)
    .execute()
  await db.schema.createIndex('replies_inquiry').on('replies').column('inquiry_id').execute()
  // An outbox row is now an inquiry's mail or a reply's: the inquiry is no longer unique in it.
  if (dialect === 'sqlite') await rebuildSqliteOutbox(db)
  else {
    await db.schema
      .alterTable('outbox')
      .addColumn('reply_id', 'bigint', (c) => c.references('replies.id'))
      .execute()
    await db.schema.alterTable('outbox').dropConstraint('outbox_inquiry_id_key').execute()
  }
  await db.schema.createIndex('outbox_inquiry_mail').unique().on('outbox').column('inquiry_id').where(sql.ref('reply_id'), 'is', null).execute()
  await db.schema.createIndex('outbox_reply_mail').unique().on('outbox').column('reply_id').execute()
  await db.schema.createIndex('outbox_inquiry').on('outbox').column('inquiry_id').execute()
  if (dialect === 'sqlite') {
    await db.schema.createIndex('outbox_pending_due').on('outbox').column('next_attempt_at').where(sql.ref('status'), '=', 'pending').execute()
  }
  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', big(dialect), notNull)
    .addColumn('last_seen_at', big(dialect), notNull)
    .$call(withoutRowid(dialect))
    .execute()
}

/**
 * SQLite: an FTS5 index kept by triggers (rows are never edited in the searched columns). It also holds the domain,
 * so that a search within one domain is one lookup in it rather than a walk over either.
 */
async function sqliteSearch(db: SchemaDb) {
  await sql`CREATE VIRTUAL TABLE inquiries_fts USING fts5(
     name, email, message, domain, content = 'inquiries', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
   )`.execute(db)
  await db.insertInto('inquiries_fts').values({ inquiries_fts: 'rebuild' }).execute()
  await sql`CREATE TRIGGER inquiries_fts_insert AFTER INSERT ON inquiries BEGIN
     INSERT INTO inquiries_fts (rowid, name, email, message, domain) VALUES (new.id, new.name, new.email, new.message, new.domain);
   END`.execute(db)
  await sql`CREATE TRIGGER inquiries_fts_delete AFTER DELETE ON inquiries BEGIN
     INSERT INTO inquiries_fts (inquiries_fts, rowid, name, email, message, domain) VALUES ('delete', old.id, old.name, old.email, old.message, old.domain);
   END`.execute(db)
}

/**
 * PostgreSQL: free text is searched by words (and word prefixes); @ and . separate words too, so that the parts of an
 * address are words and not one token of the parser's own. The words are a stored column, not only an index
 * expression: the planner then has statistics on them (and does not recompute them for every row it reads), so it
 * can tell a rare word (use the index) from a common one (read the newest inquiries until enough match).
 */
async function postgresSearch(db: SchemaDb) {
  await db.schema.createIndex('inquiries_created_id').on('inquiries').columns(['created_at', 'id']).execute()
  await db.schema
    .alterTable('inquiries')
    .addColumn('search', sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`to_tsvector('simple', translate(name || ' ' || email || ' ' || message, '@.', '  '))`).stored(),
    )
    .execute()
  await db.schema.createIndex('inquiries_search').on('inquiries').using('gin').column('search').execute()
}

/** SQLite cannot drop a UNIQUE constraint: the outbox is made anew, with the reply's column beside the inquiry's. */
async function rebuildSqliteOutbox(db: SchemaDb) {
  await db.schema
    .createTable('outbox_rebuilt')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('inquiry_id', 'integer', (c) => c.notNull().references('inquiries.id'))
    .addColumn('reply_id', 'integer', (c) => c.references('replies.id'))
    .addColumn('message_id', 'text', notNull)
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', MAIL_STATES)))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'integer', notNull)
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'integer', notNull)
    .addColumn('sent_at', 'integer')
    .addColumn('failed_at', 'integer')
    .addColumn('mail_to', 'text')
    .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'integer')
    .execute()
  const columns = [
    'id',
    'inquiry_id',
    'message_id',
    'status',
    'attempts',
    'next_attempt_at',
    'last_error',
    'created_at',
    'sent_at',
    'failed_at',
    'mail_to',
    'resends',
    'lease_owner',
    'lease_until',
  ]
  await db.insertInto('outbox_rebuilt').columns(columns).expression(db.selectFrom('outbox').select(columns)).execute()
  await db.schema.dropTable('outbox').execute()
  await db.schema.alterTable('outbox_rebuilt').renameTo('outbox').execute()
}
