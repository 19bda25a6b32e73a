// The background work's start, shared by the workers' plugins: each asks for its start here, and all of them start
// together, BACKGROUND_START_MS after the app is ready, in the order their plugins were registered (decision 061).
import fp from 'fastify-plugin'
import { publicPlugin, type Background } from '../decorations.ts'

/** How long after the app is ready its background work (outbox, jobs, expiries) starts. */
const BACKGROUND_START_MS = 500

export default fp(
  publicPlugin(async (app) => {
    const starts: (() => void)[] = []
    let timer: NodeJS.Timeout | undefined
    app.decorate('background', { later: (start: () => void) => void starts.push(start) } satisfies Background)
    app.addHook('onReady', async () => {
      // The first page comes first: the background work's first runs (each a query or a write to the store) would
      // otherwise come between listening and the first answer. Nothing in them is that urgent; new mail kicks the
      // outbox itself.
      timer = setTimeout(() => {
        if (app.draining) return
        for (const start of starts) start()
        // One line per start: when the outbox's first poll and the jobs began (a test of several instances waits for
        // the outbox's own line, 'outbox pass done' at debug, which says the first poll is over).
        app.log.info('background work started')
      }, BACKGROUND_START_MS)
    })
    // Before any onClose: a worker stopped there must not be started by the timer afterwards.
    app.addHook('preClose', async () => clearTimeout(timer))
  }),
  { name: 'background' },
)
