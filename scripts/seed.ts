// `npm run seed -- --inquiries N [--domains N] [--data-dir DIR]`: fills an empty store with made-up inquiries for
// measuring (scripts/seed-data.ts says what they look like). SQLite in DATA_DIR (or --data-dir), PostgreSQL when
// DATABASE_URL is set. The store is opened through the server's own code first, so the schema is the migrated one;
// the rows then go in as raw multi-row inserts in large transactions, which is what makes a million take minutes.
// Writes DIR/domains.yaml with the seeded domains (for DOMAINS_FILE). Progress on stderr.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import pg from 'pg'
import { openStore, sqliteFileOf } from '../src/server/store/index.ts'
import { domainsFile, makeDomains, makeInquiries, makePageViews, type SeedDomain, type SeedInquiry } from './seed-data.ts'

const INQUIRY_COLUMNS = [
  'id',
  'token',
  'content_hash',
  'domain',
  'name',
  'email',
  'message',
  'spam_reason',
  'offer_amount',
  'offer_currency',
  'below_minimum',
  'created_at',
  'status',
]
const OUTBOX_COLUMNS = [
  'inquiry_id',
  'reply_id',
  'message_id',
  'status',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'sent_at',
  'failed_at',
  'mail_to',
]
const REPLY_COLUMNS = ['id', 'inquiry_id', 'body', 'reply_to', 'created_at']
const VIEW_COLUMNS = ['domain', 'day', 'views']
// PostgreSQL's types for its unnest() insert, one per column.
type Table = 'inquiries' | 'outbox' | 'replies' | 'page_views'
type Row = SQLInputValue[]
const PG_TYPES: Record<Table, string[]> = {
  inquiries: ['bigint', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'integer', 'text', 'integer', 'bigint', 'text'],
  outbox: ['bigint', 'bigint', 'text', 'text', 'integer', 'bigint', 'text', 'bigint', 'bigint', 'bigint', 'text'],
  replies: ['bigint', 'bigint', 'text', 'text', 'bigint'],
  page_views: ['text', 'text', 'bigint'],
}
const COLUMNS: Record<Table, string[]> = { inquiries: INQUIRY_COLUMNS, outbox: OUTBOX_COLUMNS, replies: REPLY_COLUMNS, page_views: VIEW_COLUMNS }
/** Rows per insert statement, and statements per transaction. */
const BATCH = 500
const BATCHES_PER_COMMIT = 100

function rowsOf(inquiry: SeedInquiry): Record<'inquiries' | 'outbox' | 'replies', Row[]> {
  const i = inquiry
  const rows: Record<'inquiries' | 'outbox' | 'replies', Row[]> = {
    inquiries: [
      [
        i.id,
        i.token,
        i.contentHash,
        i.domain,
        i.name,
        i.email,
        i.message,
        i.spamReason,
        i.offer,
        i.offer === null ? null : i.currency,
        i.belowMinimum ? 1 : 0,
        i.createdAt,
        i.status,
      ],
    ],
    outbox: [],
    replies: [],
  }
  if (i.mail) {
    const sentAt = i.mail.status === 'sent' ? i.createdAt + 2000 : null
    const failedAt = i.mail.status === 'failed' ? i.createdAt + 86_400_000 : null
    const attempts = i.mail.status === 'sent' ? 1 : i.mail.status === 'failed' ? 10 : 2
    rows.outbox.push([i.id, null, i.mail.messageId, i.mail.status, attempts, i.createdAt + 60_000, i.mail.error, i.createdAt, sentAt, failedAt, null])
  }
  if (i.reply) {
    // Reply ids follow inquiry ids: one reply at most per inquiry in a seeded store.
    const at = i.reply.createdAt
    rows.replies.push([i.id, i.id, i.reply.body, null, at])
    rows.outbox.push([i.id, i.id, `<reply-${i.id}@${i.domain}>`, 'sent', 1, at, null, at, at + 2000, null, i.email])
  }
  return rows
}

