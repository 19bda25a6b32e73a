import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { sqliteRateLimitStore } from './sqlite-rate-limit.ts'

const dirs: string[] = []
afterEach(() => {
  vi.useRealTimers()
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }))
})

function open(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rate-'))) {
  dirs.push(dir)
  const { Store, close } = sqliteRateLimitStore(dir, 'secret-of-the-test')
  return { store: new Store({}).child({ routeInfo: { method: 'POST', url: '/x' } }), close, dir }
}

const incr = (store: ReturnType<typeof open>['store'], key: string, window: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (e, r) => (e ? reject(e) : resolve(r)), window))
const read = (store: ReturnType<typeof open>['store'], key: string, window: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => store.read(key, (e, r) => (e ? reject(e) : resolve(r)), window))

test('counts per key within the window, and reading does not count', async () => {
  const { store, close } = open()
  expect((await incr(store, '203.0.113.7', 60_000)).current).toBe(1)
  expect((await incr(store, '203.0.113.7', 60_000)).current).toBe(2)
  expect((await read(store, '203.0.113.7', 60_000)).current).toBe(2)
  expect((await incr(store, '198.51.100.1', 60_000)).current).toBe(1)
  const { ttl } = await read(store, '203.0.113.7', 60_000)
  expect(ttl).toBeGreaterThan(0)
  expect(ttl).toBeLessThanOrEqual(60_000)
  close()
})

test('a window that has run out starts again', async () => {
  // The store reads the time from Date.now(): the test moves that clock, instead of waiting and hoping.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 22, 12) })
  const { store, close } = open()
  expect((await incr(store, 'k', 20_000)).current).toBe(1)
  vi.advanceTimersByTime(19_999)
  expect((await incr(store, 'k', 20_000)).current).toBe(2)
  vi.advanceTimersByTime(1)
  expect(await read(store, 'k', 20_000)).toEqual({ current: 0, ttl: 0 })
  expect(await incr(store, 'k', 20_000)).toEqual({ current: 1, ttl: 20_000 })
  close()
})

test('two processes on one directory share the counts, and addresses are not written in the clear', async () => {
  const first = open()
  const second = open(first.dir)
  await incr(first.store, '203.0.113.7', 60_000)
  expect((await incr(second.store, '203.0.113.7', 60_000)).current).toBe(2)
  first.close()
  second.close()
  const bytes = fs
    .readdirSync(first.dir)
    .map((name) => fs.readFileSync(path.join(first.dir, name)).toString('latin1'))
    .join('')
  expect(bytes).not.toContain('203.0.113.7')
})
