// What only the PostgreSQL store does (project "postgres", against the real test server).
import { expect, test } from 'vitest'
import { freePort } from '../../../scripts/server-lib.ts'
import { createPostgresStore } from './postgres.ts'
import { StoreUnavailableError } from './types.ts'

test('a database that cannot be reached is "unavailable" (503, try again), not an internal error', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await freePort()
  await expect(createPostgresStore(`postgres://lander@127.0.0.1:${port}/lander`)).rejects.toBeInstanceOf(StoreUnavailableError)
})
