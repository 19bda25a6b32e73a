// Erases the inquiries whose visitor did not confirm them within 48 hours (`confirm: verify`): nobody vouched for
// the address they name, so they are kept no longer than their link is valid.
import type { FastifyBaseLogger } from 'fastify'
import type { Job } from '../scheduler/scheduler.ts'
import type { Store } from '../store/types.ts'

/** Often enough that the console shows an expired inquiry only briefly; the query reads an index. */
const EVERY_MS = 10 * 60 * 1000

export function unconfirmedExpiryJob(options: { store: Pick<Store, 'eraseExpiredUnconfirmed'>; log: FastifyBaseLogger }): Job {
  const { store, log } = options
  return {
    name: 'unconfirmed-expiry',
    schedule: { everyMs: EVERY_MS },
    async run({ now }) {
      const erased = await store.eraseExpiredUnconfirmed(now)
      if (erased > 0) log.info({ erased }, 'unconfirmed inquiries erased: not confirmed within 48 hours')
    },
  }
}
