// Counter-offers run out: once an hour, every one whose time has passed is marked expired. The console shows a
// passed one as expired at once (read-time), so the hour only decides when the stored state and the filters follow.
import type { FastifyBaseLogger } from 'fastify'
import type { Job } from '../scheduler/scheduler.ts'
import type { Store } from '../store/types.ts'

const EVERY_MS = 60 * 60 * 1000

export function counterExpiryJob(options: { store: Pick<Store, 'expireCounterOffers'>; log: FastifyBaseLogger }): Job {
  const { store, log } = options
  return {
    name: 'counter-expiry',
    schedule: { everyMs: EVERY_MS },
    async run({ now }) {
      const count = await store.expireCounterOffers(now)
      if (count > 0) log.info({ count }, 'counter-offers expired')
    },
  }
}
