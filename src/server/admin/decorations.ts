// What the console's routes share, decorated onto its Fastify instance once, where buildAdminApp makes it (decision
// 051): the store, outbox and domains of the public app of this process, and the console's own renderer. Its type,
// ConsoleApp, carries the console's own beside what both apps share, and nothing of the public app's (decision 061).
import type { FastifyInstance } from 'fastify'
import type { Decorated, SharedDecorations } from '../decorations.ts'
import type { ConsoleRenderer } from './render.ts'

/** The console's own, beside those both apps share. */
interface ConsoleOwn {
  renderer: ConsoleRenderer
  /** A deal completed in the console: the name is sold in this process at once (deal/sold-names.ts). */
  onDealCompleted: (domain: string) => void
  /** The DNS updates of the _for-sale records (dns/worker.ts), when DNS_UPDATE_* is set. */
  dnsUpdates: { kick(): void } | null
  /** The daily checks' notifications (domain-checks/notices.ts). */
  domainNotices: { kick(): void } | null
}

export type ConsoleDecorations = SharedDecorations & ConsoleOwn

/** The console as its routes see it. */
export type ConsoleApp = Decorated<ConsoleOwn>

/** Before the routes are registered: a decorator made on the root instance is seen by every plugin registered after. */
export function decorateConsole(app: FastifyInstance, decorations: ConsoleDecorations): ConsoleApp {
  app.decorate('config', decorations.config)
  app.decorate('store', decorations.store)
  app.decorate('outbox', decorations.outbox)
  app.decorate('rateLimits', decorations.rateLimits)
  app.decorate('secret', decorations.secret)
  app.decorate('domains', decorations.domains)
  app.decorate('renderer', decorations.renderer)
  app.decorate('onDealCompleted', decorations.onDealCompleted)
  app.decorate('dnsUpdates', decorations.dnsUpdates)
  app.decorate('domainNotices', decorations.domainNotices)
  // Now it is one: the decorations above are its own.
  return app as ConsoleApp
}
