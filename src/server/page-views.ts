// Page views per domain and day, counted in memory and written in batches: GET / never waits for the disk, and
// nothing about the visitor (no cookie, no address) is kept, only a number per domain and day.
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from './store/types.ts'

export interface PageViewCounter {
  count(domain: string): void
  flush(): Promise<void>
  close(): Promise<void>
}

const FLUSH_MS = 10_000

/** UTC day of a time, YYYY-MM-DD. */
export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)

export function createPageViewCounter(store: Store, log: FastifyBaseLogger, now = Date.now): PageViewCounter {
  let pending = new Map<string, number>()
  let day = ''
  let dayValidUntil = 0
  const flush = async () => {
    if (pending.size === 0) return
    const batch = pending
    pending = new Map()
    const rows = [...batch].map(([key, views]) => {
      const [day, domain] = [key.slice(0, 10), key.slice(11)]
      return { domain, day, views }
    })
    try {
      await store.addPageViews(rows)
    } catch (error) {
      // Counts are not worth a failed page; keep them for the next flush.
      for (const [key, views] of batch) pending.set(key, (pending.get(key) ?? 0) + views)
      log.warn({ err: error }, 'page views not written, will try again')
    }
  }
  const timer = setInterval(() => void flush(), FLUSH_MS)
  timer.unref()
  return {
    count(domain) {
      // The day changes rarely; work it out once a minute rather than for every view.
      const time = now()
      if (time >= dayValidUntil) {
        day = dayOf(time)
        dayValidUntil = Math.min(time + 60_000, Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000)
      }
      const key = `${day} ${domain}`
      pending.set(key, (pending.get(key) ?? 0) + 1)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
