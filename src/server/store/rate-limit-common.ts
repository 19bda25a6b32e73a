// The part of a @fastify/rate-limit store that does not depend on where counters live: the callback protocol,
// keyed hashes instead of client addresses, and naming each limit the same way in every process.
import { createHmac } from 'node:crypto'

export interface Counter {
  current: number
  ttl: number
}
type Callback = (error: Error | null, result: Counter) => void

export interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number): void
  read(key: string, callback: Callback, timeWindow: number): void
  child(routeOptions: ChildOptions): RateLimitStore
}

export interface RateLimitStoreClass {
  new (options: unknown): RateLimitStore
}

interface ChildOptions {
  routeInfo?: { method?: string; url?: string }
  groupId?: string
  max?: unknown
  timeWindow?: unknown
}

/** Where the counters live. A row is { count, expires } (epoch ms); a window that has run out starts again at 1. */
export interface CounterBackend {
  incr(scope: string, key: string, now: number, windowMs: number): { count: number; expires: number } | Promise<{ count: number; expires: number }>
  read(scope: string, key: string, now: number): { count: number; expires: number } | undefined | Promise<{ count: number; expires: number } | undefined>
}

export function rateLimitStoreClass(backend: CounterBackend, secret: string): RateLimitStoreClass {
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
  return CounterStore
}
