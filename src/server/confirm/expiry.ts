// Erases the inquiries whose visitor did not confirm them within 48 hours (`confirm: verify`): nobody vouched for
// the address they name, so they are kept no longer than their link is valid.
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/types.ts'

/** Often enough that the console shows an expired inquiry only briefly; the query reads an index. */
const EVERY_MS = 10 * 60 * 1000

export interface UnconfirmedExpiry {
  start(): void
  /** Stops the timer and waits for a run in progress (it needs the store). */
  stop(): Promise<void>
  /** One run now; resolves with how many were erased (0 when the store failed: logged, tried again next time). */
  run(): Promise<number>
}

export function createUnconfirmedExpiry(options: {
  store: Pick<Store, 'eraseExpiredUnconfirmed'>
  log: FastifyBaseLogger
  everyMs?: number
  now?: () => number
}): UnconfirmedExpiry {
  const { store, log, everyMs = EVERY_MS, now = Date.now } = options
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<number> | undefined

  function run(): Promise<number> {
    inFlight ??= store
      .eraseExpiredUnconfirmed(now())
      .then((erased) => {
        if (erased > 0) log.info({ erased }, 'unconfirmed inquiries erased: not confirmed within 48 hours')
        return erased
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'could not erase expired unconfirmed inquiries; trying again later')
        return 0
      })
      .finally(() => {
        inFlight = undefined
      })
    return inFlight
  }

  return {
    start() {
      if (timer) return
      void run()
      timer = setInterval(() => void run(), everyMs)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      timer = undefined
      await inFlight
    },
    run,
  }
}
