import type { FastifyBaseLogger } from 'fastify'
import { expect, test, vi } from 'vitest'
import type { DomainRegistry } from '../sites/registry.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { createPageViewCounter, MAX_NAMES_PER_DAY, MAX_PENDING, OTHER_NAMES } from './page-views.ts'
import type { Store } from '../store/types.ts'

type Row = { domain: string; day: string; views: number }

/** A store that keeps the rows in a map, and can be told to fail like a full disk. */
function fakeStore() {
  const rows = new Map<string, number>()
  const state = { failing: false }
  const store = {
    async addPageViews(batch: Row[]) {
      if (state.failing) throw new Error('database or disk is full')
      for (const row of batch) rows.set(`${row.day} ${row.domain}`, (rows.get(`${row.day} ${row.domain}`) ?? 0) + row.views)
    },
  } as unknown as Store
  return { store, rows, state }
}

function fakeLog() {
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() }
  return log as typeof log & FastifyBaseLogger
}

const registry = (domains: Record<string, object | null>): DomainRegistry => {
  const domainsConfig = domainsConfigOf({ domains })
  return { current: () => domainsConfig, fromFile: true, reload: async () => {}, close: () => {} }
}

const DAY = Date.UTC(2026, 10, 22, 12)

test('without a domains file, 10,000 names a day are counted by name and every other as "andere"', async () => {
  const { store, rows } = fakeStore()
  let time = DAY
  const counter = createPageViewCounter(store, fakeLog(), { now: () => time })
  for (let i = 0; i < MAX_NAMES_PER_DAY + 500; i++) counter.count(`n${i}.example.de`)
  counter.count('n0.example.de')
  await counter.flush()
  expect(rows.size).toBe(MAX_NAMES_PER_DAY + 1)
  expect(rows.get(`2026-11-22 ${OTHER_NAMES}`)).toBe(500)
  expect(rows.get('2026-11-22 n0.example.de')).toBe(2)

  // The next day starts afresh.
  time = DAY + 24 * 60 * 60 * 1000
  counter.count(`n${MAX_NAMES_PER_DAY + 1}.example.de`)
  await counter.close()
  expect(rows.get(`2026-11-23 n${MAX_NAMES_PER_DAY + 1}.example.de`)).toBe(1)
})

test('with a domains file, only listed names count by name, a wildcard name as its entry, others as "andere"', async () => {
  const { store, rows } = fakeStore()
  const counter = createPageViewCounter(store, fakeLog(), {
    now: () => DAY,
    domains: registry({ 'example.de': null, '*.example-parked.de': null }),
  })
  for (const name of ['example.de', 'a.example-parked.de', 'b.example-parked.de', 'unlisted.de', 'other.example.org', 'example.de']) {
    counter.count(name)
  }
  await counter.close()
  expect(Object.fromEntries(rows)).toEqual({
    '2026-11-22 example.de': 2,
    '2026-11-22 *.example-parked.de': 2,
    [`2026-11-22 ${OTHER_NAMES}`]: 2,
  })
})

test('while the store cannot be written, what waits in memory is capped and the views beyond are dropped, logged once', async () => {
  const { store, rows, state } = fakeStore()
  const log = fakeLog()
  let time = DAY
  const counter = createPageViewCounter(store, log, { now: () => time })
  state.failing = true
  // Three days of a full disk, each with a spray of names.
  for (let day = 0; day < 3; day++) {
    time = DAY + day * 24 * 60 * 60 * 1000
    for (let i = 0; i < MAX_NAMES_PER_DAY + 10; i++) counter.count(`d${day}n${i}.example.de`)
    await counter.flush()
  }
  expect(log.error).toHaveBeenCalledTimes(1)
  expect(log.error.mock.calls[0]![1]).toMatch(/page views dropped/)

  state.failing = false
  await counter.flush()
  expect(rows.size).toBe(MAX_PENDING)
  expect(log.warn).toHaveBeenLastCalledWith({ dropped: expect.any(Number) }, expect.stringMatching(/some were dropped/))
  // Written again, a new episode is logged again.
  state.failing = true
  for (let day = 3; day < 6; day++) {
    time = DAY + day * 24 * 60 * 60 * 1000
    for (let i = 0; i < MAX_NAMES_PER_DAY + 10; i++) counter.count(`d${day}n${i}.example.de`)
    await counter.flush()
  }
  expect(log.error).toHaveBeenCalledTimes(2)
  await counter.close().catch(() => {})
})