/** Where the rows go: SQLite or PostgreSQL, one transaction at a time. */
interface Writer {
  count(table: Table): Promise<number>
  begin(): Promise<unknown>
  commit(): Promise<unknown>
  insert(table: Table, rows: Row[]): Promise<void>
  finish(seedInfo: SeedInfo): Promise<void>
}

/** What a seeded store records about its seed (meta key "seed"). */
export interface SeedInfo {
  inquiries: number
  domains: number
  seededAt: number
}

/** Inserts through node:sqlite: one prepared multi-row statement per table and batch size. */
function sqliteWriter(file: string): Writer {
  const db = new DatabaseSync(file)
  // A seed that dies half-way is simply made again: no fsync per transaction.
  db.exec('PRAGMA synchronous = OFF')
  db.exec('PRAGMA cache_size = -200000')
  const statements = new Map<string, StatementSync>()
  const statement = (table: Table, rows: number): StatementSync => {
    const key = `${table}:${rows}`
    if (!statements.has(key)) {
      const one = `(${COLUMNS[table].map(() => '?').join(', ')})`
      statements.set(key, db.prepare(`INSERT INTO ${table} (${COLUMNS[table].join(', ')}) VALUES ${Array(rows).fill(one).join(', ')}`))
    }
    return statements.get(key)!
  }
  return {
    async count(table) {
      return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)
    },
    async begin() {
      db.exec('BEGIN')
    },
    async commit() {
      db.exec('COMMIT')
    },
    async insert(table, rows) {
      if (rows.length) statement(table, rows.length).run(...rows.flat())
    },
    async finish(seedInfo) {
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('seed', JSON.stringify(seedInfo))
      db.exec('ANALYZE')
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      db.close()
    },
  }
}

/** Inserts through pg: one parameter per column (an array), unnest() makes the rows. */
async function postgresWriter(databaseUrl: string): Promise<Writer> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  await client.query('SET synchronous_commit = off')
  return {
    async count(table) {
      return Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n)
    },
    begin: () => client.query('BEGIN'),
    commit: () => client.query('COMMIT'),
    async insert(table, rows) {
      if (!rows.length) return
      const columns = COLUMNS[table]
      const arrays = columns.map((_, c) => rows.map((row) => row[c]))
      const unnest = PG_TYPES[table].map((type, c) => `$${c + 1}::${type}[]`).join(', ')
      await client.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays)
    },
    async finish(seedInfo) {
      await client.query(`INSERT INTO meta (key, value) VALUES ('seed', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [JSON.stringify(seedInfo)])
      // The ids were given explicitly: the identities must continue after them.
      for (const table of ['inquiries', 'replies', 'outbox']) {
        await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`)
      }
      await client.query('VACUUM ANALYZE inquiries')
      await client.query('VACUUM ANALYZE outbox')
      await client.query('VACUUM ANALYZE replies')
      await client.query('VACUUM ANALYZE page_views')
      await client.end()
    },
  }
}

/** DIR/domains.yaml with the seed's domains (the same names for the same count): also for a database seeded before. */
export function writeDomainsFile(dataDir: string, count: number): SeedDomain[] {
  const domains = makeDomains(count)
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(path.join(dataDir, 'domains.yaml'), domainsFile(domains))
  return domains
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)

/**
 * Fills the (empty) store of `dataDir` or `databaseUrl` with `inquiries` inquiries over `domains` domains; refuses a
 * store that holds inquiries already, so it never mixes made-up rows into real ones.
 */
