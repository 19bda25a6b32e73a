// The notifications of the daily checks of the listed names (decision 047), a leased queue of their own: decorated
// as `domainNotices`, started with the background work, stopped before the store.
import fp from 'fastify-plugin'
import { leaseOwnerOf } from '../cluster/lease.ts'
import { publicPlugin } from '../decorations.ts'
import { createNoticeSender } from '../domain-checks/notices.ts'
import { consoleUrlOf } from '../notify/routing.ts'

export default fp(
  publicPlugin(async (app) => {
    const { config } = app
    const domainNotices = createNoticeSender({
      store: app.store,
      log: app.log.child({ component: 'domain-checks' }),
      owner: `${leaseOwnerOf(process.pid)}:domains`,
      leaseMs: config.mailLeaseMs,
      secret: config.notify.secret,
      consoleUrl: () => consoleUrlOf(config, app.admin),
    })
    app.decorate('domainNotices', domainNotices)
    app.background.later(() => domainNotices.start())
    app.addHook('onClose', () => domainNotices.stop())
  }),
  { name: 'domain-notices', dependencies: ['store', 'background'] },
)
