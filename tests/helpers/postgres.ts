// A real PostgreSQL server for the tests of the PostgreSQL store: Debian's binaries, a throw-away cluster in a
// temporary directory, listening on a free loopback port. Each test's DATA_DIR gets a database of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { freePort } from '../../scripts/server-lib.ts'
import { pgTypes } from '../../src/server/store/postgres-common.ts'
import { whenLogSays } from './process-log.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set when this test project runs against PostgreSQL: a superuser URL of the test server. */
    pgAdminUrl: string | undefined
  }
}

/** Where Debian puts the server's programs (they are not on PATH). */
function postgresBinDir(): string | undefined {
  if (process.env.POSTGRES_PATH) return path.dirname(process.env.POSTGRES_PATH)
  const root = '/usr/lib/postgresql'
  if (!fs.existsSync(root)) return undefined
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
  versions.sort((a, b) => Number(b) - Number(a))
  return versions[0] && path.join(root, versions[0], 'bin')
}

export interface PostgresServer {
  adminUrl: string
  stop(): Promise<void>
}

/**
 * initdb + postgres as the `postgres` user when running as root (the server refuses to run as root). fsync is
 * off: the tests kill our server, never this one, so its own durability is not under test.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (the tests of the PostgreSQL store need it)')
  const asRoot = process.getuid?.() === 0
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-pg-'))
  fs.chmodSync(dir, 0o755)
  const dataDir = path.join(dir, 'data')
  const socketDir = path.join(dir, 'socket')
  fs.mkdirSync(socketDir)
  if (asRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir])
  const run = (program: string, args: string[]) => (asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args]) as [string, string[]]
  const init = spawnSync(...run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']), {
    encoding: 'utf8',
  })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const port = await freePort()
  const settings = [
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    'max_connections=300',
    'listen_addresses=127.0.0.1',
    `unix_socket_directories=${socketDir}`,
    `port=${port}`,
  ]
  const child: ChildProcess = spawn(...run(path.join(bin, 'postgres'), ['-D', dataDir, ...settings.flatMap((s) => ['-c', s])]), {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  child.stderr!.on('data', (chunk) => (log += chunk))
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`
  // Its own line says it takes connections (it writes it once its sockets listen); one connection then proves it.
  await whenLogSays(
    child,
    () => log,
    (text) => (text.includes('database system is ready to accept connections') ? true : undefined),
    // A deadline that bounds the wait for that line (a server that hangs): it never decides when the server is up.
    { ms: 30_000, message: 'PostgreSQL did not start' },
  )
  const client = new pg.Client({ connectionString: adminUrl })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(`PostgreSQL did not take a connection: ${(error as Error).message}\n${log}`, { cause: error })
  } finally {
    await client.end().catch(() => {})
  }
  return {
    adminUrl,
    async stop() {
      // pg_ctl waits until the server is down; signalling runuser's child directly does not always reach it.
      spawnSync(...run(path.join(bin, 'pg_ctl'), ['-D', dataDir, 'stop', '-m', 'immediate', '-w', '-t', '10']), { stdio: 'ignore' })
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGKILL')
        // A deadline that bounds the wait for its exit (it was killed; stop() should not hang on it).
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
      }
      child.stderr?.destroy()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** True in the test project that runs against PostgreSQL. */
export const onPostgres = () => inject('pgAdminUrl') !== undefined

/**
 * The database the global setup migrates once (global-setup-postgres.ts); every test's database is a copy of it, as
 * a fresh store is after it has opened. No session ever connects to it: CREATE DATABASE … TEMPLATE refuses a
 * template anyone is connected to, so it is closed to connections once migrated.
 */
export const TEMPLATE_DATABASE = 'lander_template'

/** The URL of database `name` on the test server, as the superuser. */
export function pgDatabaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.href
}

/** Runs `sql` as the superuser on the server's maintenance database. */
export async function pgAdminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** This test file's databases by DATA_DIR: the name, and its URL once made. */
const databases = new Map<string, { name: string; url: Promise<string> }>()

/**
 * The DATABASE_URL for a test's DATA_DIR on PostgreSQL (undefined on SQLite): a database of its own, the same one
 * for the same DATA_DIR, so that a restarted server finds its data again. It starts as a copy of the migrated
 * template, so a store opened on it has no step left to run; `empty` gives an empty database instead, for a test
 * that builds an earlier program's schema or migrates from nothing (the first call for a DATA_DIR decides).
 */
export async function databaseUrlFor(dataDir: string, { empty = false } = {}): Promise<string | undefined> {
  const adminUrl = inject('pgAdminUrl')
  if (!adminUrl) return undefined
  let database = databases.get(dataDir)
  if (!database) {
    const name = `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`
    const url = (async () => {
      try {
        await pgAdminQuery(adminUrl, empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`)
      } catch (error) {
        // Made already for this DATA_DIR, which is no error: 42P04 duplicate_database, or 23505 when two sessions
        // made it at the same moment.
        if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error
      }
      return pgDatabaseUrl(adminUrl, name)
    })()
    database = { name, url }
    databases.set(dataDir, database)
  }
  return database.url
}

/**
 * Drops this file's databases once its tests are done (setup-postgres.ts): each is a copy of the whole catalog
 * (about 9 MB), too much to keep for every test of a run. One still in use (a process left running) is left for
 * the server's removal at the end of the run; nobody is cut off.
 */
export async function dropTestDatabases(): Promise<void> {
  const adminUrl = inject('pgAdminUrl')
  if (!adminUrl || databases.size === 0) return
  const made = [...databases.values()]
  databases.clear()
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    for (const { name, url } of made) {
      const exists = await url.then(
        () => true,
        () => false,
      )
      if (exists) await client.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => {})
    }
  } finally {
    await client.end()
  }
}

/** The store's variables for a test's DATA_DIR: DATABASE_URL on PostgreSQL, and a short mail lease there. */
export async function storeEnv(dataDir: string, options: { empty?: boolean } = {}): Promise<Record<string, string>> {
  const databaseUrl = await databaseUrlFor(dataDir, options)
  // A process killed mid-send keeps its lease until it runs out; the tests should not wait two minutes for that.
  return databaseUrl ? { DATABASE_URL: databaseUrl, MAIL_LEASE_SECONDS: '3' } : {}
}

/** Runs SQL against the test's store (SQLite file or PostgreSQL database); `?` placeholders work for both. */
export async function queryStore<R = Record<string, unknown>>(dataDir: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const databaseUrl = await databaseUrlFor(dataDir)
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl, types: pgTypes })
    await client.connect()
    try {
      let n = 0
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as R[]
    } finally {
      await client.end()
    }
  }
  const { DatabaseSync } = await import('node:sqlite')
  // The server process writes to the same file: wait for its lock as the server's own connections do, rather than
  // fail with "database is locked" (seen once under the whole suite's load).
  const db = new DatabaseSync(path.join(dataDir, 'domain-lander.sqlite'), { timeout: 5_000 })
  try {
    const statement = db.prepare(sql)
    return (/^\s*(SELECT|WITH|PRAGMA)/i.test(sql) ? statement.all(...(params as never[])) : (statement.run(...(params as never[])), [])) as R[]
  } finally {
    db.close()
  }
}
