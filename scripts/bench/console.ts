// `npm run bench -- --console`: the owner's console on a seeded store (a million inquiries unless --inquiries N):
// p50/p99 of the inbox's first page, each filter, the next page, free-text search and an inquiry's page, requested
// one at a time from the admin port of the built server, against the p99 <= 50 ms; and the console's JS
// size. SQLite by default; PostgreSQL with --postgres (a throw-away server, seeded each run) or when DATABASE_URL is
// set (seeded once, then reused). The SQLite seed is kept in the temporary directory and reused for the same size.
// --runs N requests per query (default 200), --only sqlite|postgres for one store, --json for JSON. scripts/bench/console-sql.ts measures the same
// queries as raw SQL. The page "Domains" is measured too, on a domains file of 100,000 names (--domains-names N) and
// an empty store; --only domains measures it alone (decision 044).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import zlib from 'node:zlib'
import pg from 'pg'
import { startPostgresServer } from '../../tests/helpers/postgres.ts'
import { build, root } from '../build-lib.ts'
import { domainsFileText } from '../domains-file.ts'
import { seedInfoOf, seedStore, writeDomainsFile } from '../seed.ts'
import { freePort, type StartedServer, startServer } from '../server-lib.ts'
import { argsOf, percentile, reporter, setOwnerPassword, signIn, startMailSink } from './harness.ts'

const TARGET_MS = 50
const PASSWORD = 'bench-console-password-0123'
const day = 86_400_000

/** Where the server keeps its data: DATA_DIR, and DATABASE_URL (empty: SQLite in DATA_DIR). */
interface StoreEnv {
  DATA_DIR: string
  DATABASE_URL: string
}
interface Figures {
  p50Ms: number
  p99Ms: number
  runs: number
}
type Log = (line: string) => void

/** The password is set before the server starts, with the CLI as an owner would. */
const setPassword = (storeEnv: StoreEnv) => setOwnerPassword(root, { ...storeEnv }, PASSWORD)

/** Picks filters of realistic selectivity from the seeded rows: the biggest and the smallest domain, the newest day. */
async function dataOf(storeEnv: StoreEnv) {
  const sql = {
    domains: 'SELECT domain, count(*) AS n FROM inquiries GROUP BY domain ORDER BY n DESC',
    newest: 'SELECT max(created_at) AS t FROM inquiries',
    answered: `SELECT id FROM inquiries WHERE status = 'answered' ORDER BY created_at DESC LIMIT 1 OFFSET 1000`,
  }
  type Rows = { domains: { domain: string; n: number }[]; newest: { t: number }[]; answered: { id: number }[] }
  let rows: Rows
  if (storeEnv.DATABASE_URL) {
    const client = new pg.Client({ connectionString: storeEnv.DATABASE_URL })
    await client.connect()
    rows = Object.fromEntries(await Promise.all(Object.entries(sql).map(async ([k, q]) => [k, (await client.query(q)).rows]))) as Rows
    await client.end()
  } else {
    const db = new DatabaseSync(path.join(storeEnv.DATA_DIR, 'domain-lander.sqlite'), { readOnly: true })
    rows = Object.fromEntries(Object.entries(sql).map(([k, q]) => [k, db.prepare(q).all()])) as unknown as Rows
    db.close()
  }
  const berlinDay = (t: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(t)
  const newest = Number(rows.newest[0]!.t)
  return {
    bigDomain: rows.domains[0]!.domain,
    smallDomain: rows.domains.at(-1)!.domain,
    lastWeek: { since: berlinDay(newest - 6 * day), until: berlinDay(newest) },
    monthAgo: { since: berlinDay(newest - 200 * day), until: berlinDay(newest - 170 * day) },
    inquiryId: Number(rows.answered[0]!.id),
  }
}

/** `runs` requests one after another (after 3 unmeasured ones): p50 and p99 of the time to the whole body. */
async function measure(url: string, cookie: string, runs: number): Promise<Figures> {
  const once = async () => {
    const started = performance.now()
    const response = await fetch(url, { headers: { cookie } })
    const body = await response.text()
    if (!response.ok) throw new Error(`${new URL(url).pathname}${new URL(url).search} answered ${response.status}: ${body.slice(0, 200)}`)
    return { ms: performance.now() - started, body }
  }
  for (let i = 0; i < 3; i++) await once()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) samples.push((await once()).ms)
  samples.sort((a, b) => a - b)
  const at = (q: number) => +percentile(samples, q).toFixed(1)
  return { p50Ms: at(0.5), p99Ms: at(0.99), runs }
}

