import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { expect, test, vi } from 'vitest'
import { openTestStore } from '../../../tests/helpers/store.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store, VisitCount } from '../store/types.ts'
import {
  createVisitCounter,
  MAX_KEYS_PER_NAME,
  MAX_NAMES_PER_DAY,
  MAX_PENDING,
  MAX_RECENT_CLIENTS,
  MAX_VISITORS_PER_DAY,
  OTHER_NAMES,
  REPEAT_WINDOW_MS,
} from './counter.ts'
import { visitorStats } from './report.ts'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'

/** A request of the page as Fastify hands it to the route: a browser's headers unless told otherwise. */
function visit(overrides: { ip?: string; userAgent?: string; method?: string; headers?: Record<string, string>; query?: Record<string, string> } = {}) {
  return {
    method: overrides.method ?? 'GET',
    ip: overrides.ip ?? '203.0.113.7',
    query: overrides.query ?? {},
    headers: {
      'user-agent': overrides.userAgent ?? CHROME,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
      ...overrides.headers,
    },
  } as unknown as FastifyRequest
}

/** The script request of the form as the browser makes it. */
const formRequest = (ip = '203.0.113.7', userAgent = CHROME) =>
  ({
    method: 'GET',
    ip,
    query: {},
    headers: { 'user-agent': userAgent, accept: '*/*', 'accept-language': 'de-DE,de;q=0.9', referer: 'https://example.de/' },
  }) as unknown as FastifyRequest

function quietLog() {
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() }
  return log as typeof log & FastifyBaseLogger
}

/** 12:00 in Berlin on 22 November 2026 (CET, UTC+1). */
const NOON = Date.UTC(2026, 10, 22, 11)
/** 23:59 and 00:01 in Berlin around the midnight that starts 23 November: still 22 November in UTC. */
const BEFORE_MIDNIGHT = Date.UTC(2026, 10, 22, 22, 59)
const AFTER_MIDNIGHT = Date.UTC(2026, 10, 22, 23, 1)

async function counterOn(store: Store, clock: { time: number }, options: { domains?: DomainRegistry } = {}) {
  const counter = createVisitCounter(store, quietLog(), { now: () => clock.time, ...options })
  // The day's salt is read first, as a server does right after it starts.
  await counter.flush()
  return counter
}

/** The stored counts as "day domain metric key" → count. */
async function countsOf(store: Store, sinceDay = '2026-01-01') {
  const rows: VisitCount[] = await store.visitCounts({ sinceDay })
  return Object.fromEntries(rows.map((row) => [`${row.day} ${row.domain} ${row.metric} ${row.key}`.trimEnd(), row.count]))
}

test("a browser's GET is a visit with its visitor, source and language; bots, HEAD, prefetch and bare requests are counted apart", async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const counter = await counterOn(store, clock)
  counter.page(visit({ headers: { referer: 'https://sedo.com/search/details/?domain=example.de' } }), 'example.de')
  counter.page(visit({ ip: '198.51.100.2', userAgent: FIREFOX, headers: { 'accept-language': 'en-US,en;q=0.9' } }), 'example.de')
  counter.page(visit({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }), 'example.de')
  counter.page(visit({ method: 'HEAD', ip: '198.51.100.9' }), 'example.de')
  counter.page(visit({ ip: '198.51.100.10', headers: { 'sec-purpose': 'prefetch;prerender' } }), 'example.de')
  counter.page({ method: 'GET', ip: '198.51.100.11', query: {}, headers: { 'user-agent': CHROME } } as unknown as FastifyRequest, 'example.de')
  await counter.close()
  expect(await countsOf(store)).toEqual({
    '2026-11-22 example.de visit': 2,
    '2026-11-22 example.de visitor': 2,
    '2026-11-22 example.de source market:sedo': 1,
    '2026-11-22 example.de source direct': 1,
    '2026-11-22 example.de language de': 1,
    '2026-11-22 example.de language en': 1,
    '2026-11-22 example.de filtered bot': 1,
    '2026-11-22 example.de filtered head': 1,
    '2026-11-22 example.de filtered prefetch': 1,
    '2026-11-22 example.de filtered headers': 1,
  })
})

test('a page request is only noted while it is answered, counted once the event loop turns, from what it carried then', async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const counter = await counterOn(store, clock)
  const request = visit({ ip: '198.51.100.7' })
  counter.page(request, 'example.de')
  expect(counter.sizes()).toMatchObject({ noted: 1, pending: 0, visitors: 0 })
  // What changes after the answer (the socket gone, the clock on) does not change what it counts as.
  Object.defineProperty(request, 'ip', { value: undefined })
  clock.time += 2 * REPEAT_WINDOW_MS
  await new Promise((resolve) => setImmediate(resolve))
  expect(counter.sizes()).toMatchObject({ noted: 0, visitors: 1 })
  counter.page(visit({ ip: '198.51.100.7' }), 'example.de')
  await counter.close()
  // The second load came two repeat windows after the first, which counts by the time it was noted: a visit again,
  // of the same client (the address it came from, not the one its request object says now): one client remembered.
  expect(await countsOf(store)).toMatchObject({ '2026-11-22 example.de visit': 2 })
  expect(counter.sizes().recent).toBe(1)
})

