// What only the PostgreSQL store does (project "postgres", against the real test server).
import { afterEach, expect, test } from 'vitest'
import { freePort } from '../../../scripts/server-lib.mjs'
import { databaseUrlFor } from '../../../tests/helpers/postgres.ts'
import { createPostgresStore } from './postgres.ts'
import { StoreUnavailableError, type Store } from './types.ts'

const stores: Store[] = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()))
})

test('instances on one database share the form secret: the first one to start sets it', async () => {
  const url = (await databaseUrlFor(`secret-${Date.now()}`))!
  const [a, b] = [await createPostgresStore(url), await createPostgresStore(url)]
  stores.push(a, b)
  expect(await a.sharedSecret!('secret-of-the-first-instance')).toBe('secret-of-the-first-instance')
  expect(await b.sharedSecret!('secret-of-the-second-instance')).toBe('secret-of-the-first-instance')
})

test('a database that cannot be reached is "unavailable" (503, try again), not an internal error', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await freePort()
  await expect(createPostgresStore(`postgres://lander@127.0.0.1:${port}/lander`)).rejects.toBeInstanceOf(StoreUnavailableError)
})