async function measureQueries(adminUrl: string, cookie: string, data: Awaited<ReturnType<typeof dataOf>>, runs: number, log: Log) {
  const inbox = (query: Record<string, string>) => `${adminUrl}/api/inbox?${new URLSearchParams(query)}`
  const first = JSON.parse(await (await fetch(inbox({}), { headers: { cookie } })).text()) as { next: string }
  const queries = {
    'first inbox page': inbox({}),
    'next page (cursor)': inbox({ cursor: first.next }),
    'domain, most inquiries': inbox({ domain: data.bigDomain }),
    'domain, fewest inquiries': inbox({ domain: data.smallDomain }),
    'status Neu': inbox({ status: 'new' }),
    'status Spam': inbox({ status: 'spam' }),
    'last 7 days': inbox(data.lastWeek),
    'a month half a year ago': inbox(data.monthAgo),
    'search: rare word': inbox({ q: 'Zeppelinwerft' }),
    'search: common word': inbox({ q: 'Interesse' }),
    'search: a name': inbox({ q: 'Schneider' }),
    'search: a word start': inbox({ q: 'Schn*' }),
    'search: common word + small domain': inbox({ q: 'Interesse', domain: data.smallDomain }),
    "an inquiry's page": `${adminUrl}/api/inquiries/${data.inquiryId}`,
  }
  const results: Record<string, Figures> = {}
  for (const [name, url] of Object.entries(queries)) {
    log(`  ${name} ...`)
    results[name] = await measure(url, cookie, runs)
  }
  return results
}

/**
 * The console's scripts as shipped (dist/console/assets), gzip level 9: the entry every page loads (named by
 * index.html) against the target, and the chunks fetched later (the Übersicht's charts) beside it.
 */
function consoleScriptSize() {
  const assets = path.join(root, 'dist/console/assets')
  if (!fs.existsSync(assets)) return 'dist/console/assets is absent (the console is not built yet): no size'
  const entry = /assets\/(console-[\w-]+\.js)/.exec(fs.readFileSync(path.join(root, 'dist/console/index.html'), 'utf8'))?.[1]
  const names = fs.readdirSync(assets).filter((name) => name.endsWith('.js'))
  const scripts = names.map((name) => fs.readFileSync(path.join(assets, name)))
  const kb = (bytes: number) => +(bytes / 1024).toFixed(1)
  const gzip = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length
  const entryScript = scripts[names.indexOf(entry ?? '')]
  return {
    files: scripts.length,
    entryGzipKB: entryScript ? kb(gzip(entryScript)) : null,
    rawKB: kb(scripts.reduce((s, b) => s + b.length, 0)),
    gzipKB: kb(scripts.reduce((s, b) => s + gzip(b), 0)),
  }
}

/** Seeds the store unless it already holds a seed of this size. */
async function ensureSeeded(storeEnv: StoreEnv, inquiries: number, log: Log) {
  const info = await seedInfoOf({ dataDir: storeEnv.DATA_DIR, databaseUrl: storeEnv.DATABASE_URL || undefined })
  if (info?.inquiries === inquiries) {
    // A database given by DATABASE_URL was seeded with another DATA_DIR: its domains file is written anew.
    if (!fs.existsSync(path.join(storeEnv.DATA_DIR, 'domains.yaml'))) writeDomainsFile(storeEnv.DATA_DIR, info.domains)
    return log(`reusing the seeded store (${inquiries.toLocaleString('en')} inquiries, seeded ${new Date(info.seededAt).toISOString()})`)
  }
  if (info && storeEnv.DATABASE_URL) throw new Error(`DATABASE_URL holds a seed of ${info.inquiries} inquiries, not ${inquiries}: use an empty database`)
  if (!storeEnv.DATABASE_URL) fs.rmSync(storeEnv.DATA_DIR, { recursive: true, force: true })
  await seedStore({ inquiries, dataDir: storeEnv.DATA_DIR, databaseUrl: storeEnv.DATABASE_URL || undefined, log })
}

async function benchStore(
  label: string,
  storeEnv: StoreEnv,
  { inquiries, runs, log }: { inquiries: number; runs: number; log: Log },
): Promise<Record<string, Figures> | string> {
  await ensureSeeded(storeEnv, inquiries, log)
  const data = await dataOf(storeEnv)
  try {
    setPassword(storeEnv)
  } catch (error) {
    return `${label}: ${(error as Error).message}: no HTTP figures (scripts/bench/console-sql.ts measures the queries as SQL)`
  }
  const sink = await startMailSink()
  const adminPort = await freePort()
  let server: StartedServer | undefined
  try {
    server = await startServer(await freePort(), {
      ...storeEnv,
      ADMIN_PORT: String(adminPort),
      ADMIN_HOST: '127.0.0.1',
      DOMAINS_FILE: path.join(storeEnv.DATA_DIR, 'domains.yaml'),
      SMTP_URL: sink.url,
      MAIL_TO: 'owner@example.org',
      MAIL_FROM: 'lander@example.org',
    })
    const adminUrl = `http://127.0.0.1:${adminPort}`
    log(`${label}: signing in and measuring ${runs} requests per query ...`)
    return await measureQueries(adminUrl, await signIn(adminUrl, PASSWORD), data, runs, log)
  } catch (error) {
    return `${label}: ${(error as Error).message}: no HTTP figures`
  } finally {
    await server?.stop()
    await sink.close()
  }
}

