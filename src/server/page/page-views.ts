// Page views per domain and day, counted in memory and written in batches: GET / never waits for the disk, and
// nothing about the visitor (no cookie, no address) is kept, only a number per domain and day.
//
// The name counted comes from the Host header, which anybody can choose; so what is counted is bounded: with a
// domains file only the names it lists (a name shown through a wildcard entry counts as that entry, "*.example.de"),
// and at most MAX_NAMES_PER_DAY names a day per process; everything beyond counts as OTHER_NAMES.
import { dayOf } from '../lib/utc-day.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store } from '../store/types.ts'

export interface PageViewCounter {
  count(domain: string): void
  flush(): Promise<void>
  close(): Promise<void>
}

const FLUSH_MS = 10_000
/** Distinct names a process counts a day under their own name. */
export const MAX_NAMES_PER_DAY = 10_000
/** The row that takes every view beyond the limits above ("other" in German, as the rest of the owner's texts). */
export const OTHER_NAMES = 'andere'
/**
 * What may wait in memory for the store: a day's names twice over (the day changes while a flush is pending).
 * Only a store that cannot be written for long (a full disk) ever gets there; the views beyond are dropped.
 */
export const MAX_PENDING = 2 * (MAX_NAMES_PER_DAY + 1)


/** The entry of the domains file that shows `ascii`: itself, or its wildcard; none for a host it does not list. */
function listedName(domains: DomainRegistry, ascii: string): string | undefined {
  const resolved = domains.current().resolve(ascii)
  return resolved?.known ? (resolved.wildcard ?? ascii) : undefined
}

export function createPageViewCounter(
  store: Store,
  log: FastifyBaseLogger,
  options: { domains?: DomainRegistry; now?: () => number } = {},
): PageViewCounter {
  const { domains, now = Date.now } = options
  let pending = new Map<string, number>()
  let day = ''
  let dayValidUntil = 0
  // The names counted today under their own name; at most MAX_NAMES_PER_DAY.
  let namesToday = new Set<string>()
  let droppedViews = 0

  /** Adds views to what waits for the store, unless that is full: then they are dropped (and that is logged once). */
  const add = (key: string, views: number) => {
    const known = pending.get(key)
    if (known === undefined && pending.size >= MAX_PENDING) {
      if (droppedViews === 0) log.error({ waiting: pending.size }, 'page views dropped: too many wait for the store to be written')
      droppedViews += views
      return
    }
    pending.set(key, (known ?? 0) + views)
  }

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
      if (droppedViews > 0) log.warn({ dropped: droppedViews }, 'page views written again; some were dropped while the store could not be written')
      droppedViews = 0
    } catch (error) {
      // Counts are not worth a failed page; keep them for the next flush (as many as fit).
      for (const [key, views] of batch) add(key, views)
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
        const today = dayOf(time)
        if (today !== day) namesToday = new Set()
        day = today
        dayValidUntil = Math.min(time + 60_000, Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000)
      }
      let name = domains?.fromFile ? (listedName(domains, domain) ?? OTHER_NAMES) : domain
      if (name !== OTHER_NAMES && !namesToday.has(name)) {
        if (namesToday.size < MAX_NAMES_PER_DAY) namesToday.add(name)
        else name = OTHER_NAMES
      }
      add(`${day} ${name}`, 1)
    },
    flush,
    async close() {
      clearInterval(timer)
      await flush()
    },
  }
}
