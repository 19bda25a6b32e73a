// What the console's routes share, decorated onto its Fastify instance once, where buildAdminApp makes it (decision
// 051): the store, outbox and domains of the public app of this process, and the console's own renderer.
import type { FastifyInstance } from 'fastify'
import { decorateShared, type SharedDecorations } from '../decorations.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { ConsoleRenderer } from './render.ts'

/** The console's own, beside those both apps share. */
interface ConsoleOwn {
  /** The console only. */
  domains: DomainRegistry
  /** The console only. */
  renderer: ConsoleRenderer
  /** The console only. A deal completed in the console: the name is sold in this process at once (deal/sold-names.ts). */
  onDealCompleted: (domain: string) => void
  /** The console only. The DNS updates of the _for-sale records (dns/worker.ts), when DNS_UPDATE_* is set. */
  dnsUpdates: { kick(): void } | null
  /** The console only. The daily checks' notifications (domain-checks/notices.ts). */
  domainNotices: { kick(): void } | null
}

export type ConsoleDecorations = SharedDecorations & ConsoleOwn

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the decorations are declared once, in ConsoleOwn
  interface FastifyInstance extends ConsoleOwn {}
}

/** Before the routes are registered: a decorator made on the root instance is seen by every plugin registered after. */
export function decorateConsole(app: FastifyInstance, decorations: ConsoleDecorations): void {
  decorateShared(app, decorations)
  app.decorate('domains', decorations.domains)
  app.decorate('renderer', decorations.renderer)
  app.decorate('onDealCompleted', decorations.onDealCompleted)
  app.decorate('dnsUpdates', decorations.dnsUpdates)
  app.decorate('domainNotices', decorations.domainNotices)
}
