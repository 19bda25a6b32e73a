// Visits, visitors, sources, languages and turns to the form per name and Berlin day, counted on the server from the
// requests the browser makes anyway (decision 049): no cookie, no beacon, no address stored. Counted in memory and
// written in batches, so GET / never waits for the store; every structure is bounded, because the Host, the Referer
// and the address are anybody's choice. A request is only noted on the answer's path (its address, headers and time);
// what it counts as is worked out after the answer has been written, for all requests noted meanwhile at once
// (issue 22/27: the page's path does no work for statistics). A kill -9 loses what was noted and not yet flushed: at
// most FLUSH_MS of visits.
//
// A visitor is a hash of the day's random salt, the client's key (its address, or its IPv6 network, as the rate limits
// count it) and the name counted: the salt lives in the store for that Berlin day (the same in every process) and is
// erased when the day is over, together with the day's hashes, which then become a mere count. The User-Agent is left
// out: it is the client's to choose, and one address rotating it must not count as many visitors.
import { hash as digest, randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { clientKeyOfAddress } from '../http/client-address.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store, VisitCount, VisitMetric, VisitorHash } from '../store/types.ts'
import { berlinDayOf } from '../lib/berlin-visit-day.ts'
import { filterReason, languageOf, type FilterReason } from './rules.ts'
import { sourceOf } from './sources.ts'

export interface VisitCounter {
  /** A request of `host`'s page (its ASCII name): a visit, or counted as the reason it is none. */
  page(request: FastifyRequest, host: string): void
  /** The form's script fetched for `host`'s page: the visitor turned to the form. */
  formTurn(request: FastifyRequest, host: string): void
  flush(): Promise<void>
  /** Resolves once today's salt is read (or failed to be: visits then count without visitors until a flush reads it). */
  saltRead(): Promise<void>
  close(): Promise<void>
  /** How much each bounded structure holds (for the tests that spray it). */
  sizes(): Record<string, number>
}

const FLUSH_MS = 10_000
/** A second load of the page by the same client within this time is a repeat, not a visit. */
export const REPEAT_WINDOW_MS = 30 * 60_000
/** Distinct names a process counts a day under their own name; beyond, "andere". */
export const MAX_NAMES_PER_DAY = 10_000
/** Distinct rows (name, metric, key) a process counts a day; beyond, the name's row becomes "andere". */
const MAX_KEYS_PER_DAY = 50_000
/** Distinct sources and languages of one name a day; beyond, "other". */
export const MAX_KEYS_PER_NAME = 40
/** Visitor hashes a process sends to the store a day (rows at most); beyond, visits still count but no new visitor. */
export const MAX_VISITORS_PER_DAY = 50_000
/** Clients remembered for the repeat check, the most recent ones. */
export const MAX_RECENT_CLIENTS = 20_000
/** What may wait in memory for the store: a day's rows twice over (the day changes while a flush is pending). */
export const MAX_PENDING = 2 * (MAX_KEYS_PER_DAY + 64)
export const OTHER_NAMES = 'andere'
/** Page requests noted and not yet counted; one more (a flood in one turn of the event loop) counts them at once. */
const MAX_NOTED = 1000

/** What a page request leaves on the answer's path: everything counting it needs, read while the request is there. */
interface NotedPage {
  time: number
  method: string
  headers: IncomingHttpHeaders
  ip: string
  ref: string | undefined
  host: string
}

/** The entry of the domains file that shows `ascii`: itself, or its wildcard; none for a host it does not list. */
function listedName(domains: DomainRegistry, ascii: string): string | undefined {
  const resolved = domains.current().resolve(ascii)
  return resolved?.known ? (resolved.wildcard ?? ascii) : undefined
}

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

export function createVisitCounter(
  store: Pick<Store, 'visitSalt' | 'settleVisitDays' | 'addVisitCounts' | 'addVisitorHashes'>,
  log: FastifyBaseLogger,
  options: { domains?: DomainRegistry; now?: () => number; flushMs?: number; ipv6Prefix?: number } = {},
): VisitCounter {
  const { domains, now = Date.now, flushMs = FLUSH_MS, ipv6Prefix = 64 } = options
  const clientKey = clientKeyOfAddress(ipv6Prefix)
  let pending = new Map<string, number>()
  let pendingHashes = new Map<string, VisitorHash>()
  let droppedCounts = 0
  let droppedVisitors = 0
  // The day's state, renewed when the Berlin day changes.
  let day = ''
  let dayEndsAt = 0
  let checkAfter = 0
  let settledDay = ''
  let namesToday = new Set<string>()
  let keysToday = new Set<string>()
  let keysPerName = new Map<string, number>()
  let visitorsSent = 0
  let formsToday = new Set<string>()
  // Clients seen lately (hash → time), for the repeat check: the newer generation and the one before.
  let recent = new Map<string, number>()
  let older = new Map<string, number>()
  // The salts of today and tomorrow (made ahead, so the first visit after midnight finds its salt).
  const salts = new Map<string, string>()

  const renewDay = (time: number) => {
    if (time < checkAfter) return
    const found = berlinDayOf(time)
    if (found.day !== day) {
      day = found.day
      dayEndsAt = found.endsAt
      namesToday = new Set()
      keysToday = new Set()
      keysPerName = new Map()
      visitorsSent = 0
      droppedVisitors = 0
      formsToday = new Set()
      // Yesterday's hashes and salt are no use today and must not outlive the day.
      recent = new Map()
      older = new Map()
      for (const saltDay of salts.keys()) if (saltDay < day) salts.delete(saltDay)
    }
    // The day changes rarely: checked once a minute, and exactly at its end.
    checkAfter = Math.min(time + 60_000, dayEndsAt)
  }

  const nameOf = (host: string) => {
    let name = domains?.fromFile ? (listedName(domains, host) ?? OTHER_NAMES) : host
    if (name !== OTHER_NAMES && !namesToday.has(name)) {
      if (namesToday.size < MAX_NAMES_PER_DAY) namesToday.add(name)
      else name = OTHER_NAMES
    }
    return name
  }

  const addPending = (id: string, count: number) => {
    const known = pending.get(id)
    if (known === undefined && pending.size >= MAX_PENDING) {
      if (droppedCounts === 0) log.error({ waiting: pending.size }, 'visit counts dropped: too many wait for the store to be written')
      droppedCounts += count
      return
    }
    pending.set(id, (known ?? 0) + count)
  }

  const add = (name: string, metric: VisitMetric, key: string) => {
    let id = `${day}\t${name}\t${metric}\t${key}`
    if (!keysToday.has(id)) {
      if (metric === 'source' || metric === 'language') {
        const used = keysPerName.get(name) ?? 0
        if (used >= MAX_KEYS_PER_NAME) id = `${day}\t${name}\t${metric}\tother`
        else keysPerName.set(name, used + 1)
      }
      if (!keysToday.has(id)) {
        if (keysToday.size < MAX_KEYS_PER_DAY) keysToday.add(id)
        else id = `${day}\t${OTHER_NAMES}\t${metric}\t${metric === 'filtered' ? key : metric === 'source' || metric === 'language' ? 'other' : ''}`
      }
    }
    addPending(id, 1)
  }

  /** The client's hash for today and `name`, or undefined before today's salt has been read from the store. */
  const clientHash = (ip: string, name: string) => {
    const salt = salts.get(day)
    if (salt === undefined) return undefined
    return digest('sha256', `${salt}\n${clientKey(ip)}\n${name}`, 'base64url').slice(0, 22)
  }

  const filtered = (name: string, reason: FilterReason) => add(name, 'filtered', reason)

  const loadSalt = async (saltDay: string) => {
    if (!salts.has(saltDay)) salts.set(saltDay, await store.visitSalt(saltDay, randomBytes(32).toString('base64url')))
  }
  const loadSalts = async () => {
    const today = berlinDayOf(now())
    await loadSalt(today.day)
    await loadSalt(today.next)
    if (settledDay !== today.day) {
      await store.settleVisitDays(today.day)
      settledDay = today.day
    }
  }

  /** A page request, counted. */
  const count = ({ time, method, headers, ip, ref, host }: NotedPage) => {
    renewDay(time)
    const name = nameOf(host)
    const reason = filterReason(method, headers)
    if (reason !== null) return filtered(name, reason)
    const hash = clientHash(ip, name)
    if (hash !== undefined) {
      // From the last load that counted: a reload every 20 minutes is a visit every 40.
      const seen = recent.get(hash) ?? older.get(hash)
      if (seen !== undefined && time - seen < REPEAT_WINDOW_MS) return filtered(name, 'repeat')
      // Two generations: when the newer is full, the older goes as a whole. Deleting the oldest entries one by
      // one would leave a Map's iteration to step over every deleted one.
      if (recent.size >= MAX_RECENT_CLIENTS / 2) {
        older = recent
        recent = new Map()
      }
      recent.set(hash, time)
      // Sent again when the same visitor comes back after the repeat window: the store keeps a hash once.
      if (visitorsSent < MAX_VISITORS_PER_DAY) {
        visitorsSent++
        if (pendingHashes.size < MAX_VISITORS_PER_DAY) pendingHashes.set(`${day}\t${name}\t${hash}`, { day, domain: name, hash })
      } else if (droppedVisitors++ === 0) log.warn({ day }, "visitors beyond the day's limit are counted as visits only")
    }
    add(name, 'visit', '')
    add(name, 'source', sourceOf(firstOf(headers.referer), ref, host))
    add(name, 'language', languageOf(headers['accept-language']!))
  }

  let noted: NotedPage[] = []
  let countScheduled = false
  /** Counts what was noted; run once the answers of the moment are written, and before anything reads the counts. */
  const countNoted = () => {
    const batch = noted
    noted = []
    for (const page of batch) count(page)
  }

  const countScheduledNotes = () => {
    countScheduled = false
    countNoted()
  }

  // Today's salt alone is what the first page needs (app.ts waits for it before listening): tomorrow's and the
  // settling of past days follow in the first flush, each a write the start would otherwise wait for too.
  const todaysSalt = loadSalt(berlinDayOf(now()).day).catch((error: unknown) => log.warn({ err: error }, 'visitor salt not read, will try again'))
  let flushing: Promise<void> = todaysSalt
  const flushOnce = async () => {
    countNoted()
    try {
      await loadSalts()
    } catch (error) {
      log.warn({ err: error }, 'visitor salt not read, will try again')
    }
    if (pending.size > 0) {
      const batch = pending
      pending = new Map()
      const rows = [...batch].map(([id, count]): VisitCount => {
        const [rowDay, domain, metric, key] = id.split('\t') as [string, string, VisitMetric, string]
        return { day: rowDay, domain, metric, key, count }
      })
      try {
        await store.addVisitCounts(rows)
        if (droppedCounts > 0) log.warn({ dropped: droppedCounts }, 'visit counts written again; some were dropped while the store could not be written')
        droppedCounts = 0
      } catch (error) {
        // Counts are not worth a failed page; keep them for the next flush (as many as fit).
        for (const [id, count] of batch) addPending(id, count)
        log.warn({ err: error }, 'visit counts not written, will try again')
      }
    }
    if (pendingHashes.size > 0) {
      const batch = pendingHashes
      pendingHashes = new Map()
      try {
        await store.addVisitorHashes([...batch.values()])
      } catch (error) {
        for (const [id, row] of batch) if (pendingHashes.size < MAX_VISITORS_PER_DAY) pendingHashes.set(id, row)
        log.warn({ err: error }, 'visitors not written, will try again')
      }
    }
  }
  const flush = () => (flushing = flushing.then(flushOnce))
  void flush()
  const timer = setInterval(() => void flush(), flushMs)
  timer.unref()

  return {
    page(request, host) {
      if (noted.length >= MAX_NOTED) countNoted()
      const query = request.query as Record<string, string | string[] | undefined> | undefined
      noted.push({
        time: now(),
        method: request.method,
        headers: request.headers,
        ip: request.ip ?? '',
        ref: firstOf(query?.ref) ?? firstOf(query?.utm_source),
        host,
      })
      if (!countScheduled) {
        countScheduled = true
        // One run per turn of the loop, also when something counted the notes early meanwhile.
        setImmediate(countScheduledNotes)
      }
    },
    formTurn(request, host) {
      countNoted()
      renewDay(now())
      if (filterReason(request.method, request.headers) !== null) return
      const name = nameOf(host)
      const hash = clientHash(request.ip ?? '', name)
      if (hash === undefined) return
      const id = `${name}\t${hash}`
      if (formsToday.has(id) || formsToday.size >= MAX_VISITORS_PER_DAY) return
      formsToday.add(id)
      add(name, 'form', '')
    },
    flush,
    saltRead: () => todaysSalt,
    async close() {
      clearInterval(timer)
      await flush()
    },
    sizes: () => ({
      noted: noted.length,
      pending: pending.size,
      pendingHashes: pendingHashes.size,
      names: namesToday.size,
      keys: keysToday.size,
      keysPerName: keysPerName.size,
      visitors: visitorsSent,
      forms: formsToday.size,
      recent: recent.size + older.size,
      salts: salts.size,
    }),
  }
}
