// The console's inbox queries as raw SQL against a seeded store (`npm run seed`), to check the indexes apart from
// the HTTP layer: p50/p99 of each, and the plan of every query whose p99 is above the console's 50 ms.
//   npm exec -- node scripts/bench/console-sql.ts --data-dir DIR   SQLite (DATA_DIR by default)
//   DATABASE_URL=… npm exec -- node scripts/bench/console-sql.ts   PostgreSQL
// --runs N (default 200) per query, at most --budget S seconds per query (default 10); --explain for every plan.
import path from 'node:path'
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import pg from 'pg'
import { RARE } from '../seed-data.ts'
import { argsOf, percentile } from './harness.ts'

const args = argsOf(process.argv.slice(2))
const RUNS = Number(args.value('--runs') ?? 200)
const BUDGET_MS = Number(args.value('--budget') ?? 10) * 1000
const EXPLAIN_ALL = args.has('--explain')
const TARGET_MS = 50
const databaseUrl = process.env.DATABASE_URL || undefined
const dataDir = path.resolve(args.value('--data-dir') ?? process.env.DATA_DIR ?? './data')

// What a row of the inbox shows, with the state of the owner's mail.
const ROW = `i.id, i.domain, i.name, i.email, i.message, i.offer_amount, i.offer_currency, i.created_at, i.status, o.status AS mail`
const MAIL_JOIN = `LEFT JOIN outbox o ON o.inquiry_id = i.id AND o.reply_id IS NULL`
const NEWEST = `ORDER BY i.created_at DESC, i.id DESC LIMIT 51`

type Params = SQLInputValue[]
type Row = Record<string, unknown>
interface Query {
  sql: string
  params: Params
}

/** One connection: `all(sql, params)` with `?` placeholders, and the plan of a query as text. */
interface Connection {
  dialect: 'sqlite' | 'postgres'
  all(sql: string, params?: Params): Promise<Row[]>
  plan(sql: string, params: Params): Promise<string>
  close(): Promise<unknown>
}

async function connect(): Promise<Connection> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    const numbered = (sql: string) => {
      let n = 0
      return sql.replace(/\?/g, () => `$${++n}`)
    }
    return {
      dialect: 'postgres',
      all: async (sql, params = []) => (await client.query<Row>(numbered(sql), params)).rows,
      plan: async (sql, params) =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${numbered(sql)}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n'),
      close: () => client.end(),
    }
  }
  const db = new DatabaseSync(path.join(dataDir, 'domain-lander.sqlite'), { readOnly: true })
  const statements = new Map<string, StatementSync>()
  const prepared = (sql: string): StatementSync => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!
  return {
    dialect: 'sqlite',
    all: async (sql, params = []) => prepared(sql).all(...params) as Row[],
    plan: async (sql, params) =>
      (prepared(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { parent: number; detail: string }[])
        .map((r) => `${'  '.repeat(r.parent ? 1 : 0)}${r.detail}`)
        .join('\n'),
    close: async () => db.close(),
  }
}

const db = await connect()
const one = async (sql: string, params?: Params): Promise<Row> => (await db.all(sql, params))[0]!

/** The free-text condition for words that must all occur (as words or word starts), in this database's index. */
function text(words: string[]): { join: string; where: string; params: Params } {
  if (db.dialect === 'sqlite') {
    return { join: 'JOIN inquiries_fts f ON f.rowid = i.id', where: 'inquiries_fts MATCH ?', params: [words.map((w) => `"${w}"*`).join(' ')] }
  }
  return {
    join: '',
    where: `to_tsvector('simple', regexp_replace(i.name || ' ' || i.email || ' ' || i.message, '[^[:alnum:]]+', ' ', 'g')) @@ to_tsquery('simple', ?)`,
    params: [words.map((w) => `${w.toLowerCase()}:*`).join(' & ')],
  }
}

/** The inbox query for these filters, newest first. */
function inbox({
  domain,
  status,
  since,
  until,
  words,
  before,
}: {
  domain?: unknown
  status?: string
  since?: number
  until?: number
  words?: string[]
  before?: { createdAt: number; id: number }
}): Query {
  const where: string[] = []
  const params: Params = []
  let join = ''
  if (words) {
    const t = text(words)
    join = t.join
    where.push(t.where)
    params.push(...t.params)
  }
  const add = (condition: string, ...values: Params) => where.push(condition) && params.push(...values)
  if (domain) add('i.domain = ?', String(domain))
  if (status) add('i.status = ?', status)
  if (since !== undefined) add('i.created_at >= ?', since)
  if (until !== undefined) add('i.created_at < ?', until)
  if (before) add('(i.created_at, i.id) < (?, ?)', before.createdAt, before.id)
  const sql = `SELECT ${ROW} FROM inquiries i ${join} ${MAIL_JOIN} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ${NEWEST}`
  return { sql, params }
}

