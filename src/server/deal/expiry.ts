// Counter-offers run out: once an hour, every one whose time has passed is marked expired. The console shows a
// passed one as expired at once (read-time), so the hour only decides when the stored state and the filters follow.
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/types.ts'

const COUNTER_EXPIRY_INTERVAL_MS = 60 * 60 * 1000

export interface CounterExpiryTimer {
  /** Stops the timer and waits for a run in flight (the store closes next). */
  stop(): Promise<void>
}

/** Runs the job now and then every interval; a failure is logged and the next run tries again. */
export function startCounterExpiry(store: Store, log: FastifyBaseLogger): CounterExpiryTimer {
  let running: Promise<void> | undefined
  const run = () => {
    running ??= store
      .expireCounterOffers(Date.now())
      .then((count) => {
        if (count > 0) log.info({ count }, 'counter-offers expired')
      })
      .catch((error: unknown) => log.error({ err: error }, 'counter-offer expiry failed; it runs again within the hour'))
      .finally(() => (running = undefined))
  }
  run()
  const timer = setInterval(run, COUNTER_EXPIRY_INTERVAL_MS)
  // A timer of its own must not keep a stopping process alive.
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