export async function seedStore({
  inquiries,
  domains: domainCount = 500,
  dataDir,
  databaseUrl,
  log = (line) => process.stderr.write(`${line}\n`),
}: {
  inquiries: number
  domains?: number
  dataDir: string
  databaseUrl?: string | undefined
  log?: (line: string) => unknown
}): Promise<SeedInfo> {
  const started = performance.now()
  const store = await openStore({ dataDir, databaseUrl })
  await store.close()
  const writer = databaseUrl ? await postgresWriter(databaseUrl) : sqliteWriter(sqliteFileOf({ dataDir }))
  const existing = await writer.count('inquiries')
  if (existing > 0) throw new Error(`the store already holds ${existing} inquiries: seed an empty one (a new --data-dir or database)`)
  const now = Date.now()
  const domains = writeDomainsFile(dataDir, domainCount)
  log(
    `seeding ${inquiries.toLocaleString('en')} inquiries over ${domains.length} domains into ${databaseUrl ? 'PostgreSQL' : `SQLite ${sqliteFileOf({ dataDir })}`} ...`,
  )

  const pending: Record<'inquiries' | 'outbox' | 'replies', Row[]> = { inquiries: [], outbox: [], replies: [] }
  let batches = 0
  const flush = async (table: 'inquiries' | 'outbox' | 'replies') => {
    await writer.insert(table, pending[table].splice(0))
    if (++batches % BATCHES_PER_COMMIT === 0) {
      await writer.commit()
      await writer.begin()
    }
  }
  let done = 0
  let lastReport = performance.now()
  await writer.begin()
  for (const inquiry of makeInquiries({ count: inquiries, domains, now })) {
    const rows = rowsOf(inquiry)
    for (const table of ['inquiries', 'replies', 'outbox'] as const) {
      pending[table].push(...rows[table])
      // Replies before the outbox rows that name them, inquiries before both.
      if (pending[table].length >= BATCH) {
        if (table !== 'inquiries') await flush('inquiries')
        if (table === 'outbox') await flush('replies')
        await flush(table)
      }
    }
    done++
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now()
      log(`  ${done.toLocaleString('en')} inquiries (${Math.round((100 * done) / inquiries)} %), ${seconds(started)} s`)
    }
  }
  for (const table of ['inquiries', 'replies', 'outbox'] as const) await flush(table)
  await writer.commit()
  log(`  inquiries, replies and outbox done in ${seconds(started)} s; page views ...`)
  await writer.begin()
  const views: Row[] = []
  for (const row of makePageViews({ domains, now })) {
    views.push([row.domain, row.day, row.views])
    if (views.length >= BATCH) await writer.insert('page_views', views.splice(0))
  }
  await writer.insert('page_views', views)
  await writer.commit()
  log(`  analysing ...`)
  const seedInfo = { inquiries, domains: domains.length, seededAt: now }
  await writer.finish(seedInfo)
  log(`seeded ${inquiries.toLocaleString('en')} inquiries in ${seconds(started)} s`)
  return seedInfo
}

/** What a seeded store says about its seed (meta key "seed"), or null for a store that was not seeded or is absent. */
export async function seedInfoOf({ dataDir, databaseUrl }: { dataDir: string; databaseUrl?: string | undefined }): Promise<SeedInfo | null> {
  try {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      try {
        const { rows } = await client.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'seed'`)
        return rows[0] ? JSON.parse(rows[0].value) : null
      } finally {
        await client.end()
      }
    }
    const file = sqliteFileOf({ dataDir })
    if (!fs.existsSync(file)) return null
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      const row = db.prepare(`SELECT value FROM meta WHERE key = 'seed'`).get() as { value: string } | undefined
      return row ? JSON.parse(row.value) : null
    } finally {
      db.close()
    }
  } catch {
    return null
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const value = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
  const count = (name: string, fallback: number) => {
    const text = value(name) ?? String(fallback)
    const n = Number(text.replace(/[_,]/g, ''))
    if (!Number.isInteger(n) || n < 1) {
      console.error(`${name} must be a whole number of at least 1, not ${JSON.stringify(text)}`)
      process.exit(2)
    }
    return n
  }
  const inquiries = count('--inquiries', 1_000_000)
  const domains = count('--domains', 500)
  const dataDir = path.resolve(value('--data-dir') ?? process.env.DATA_DIR ?? './data')
  try {
    await seedStore({ inquiries, domains, dataDir, databaseUrl: process.env.DATABASE_URL || undefined })
  } catch (error) {
    console.error(`seed: ${error instanceof Error ? error.stack : String(error)}`)
    process.exit(1)
  }
}
