// The visit counter (decision 049): decorated as `visits`; the day's salt is read when the app gets ready, its
// counts are written when it closes, before the store.
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'
import { createVisitCounter } from '../visits/counter.ts'

export default fp(
  publicPlugin(async (app) => {
    const visits = createVisitCounter(app.store, app.log.child({ component: 'visits' }), { domains: app.domains, ipv6Prefix: app.config.rateLimitIpv6Prefix })
    app.decorate('visits', visits)
    // The day's salt, read before the first page: without it a visit has no visitor and no repeat check, and a
    // client could count as many visits by arriving right after a start. Only that: a whole flush (tomorrow's salt,
    // settling past days) cost the cold start 75 to 100 ms (docs/benchmarks.md).
    app.addHook('onReady', () => visits.saltRead())
    app.addHook('onClose', () => visits.close())
  }),
  { name: 'visits', dependencies: ['store', 'domains'] },
)
