// The rate limits' counters, in DATA_DIR (or PostgreSQL), shared by all the server processes on it, and
// @fastify/rate-limit registered over them without a global limit: the routes that want one (contact, checkout,
// the deal page) say so.
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'
import { openRateLimitStore } from '../store/index.ts'

export default fp(
  publicPlugin(async (app) => {
    const rateLimits = await openRateLimitStore(app.config, app.secret)
    app.addHook('onClose', async () => {
      await rateLimits.close()
    })
    app.decorate('rateLimits', rateLimits)
    await app.register(rateLimit, { global: false, store: rateLimits.Store as never })
  }),
  { name: 'rate-limits', dependencies: ['store'] },
)