// What the seeded data holds, to pick filters of realistic selectivity.
const total = Number((await one('SELECT count(*) AS n FROM inquiries')).n)
const newest = Number((await one('SELECT max(created_at) AS t FROM inquiries')).t)
const byDomain = await db.all('SELECT domain, count(*) AS n FROM inquiries GROUP BY domain ORDER BY n DESC')
const bigDomain = byDomain[0]!.domain
const smallDomain = byDomain.at(-1)!.domain
const day = 86_400_000
const firstPage = await db.all(inbox({}).sql, inbox({}).params)
const pageTwo = { createdAt: Number(firstPage.at(-2)!.created_at), id: Number(firstPage.at(-2)!.id) }
const middle = await one(`SELECT created_at, id FROM inquiries ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${Math.floor(total / 2)}`)
const deep = { createdAt: Number(middle.created_at), id: Number(middle.id) }
const answered = await one(`SELECT id FROM inquiries WHERE status = 'answered' ORDER BY created_at DESC LIMIT 1 OFFSET 1000`)
const count = async (words: string[]) =>
  Number((await one(`SELECT count(*) AS n FROM inquiries i ${text(words).join} WHERE ${text(words).where}`, text(words).params)).n)

const thread = [
  `SELECT i.*, o.id AS mail_id, o.status AS mail, o.attempts, o.last_error, o.message_id FROM inquiries i ${MAIL_JOIN} WHERE i.id = ?`,
  `SELECT r.id, r.body, r.created_at, o.id AS mail_id, o.status, o.attempts, o.last_error, o.message_id FROM replies r LEFT JOIN outbox o ON o.reply_id = r.id WHERE r.inquiry_id = ? ORDER BY r.created_at, r.id`,
]
const rare = RARE[0]!
const cases: [string, Query][] = [
  ['first page', inbox({})],
  ['next page (cursor)', inbox({ before: pageTwo })],
  ['deep page (cursor at half)', inbox({ before: deep })],
  [`domain, most inquiries (${byDomain[0]!.n})`, inbox({ domain: bigDomain })],
  [`domain, fewest inquiries (${byDomain.at(-1)!.n})`, inbox({ domain: smallDomain })],
  ['status new', inbox({ status: 'new' })],
  ['status spam', inbox({ status: 'spam' })],
  ['last 7 days', inbox({ since: newest - 7 * day })],
  ['a month half a year ago', inbox({ since: newest - 200 * day, until: newest - 170 * day })],
  ['small domain + status archived', inbox({ domain: smallDomain, status: 'archived' })],
  ['big domain + month + new', inbox({ domain: bigDomain, status: 'new', since: newest - 200 * day, until: newest - 170 * day })],
  [`text: rare word "${rare}" (${await count([rare])})`, inbox({ words: [rare] })],
  [`text: common word "Interesse" (${await count(['Interesse'])})`, inbox({ words: ['Interesse'] })],
  [`text: very common "domain" (${await count(['domain'])})`, inbox({ words: ['domain'] })],
  [`text: name "Schneider" (${await count(['Schneider'])})`, inbox({ words: ['Schneider'] })],
  [`text: "anna schneider" (${await count(['anna', 'schneider'])})`, inbox({ words: ['anna', 'schneider'] })],
  [`text: prefix "gm" (${await count(['gm'])})`, inbox({ words: ['gm'] })],
  ['text: "Interesse" + small domain', inbox({ words: ['Interesse'], domain: smallDomain })],
  ['text: "Interesse" + next page', inbox({ words: ['Interesse'], before: pageTwo })],
  ['domains for the filter (DISTINCT)', { sql: 'SELECT DISTINCT domain FROM inquiries ORDER BY domain', params: [] }],
  ['inquiry page (inquiry + mail)', { sql: thread[0]!, params: [Number(answered.id)] }],
  ['inquiry page (replies + mail)', { sql: thread[1]!, params: [Number(answered.id)] }],
]

/** Runs the query until RUNS samples or the budget is spent (at least 20), after 3 unmeasured runs. */
async function measure({ sql, params }: Query) {
  for (let i = 0; i < 3; i++) await db.all(sql, params)
  const samples: number[] = []
  const started = performance.now()
  while (samples.length < RUNS && (samples.length < 20 || performance.now() - started < BUDGET_MS)) {
    const t = performance.now()
    await db.all(sql, params)
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => percentile(samples, q)
  return { runs: samples.length, p50: +at(0.5).toFixed(2), p99: +at(0.99).toFixed(2) }
}

console.log(`${db.dialect === 'sqlite' ? `SQLite ${dataDir}` : 'PostgreSQL'}: ${total.toLocaleString('en')} inquiries, ${byDomain.length} domains`)
const table: Record<string, Record<string, string | number>> = {}
const slow: [string, Query][] = []
for (const [name, query] of cases) {
  const result = await measure(query)
  table[name] = { 'p50 ms': result.p50, 'p99 ms': result.p99, runs: result.runs, [`p99 <= ${TARGET_MS} ms`]: result.p99 <= TARGET_MS ? 'yes' : 'NO' }
  if (result.p99 > TARGET_MS || EXPLAIN_ALL) slow.push([name, query])
}
console.table(table)
for (const [name, query] of slow) {
  console.log(`\n--- ${name}\n${query.sql.replace(/\s+/g, ' ')}\nparams ${JSON.stringify(query.params)}\n${await db.plan(query.sql, query.params)}`)
}
await db.close()
