// The owner's console (ADMIN_PORT): its own Fastify instance, so that no hook, route or static file of it can ever
// answer on the public port, built on this app's store, outbox and domains. Registered last: its onClose runs first,
// while the store its requests in flight need is still open (decision 061). Its code is a chunk of its own, loaded
// only here.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'

interface ConsoleOptions {
  /** The console's build (dist/console). */
  consoleDir: string
  /** serve.ts: built by `app.startConsole()` once the public port listens, so that the first page does not wait. */
  deferConsole?: boolean | undefined
}

export default fp(
  publicPlugin<ConsoleOptions>(async (app, { consoleDir, deferConsole }) => {
    const { config } = app
    let consoleBuilt: Promise<FastifyInstance | null> | undefined
    const startConsole = () =>
      (consoleBuilt ??=
        config.adminPort === null
          ? Promise.resolve(null)
          : import('../admin/app.ts').then(async ({ buildAdminApp }) => {
              app.admin = await buildAdminApp(config, {
                config,
                store: app.store,
                outbox: app.outbox,
                domains: app.domains,
                rateLimits: app.rateLimits,
                secret: app.secret,
                onDealCompleted: (domain: string) => app.soldNames.add(domain),
                dnsUpdates: app.dnsUpdates,
                domainNotices: app.domainNotices,
                log: app.log.child({ component: 'console' }),
                consoleDir,
              })
              return app.admin
            }))
    app.decorate('admin', null)
    app.decorate('startConsole', startConsole)
    app.addHook('onClose', async () => {
      await (await consoleBuilt?.catch(() => null))?.close()
    })
    if (!deferConsole) await startConsole()
  }),
  { name: 'console', dependencies: ['store', 'rate-limits', 'outbox', 'domains', 'dns-updates', 'domain-notices'] },
)
