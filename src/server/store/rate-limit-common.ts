// The part of the rate limits that does not depend on where counters live: the @fastify/rate-limit store (its
// callback protocol, naming each limit the same way in every process), the quota of accepted submissions, and
// keyed hashes instead of client addresses.
import { createHmac } from 'node:crypto'

interface Counter {
  current: number
  ttl: number
}
type Callback = (error: Error | null, result: Counter) => void

interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number): void
  read(key: string, callback: Callback, timeWindow: number): void
  child(routeOptions: ChildOptions): RateLimitStore
}

interface RateLimitStoreClass {
  new (options: unknown): RateLimitStore
}

interface ChildOptions {
  routeInfo?: { method?: string; url?: string }
  groupId?: string
  max?: unknown
  timeWindow?: unknown
}

type MaybePromise<T> = T | Promise<T>
interface Row {
  count: number
  expires: number
}

/** Where the counters live. A row is { count, expires } (epoch ms); a window that has run out starts again at 1. */
export interface CounterBackend {
  incr(scope: string, key: string, now: number, windowMs: number): MaybePromise<Row>
  read(scope: string, key: string, now: number): MaybePromise<Row | undefined>
  /**
   * Counts one more only while the count is below `max` (or the window has run out), in one statement, so that
   * requests arriving together cannot all pass the check before any of them is counted. Undefined when full.
   */
  take(scope: string, key: string, now: number, windowMs: number, max: number): MaybePromise<Row | undefined>
  /** Takes one back, but only from the window it was counted in (`expires` tells which). */
  giveBack(scope: string, key: string, expires: number): MaybePromise<void>
}

/** One counted use of a quota, to be given back when the request it was taken for created nothing. */
export type Taken = { status: 'taken'; giveBack(): Promise<void> } | { status: 'full'; retryAfterMs: number }

interface Quota {
  take(clientKey: string, max: number, windowMs: number): Promise<Taken>
}

export interface RateLimits {
  /** The store class @fastify/rate-limit instantiates (limits checked in a hook, counted whatever the outcome). */
  Store: RateLimitStoreClass
  /** Limits that count only what succeeded: take first, give back on failure. */
  quota(scope: string): Quota
  close(): unknown
}

export function createRateLimits(backend: CounterBackend, secret: string, close: () => unknown): RateLimits {
  const hashed = (key: string) => createHmac('sha256', secret).update(key).digest('base64url')
  // The backends may answer at once (SQLite) or later (PostgreSQL); the plugin gets a callback either way.
  const answer = (work: (now: number) => ReturnType<CounterBackend['read']>, callback: Callback) => {
    const now = Date.now()
    Promise.resolve(now)
      .then(work)
      .then(
        (row) => callback(null, row ? { current: row.count, ttl: row.expires - now } : { current: 0, ttl: 0 }),
        (error: Error) => callback(error, { current: 0, ttl: 0 }),
      )
  }

  class CounterStore implements RateLimitStore {
    readonly scope: string
    constructor(_options: unknown, scope = 'global') {
      this.scope = scope
    }
    incr(key: string, callback: Callback, timeWindow: number) {
      answer((now) => backend.incr(this.scope, hashed(key), now, timeWindow), callback)
    }
    read(key: string, callback: Callback) {
      answer((now) => backend.read(this.scope, hashed(key), now), callback)
    }
    child(routeOptions: ChildOptions) {
      // The same limit must get the same scope in every process: name it by its group, its route, or its figures.
      const route = routeOptions.routeInfo
      const scope = routeOptions.groupId
        ? `group ${routeOptions.groupId}`
        : route?.url
          ? `${route.method} ${route.url}`
          : `limit ${String(routeOptions.max)}/${String(routeOptions.timeWindow)}`
      return new CounterStore(undefined, scope)
    }
  }

  const quota = (scope: string): Quota => ({
    async take(clientKey, max, windowMs) {
      const key = hashed(clientKey)
      const now = Date.now()
      const row = await backend.take(scope, key, now, windowMs, max)
      if (row) return { status: 'taken', giveBack: async () => backend.giveBack(scope, key, row.expires) }
      const current = await backend.read(scope, key, now)
      return { status: 'full', retryAfterMs: current ? current.expires - now : windowMs }
    },
  })
  return { Store: CounterStore, quota, close }
}
