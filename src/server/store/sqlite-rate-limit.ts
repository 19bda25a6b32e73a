// A store for @fastify/rate-limit in a small SQLite file of its own, so that every server process on the same
// DATA_DIR (WORKERS > 1) counts against the same limits, and a restart does not reset them.
// Counters need no durability: the file is written without fsync. Client addresses are kept only as keyed hashes.
import { createHmac } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'

interface Counter {
  current: number
  ttl: number
}
type Callback = (error: Error | null, result: Counter) => void

interface Shared {
  db: DatabaseSync
  incr: StatementSync
  read: StatementSync
  purge: StatementSync
  secret: string
  calls: number
}

export interface RateLimitStoreClass {
  new (options: unknown): RateLimitStore
}

export interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number): void
  read(key: string, callback: Callback, timeWindow: number): void
  child(routeOptions: ChildOptions): RateLimitStore
}

interface ChildOptions {
  routeInfo?: { method?: string; url?: string }
  groupId?: string
  max?: unknown
  timeWindow?: unknown
}

/** Opens (or creates) DATA_DIR/rate-limits.sqlite and returns the store class the plugin instantiates. */
export function sqliteRateLimitStore(dataDir: string, secret: string): { Store: RateLimitStoreClass; close(): void } {
  const file = path.join(dataDir, 'rate-limits.sqlite')
  fs.mkdirSync(dataDir, { recursive: true })
  const db = new DatabaseSync(file, { timeout: 2000 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = OFF')
  db.exec(`CREATE TABLE IF NOT EXISTS counters (
    scope TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, window_start INTEGER NOT NULL, expires INTEGER NOT NULL,
    PRIMARY KEY (scope, key)) WITHOUT ROWID`)
  const shared: Shared = {
    db,
    secret,
    calls: 0,
    // A window that has run out starts again at 1; otherwise the count goes up.
    incr: db.prepare(
      `INSERT INTO counters (scope, key, count, window_start, expires) VALUES (:scope, :key, 1, :now, :now + :window)
       ON CONFLICT (scope, key) DO UPDATE SET
         count = CASE WHEN expires <= :now THEN 1 ELSE count + 1 END,
         window_start = CASE WHEN expires <= :now THEN :now ELSE window_start END,
         expires = CASE WHEN expires <= :now THEN :now + :window ELSE expires END
       RETURNING count, expires`,
    ),
    read: db.prepare('SELECT count, expires FROM counters WHERE scope = ? AND key = ? AND expires > ?'),
    purge: db.prepare('DELETE FROM counters WHERE expires <= ?'),
  }

  shared.purge.run(Date.now())

  class SqliteStore implements RateLimitStore {
    readonly scope: string
    constructor(_options: unknown, scope = 'global') {
      this.scope = scope
    }
    private hashed(key: string) {
      return createHmac('sha256', shared.secret).update(key).digest('base64url')
    }
    incr(key: string, callback: Callback, timeWindow: number) {
      try {
        const now = Date.now()
        // Now and then, forget counters whose window has run out.
        if (++shared.calls % 1000 === 0) shared.purge.run(now)
        const row = shared.incr.get({ scope: this.scope, key: this.hashed(key), now, window: timeWindow }) as { count: number; expires: number }
        callback(null, { current: row.count, ttl: row.expires - now })
      } catch (error) {
        callback(error as Error, { current: 0, ttl: 0 })
      }
    }
    read(key: string, callback: Callback) {
      try {
        const now = Date.now()
        const row = shared.read.get(this.scope, this.hashed(key), now) as { count: number; expires: number } | undefined
        callback(null, row ? { current: row.count, ttl: row.expires - now } : { current: 0, ttl: 0 })
      } catch (error) {
        callback(error as Error, { current: 0, ttl: 0 })
      }
    }
    child(routeOptions: ChildOptions) {
      // The same limit must get the same scope in every process: name it by its group, its route, or its figures.
      const route = routeOptions.routeInfo
      const scope = routeOptions.groupId
        ? `group ${routeOptions.groupId}`
        : route?.url
          ? `${route.method} ${route.url}`
          : `limit ${String(routeOptions.max)}/${String(routeOptions.timeWindow)}`
      return new SqliteStore(undefined, scope)
    }
  }
  return { Store: SqliteStore, close: () => db.isOpen && db.close() }
}