/**
 * The page "Domains" at `names` names (decision 044): its list's first page, a page deep in it, searches that match
 * many names, few and none, and the whole HTML page, from the built server with an empty store.
 */
async function benchDomainsPage({ names, runs, log }: { names: number; runs: number; log: Log }): Promise<Record<string, Figures> | string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-domains-page-'))
  const domainsFile = path.join(dataDir, 'domains.json')
  fs.writeFileSync(domainsFile, domainsFileText('json', { domains: names }))
  const storeEnv: StoreEnv = { DATA_DIR: dataDir, DATABASE_URL: '' }
  const adminPort = await freePort()
  let server: StartedServer | undefined
  try {
    setPassword(storeEnv)
    server = await startServer(await freePort(), {
      ...storeEnv,
      ADMIN_PORT: String(adminPort),
      ADMIN_HOST: '127.0.0.1',
      DOMAINS_FILE: domainsFile,
      MAIL_TO: 'owner@example.org',
      MAIL_FROM: 'lander@example.org',
    })
    const adminUrl = `http://127.0.0.1:${adminPort}`
    const cookie = await signIn(adminUrl, PASSWORD)
    const list = (query: Record<string, string>) => `${adminUrl}/api/domains?${new URLSearchParams(query)}`
    const queries = {
      'Domains: first page': list({}),
      'Domains: page at the middle': list({ offset: String(Math.floor(names / 2)) }),
      'Domains: search, many matches': list({ q: 'shop' }),
      'Domains: search, many matches, a late page': list({ q: '.de', offset: '5000' }),
      'Domains: search, few matches': list({ q: 'bücher' }),
      'Domains: search, no match': list({ q: 'zeppelinwerft' }),
      'Domains: the HTML page': `${adminUrl}/domains`,
    }
    log(`Domains page: ${names.toLocaleString('en')} names, ${runs} requests per query ...`)
    const results: Record<string, Figures> = {}
    for (const [name, url] of Object.entries(queries)) results[name] = await measure(url, cookie, runs)
    return results
  } catch (error) {
    return `Domains page: ${(error as Error).message}: no figures`
  } finally {
    await server?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchConsole(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const asJson = args.asJson
  const value = args.number
  const inquiries = value('--inquiries', 1_000_000)
  const runs = value('--runs', 200)
  const { log } = reporter(asJson, 'stderr')
  await build()
  const results: {
    inquiries: number
    consoleScripts: ReturnType<typeof consoleScriptSize>
    domainsPage?: Record<string, Figures> | string
    sqlite?: Record<string, Figures> | string
    postgres?: Record<string, Figures> | string
  } = { inquiries, consoleScripts: consoleScriptSize() }
  const dataDir = path.join(os.tmpdir(), `domain-lander-bench-console-${inquiries}`)
  const only = args.value('--only')
  results.domainsPage = await benchDomainsPage({ names: value('--domains-names', 100_000), runs, log })
  // DATABASE_URL of the environment (the PostgreSQL run's) must not reach the SQLite server: empty means unset.
  if (only !== 'postgres' && only !== 'domains') results.sqlite = await benchStore('SQLite', { DATA_DIR: dataDir, DATABASE_URL: '' }, { inquiries, runs, log })
  if (only !== 'sqlite' && only !== 'domains' && process.env.DATABASE_URL) {
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-pg-'))
    results.postgres = await benchStore('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: process.env.DATABASE_URL }, { inquiries, runs, log })
    fs.rmSync(pgDir, { recursive: true, force: true })
  } else if (only !== 'sqlite' && only !== 'domains' && args.has('--postgres')) {
    log('PostgreSQL: starting a throw-away server (it is seeded afresh) ...')
    const server = await startPostgresServer()
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-pg-'))
    try {
      results.postgres = await benchStore('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: server.adminUrl }, { inquiries, runs, log })
    } finally {
      await server.stop()
      fs.rmSync(pgDir, { recursive: true, force: true })
    }
  }
  if (asJson) return console.log(JSON.stringify(results, null, 2))
  for (const store of ['sqlite', 'postgres', 'domainsPage'] as const) {
    const r = results[store]
    if (r === undefined) continue
    if (typeof r === 'string') {
      console.log(r)
      continue
    }
    console.log(
      store === 'domainsPage'
        ? `Domains page, ${value('--domains-names', 100_000).toLocaleString('en')} names:`
        : `${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${inquiries.toLocaleString('en')} inquiries:`,
    )
    console.table(
      Object.fromEntries(
        Object.entries(r).map(([name, m]) => [name, { 'p50 ms': m.p50Ms, 'p99 ms': m.p99Ms, [`p99 <= ${TARGET_MS} ms`]: m.p99Ms <= TARGET_MS ? 'yes' : 'NO' }]),
      ),
    )
  }
  const js = results.consoleScripts
  console.log(
    typeof js === 'string'
      ? js
      : `console JS: the entry every page loads ${js.entryGzipKB} KB gzip (target <= 120 KB gzip); ${js.files} files in all, ${js.rawKB} KB raw / ${js.gzipKB} KB gzip`,
  )
}
