// What the public app's routes share, decorated onto its Fastify instance once, where buildApp makes it (decision
// 051): a route plugin reads `app.store` (or `request.server.store` in a handler), never an object handed to it.
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import type { OutboxWorker } from './mail/outbox.ts'
import type { PageView } from './page/view.ts'
import type { Scheduler } from './scheduler/scheduler.ts'
import type { SiteResolver } from './sites/resolver.ts'
import type { RateLimits } from './store/rate-limit-common.ts'
import type { Store } from './store/types.ts'

/** Shared by both apps of a process: the console (admin/decorations.ts) is decorated with the same ones. */
export interface SharedDecorations {
  config: Config
  store: Store
  outbox: OutboxWorker
  rateLimits: RateLimits
  /** Signs the links of the public pages and mails (http/form-token.ts, deal/link.ts). */
  secret: string
}

/** The public app's own. */
interface PublicOwn {
  /** The public app only. */
  sites: SiteResolver
  /** The public app only: the page renderer with the visit counter (page/view.ts). */
  view: PageView
}

export type PublicDecorations = SharedDecorations & PublicOwn

declare module 'fastify' {
  interface FastifyInstance extends SharedDecorations, PublicOwn {
    /** Set once shutdown began: answers say "Connection: close" and /readyz says 503. */
    draining: boolean
    /**
     * This process's scheduled jobs, the complete list for its configuration (server-jobs.ts and app.ts): no route
     * uses them; a test moves them on with `runDue(now)` instead of waiting for their time.
     */
    jobs: Scheduler
    /**
     * The owner's console (ADMIN_PORT), or null when it is off or not built yet (deferConsole). It closes with this
     * app; serve.ts makes it listen.
     */
    admin: FastifyInstance | null
    /** Builds the console (once; later calls get the same), or null when ADMIN_PORT is off. */
    startConsole(): Promise<FastifyInstance | null>
  }
}

export function decorateShared(app: FastifyInstance, shared: SharedDecorations): void {
  app.decorate('config', shared.config)
  app.decorate('store', shared.store)
  app.decorate('outbox', shared.outbox)
  app.decorate('rateLimits', shared.rateLimits)
  app.decorate('secret', shared.secret)
}

/** Before the routes are registered: a decorator made on the root instance is seen by every plugin registered after. */
export function decoratePublic(app: FastifyInstance, decorations: PublicDecorations): void {
  decorateShared(app, decorations)
  app.decorate('sites', decorations.sites)
  app.decorate('view', decorations.view)
}
