// The mail outbox (mail/outbox.ts): decorated as `outbox`, started with the background work, stopped after the jobs
// (they may still queue mail through it) and before the store (decision 061). It closes the transport it sends with.
import fp from 'fastify-plugin'
import { leaseOwnerOf } from '../cluster/lease.ts'
import { publicPlugin } from '../decorations.ts'
import { createOutboxWorker } from '../mail/outbox.ts'
import type { MailTransport } from '../mail/transport.ts'
import { consoleUrlOf } from '../notify/routing.ts'

export default fp(
  publicPlugin<{ transport: MailTransport }>(async (app, { transport }) => {
    const { config } = app
    const outbox = createOutboxWorker({
      owner: leaseOwnerOf(process.pid),
      leaseMs: config.mailLeaseMs,
      secret: app.secret,
      store: app.store,
      transport,
      addresses: { from: config.mailFrom, to: config.mailTo },
      log: app.log.child({ component: 'outbox' }),
      notify: { secret: config.notify.secret, personal: config.notify.personal, consoleUrl: () => consoleUrlOf(config, app.admin) },
    })
    app.decorate('outbox', outbox)
    app.background.later(() => outbox.start())
    app.addHook('onClose', () => outbox.stop())
  }),
  { name: 'outbox', dependencies: ['store', 'background'] },
)