test('a second load by the same client within the window is a repeat; after it, a visit of the same visitor', async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const counter = await counterOn(store, clock)
  counter.page(visit(), 'example.de')
  clock.time += 60_000
  counter.page(visit(), 'example.de')
  // The same address with another browser is the same client.
  counter.page(visit({ userAgent: FIREFOX }), 'example.de')
  clock.time += REPEAT_WINDOW_MS
  counter.page(visit({ query: { utm_source: 'newsletter' } }), 'example.de')
  await counter.close()
  expect(await countsOf(store)).toEqual({
    '2026-11-22 example.de visit': 2,
    '2026-11-22 example.de visitor': 1,
    '2026-11-22 example.de filtered repeat': 2,
    '2026-11-22 example.de source direct': 1,
    '2026-11-22 example.de source ref:newsletter': 1,
    '2026-11-22 example.de language de': 2,
  })
})

/** 300 browsers' User-Agents, each a different build: what a script rotating them sends. */
const rotatingAgents = Array.from(
  { length: 300 },
  (_, i) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (i % 40)}.0.${i}.0 Safari/537.36`,
)

test('one address is one visitor a day per name whatever User-Agent it sends, an IPv6 network as one address; another address is another', async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const counter = await counterOn(store, clock)
  // A load a minute for five hours, from one address and from one IPv6 network: a visit every half hour, one visitor.
  for (const [i, userAgent] of rotatingAgents.entries()) {
    clock.time = NOON + i * 60_000
    counter.page(visit({ userAgent }), 'example.de')
    counter.page(visit({ ip: `2001:db8:7:1::${(i + 1).toString(16)}`, userAgent }), 'example.de')
    counter.formTurn(formRequest('203.0.113.7', userAgent), 'example.de')
  }
  counter.page(visit({ ip: '198.51.100.2', userAgent: FIREFOX }), 'example.de')
  counter.page(visit({ ip: '2001:db8:7:2::1' }), 'example.de')
  // The same address on another name is a visitor of that name.
  counter.page(visit(), 'zweite.example')
  await counter.close()
  const counts = await countsOf(store)
  expect([counts['2026-11-22 example.de visitor'], counts['2026-11-22 example.de form'], counts['2026-11-22 zweite.example visitor']]).toEqual([4, 1, 1])
  expect([counts['2026-11-22 example.de visit'], counts['2026-11-22 example.de filtered repeat']]).toEqual([22, 580])
  // No visitor count that would make the Übersicht hint at a price too high or an unclear page.
  const stats = await visitorStats(
    { store, domains: { current: () => domainsConfigOf({ domains: { 'example.de': null, 'zweite.example': null } }), fromFile: true } },
    { days: 7, now: clock.time },
  )
  expect(stats.names.find((name) => name.domainAscii === 'example.de')!.visitors).toBe(4)
  expect(stats.hints.filter((hint) => hint.kind === 'no-inquiries')).toEqual([])
})

test("the same client before and after midnight in Berlin is two visitors of two days, and the past day's salt and hashes are erased", async () => {
  const store = await openTestStore()
  const clock = { time: BEFORE_MIDNIGHT }
  const counter = await counterOn(store, clock)
  counter.page(visit(), 'example.de')
  await counter.flush()
  const saltBefore = await store.visitSalt('2026-11-22', 'a candidate that must not win')
  expect(saltBefore).not.toBe('a candidate that must not win')
  // Made ahead: the first visit after midnight finds its salt.
  const saltAfter = await store.visitSalt('2026-11-23', 'a candidate that must not win')
  expect(saltAfter).not.toBe(saltBefore)

  clock.time = AFTER_MIDNIGHT
  counter.page(visit(), 'example.de')
  await counter.flush()
  expect(await countsOf(store)).toEqual({
    '2026-11-22 example.de visit': 1,
    '2026-11-22 example.de visitor': 1,
    '2026-11-22 example.de source direct': 1,
    '2026-11-22 example.de language de': 1,
    '2026-11-23 example.de visit': 1,
    '2026-11-23 example.de visitor': 1,
    '2026-11-23 example.de source direct': 1,
    '2026-11-23 example.de language de': 1,
  })
  // 22 November's salt is gone: asked for it, the store takes a new candidate.
  expect(await store.visitSalt('2026-11-22', 'new')).toBe('new')
  await store.settleVisitDays('2026-11-23')
  // Its hashes became a count: what the store keeps of 22 November is counts only.
  expect(counter.sizes().salts).toBe(2)
  await counter.close()
})

test("several processes share the day's salt, so one visitor is one whichever answered", async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const first = await counterOn(store, clock)
  const second = await counterOn(store, clock)
  first.page(visit(), 'example.de')
  second.page(visit(), 'example.de')
  await first.close()
  await second.close()
  const counts = await countsOf(store)
  expect(counts['2026-11-22 example.de visitor']).toBe(1)
})

test('a turn to the form is counted once per visitor and day; bots and HEAD never', async () => {
  const store = await openTestStore()
  const clock = { time: NOON }
  const counter = await counterOn(store, clock)
  counter.formTurn(formRequest(), 'example.de')
  counter.formTurn(formRequest(), 'example.de')
  counter.formTurn(formRequest('198.51.100.2'), 'example.de')
  counter.formTurn(formRequest('198.51.100.3', 'curl/8.5.0'), 'example.de')
  counter.formTurn({ ...formRequest('198.51.100.4'), method: 'HEAD' } as FastifyRequest, 'example.de')
  await counter.close()
  expect(await countsOf(store)).toEqual({ '2026-11-22 example.de form': 2 })
})

test('with a domains file, only listed names count by name, a wildcard name as its entry, others as "andere"', async () => {
  const store = await openTestStore()
  const domainsConfig = domainsConfigOf({ domains: { 'example.de': null, '*.example-parked.de': null } })
  const domains: DomainRegistry = { current: () => domainsConfig, fromFile: true, reload: async () => {}, close: () => {} }
  const counter = await counterOn(store, { time: NOON }, { domains })
  for (const [i, name] of ['example.de', 'a.example-parked.de', 'b.example-parked.de', 'unlisted.de'].entries()) {
    counter.page(visit({ ip: `198.51.100.${i}` }), name)
  }
  await counter.close()
  const counts = await countsOf(store)
  expect([counts['2026-11-22 example.de visit'], counts['2026-11-22 *.example-parked.de visit'], counts[`2026-11-22 ${OTHER_NAMES} visit`]]).toEqual([1, 2, 1])
})

test('a spray of hosts, addresses, Referers and languages leaves memory and rows bounded', async () => {
  const store = await openTestStore()
  const counter = await counterOn(store, { time: NOON })
  const SPRAY = MAX_NAMES_PER_DAY + 2000
  for (let i = 0; i < SPRAY; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    const headers = {
      referer: `https://s${i}.example.org/`,
      'accept-language': `x${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i >> 5) % 26))}`,
    }
    counter.page(visit({ ip, headers }), `n${i}.example.de`)
    // And the same, many times, on one name.
    counter.page(visit({ ip: `${ip}0`, headers }), 'one.example.de')
  }
  const sizes = counter.sizes()
  expect(sizes.names).toBeLessThanOrEqual(MAX_NAMES_PER_DAY)
  expect(sizes.pending).toBeLessThanOrEqual(MAX_PENDING)
  expect(sizes.recent).toBeLessThanOrEqual(MAX_RECENT_CLIENTS)
  expect(sizes.visitors).toBeLessThanOrEqual(MAX_VISITORS_PER_DAY)
  await counter.close()
  const rows = await store.visitCounts({ sinceDay: '2026-11-22' })
  const one = rows.filter((row) => row.domain === 'one.example.de')
  // One name's sources and languages: at most the cap, and the rest as "other".
  expect(one.filter((row) => row.metric === 'source' || row.metric === 'language').length).toBeLessThanOrEqual(MAX_KEYS_PER_NAME + 2)
  expect(one.find((row) => row.metric === 'visit')!.count).toBe(SPRAY)
  expect(one.find((row) => row.metric === 'source' && row.key === 'other')!.count).toBeGreaterThan(0)
  expect(new Set(rows.map((row) => row.domain)).size).toBe(MAX_NAMES_PER_DAY + 1)
  expect(rows.filter((row) => row.metric === 'visit').reduce((sum, row) => sum + row.count, 0)).toBe(2 * SPRAY)
}, 120_000)

test('while the store cannot be written, what waits in memory is capped, logged once, and written once it can', async () => {
  const store = await openTestStore()
  const log = quietLog()
  const clock = { time: NOON }
  let failing = false
  const failingStore = new Proxy(store, {
    get: (target, key: keyof Store) =>
      (key === 'addVisitCounts' || key === 'addVisitorHashes') && failing ? () => Promise.reject(new Error('database or disk is full')) : target[key],
  })
  const counter = createVisitCounter(failingStore, log, { now: () => clock.time })
  await counter.flush()
  failing = true
  counter.page(visit(), 'example.de')
  await counter.flush()
  expect(log.warn).toHaveBeenCalledWith(expect.anything(), 'visit counts not written, will try again')
  failing = false
  await counter.close()
  expect((await countsOf(store))['2026-11-22 example.de visit']).toBe(1)
  expect((await countsOf(store))['2026-11-22 example.de visitor']).toBe(1)
})
