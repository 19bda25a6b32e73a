// The sign-in part of the store's contract, on the store of the test project (SQLite, or PostgreSQL in the project
// "postgres"). Two store objects on the same data stand for two server processes.
import { expect, test } from 'vitest'
import { openTestStore as open, testStoreConfig } from '../../../tests/helpers/store.ts'

const HOUR = 60 * 60 * 1000
const IDLE = 12 * HOUR
const MAX = 7 * 24 * HOUR
const T0 = Date.UTC(2026, 0, 1)

test('no password is set at first; a password set by one process is the one the other reads', async () => {
  const config = await testStoreConfig('sessions-')
  const [a, b] = [await open(config), await open(config)]
  expect(await a.ownerPassword()).toBeNull()
  await a.setOwnerPassword('scrypt$first', T0)
  expect(await b.ownerPassword()).toBe('scrypt$first')
  await b.setOwnerPassword('scrypt$second', T0)
  expect(await a.ownerPassword()).toBe('scrypt$second')
})

test('a session is valid in every process until it is deleted; an unknown one never is', async () => {
  const config = await testStoreConfig('sessions-')
  const [a, b] = [await open(config), await open(config)]
  await a.createSession('hash-1', T0)
  expect(await b.useSession('hash-1', T0 + 1000, IDLE, MAX)).toBe(true)
  expect(await b.useSession('hash-unknown', T0 + 1000, IDLE, MAX)).toBe(false)
  await b.deleteSession('hash-1')
  expect(await a.useSession('hash-1', T0 + 2000, IDLE, MAX)).toBe(false)
})

test('a session idle for 12 hours has expired and is gone; using it keeps it alive', async () => {
  const store = await open(await testStoreConfig('sessions-'))
  await store.createSession('kept', T0)
  await store.createSession('idle', T0)
  // Used every 11 hours: idle never 12 hours in a row.
  for (let t = T0 + 11 * HOUR; t < T0 + 60 * HOUR; t += 11 * HOUR) expect(await store.useSession('kept', t, IDLE, MAX)).toBe(true)
  expect(await store.useSession('idle', T0 + IDLE, IDLE, MAX)).toBe(false)
  // Gone, not only refused: a later clock does not bring it back.
  expect(await store.useSession('idle', T0 + 1000, IDLE, MAX)).toBe(false)
})

test('a session ends 7 days after sign-in however often it is used', async () => {
  const store = await open(await testStoreConfig('sessions-'))
  await store.createSession('busy', T0)
  let t = T0
  for (; t < T0 + MAX - HOUR; t += 10 * HOUR) expect(await store.useSession('busy', t, IDLE, MAX)).toBe(true)
  expect(await store.useSession('busy', T0 + MAX, IDLE, MAX)).toBe(false)
  expect(await store.useSession('busy', T0 + MAX - HOUR, IDLE, MAX)).toBe(false)
})

test('a use within a minute of the last one is not written, so idle expiry counts from the last written use', async () => {
  const store = await open(await testStoreConfig('sessions-'))
  await store.createSession('s', T0)
  expect(await store.useSession('s', T0 + 30_000, IDLE, MAX)).toBe(true)
  // Not written: idle is still counted from T0.
  expect(await store.useSession('s', T0 + IDLE, IDLE, MAX)).toBe(false)
  await store.createSession('t', T0)
  expect(await store.useSession('t', T0 + 120_000, IDLE, MAX)).toBe(true)
  expect(await store.useSession('t', T0 + 120_000 + IDLE - 1, IDLE, MAX)).toBe(true)
})

test('a new password ends every session', async () => {
  const config = await testStoreConfig('sessions-')
  const [a, b] = [await open(config), await open(config)]
  await a.setOwnerPassword('scrypt$old', T0)
  await a.createSession('one', T0)
  await b.createSession('two', T0)
  await b.setOwnerPassword('scrypt$new', T0 + 1000)
  expect(await a.useSession('one', T0 + 2000, IDLE, MAX)).toBe(false)
  expect(await a.useSession('two', T0 + 2000, IDLE, MAX)).toBe(false)
})

test('an expired session takes the other expired ones with it', async () => {
  const store = await open(await testStoreConfig('sessions-'))
  await store.createSession('old-a', T0)
  await store.createSession('old-b', T0)
  await store.createSession('fresh', T0 + IDLE)
  expect(await store.useSession('old-a', T0 + IDLE + 1000, IDLE, MAX)).toBe(false)
  // old-b would still count if it were there, with a clock that puts it within its idle time.
  expect(await store.useSession('old-b', T0 + 1000, IDLE, MAX)).toBe(false)
  expect(await store.useSession('fresh', T0 + IDLE + 1000, IDLE, MAX)).toBe(true)
})
