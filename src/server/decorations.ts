// What the apps' routes share, decorated onto their Fastify instances once, by the plugins that own each thing
// (plugins/, decision 061): a route plugin reads `app.store` (or `request.server.store` in a handler), never an
// object handed to it. Each app has a type of its own (PublicApp here, ConsoleApp in admin/decorations.ts), so that
// a route of one cannot name what only the other has: Fastify's own FastifyInstance carries only what both have.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginOptions,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { Config } from './config.ts'
import type { SoldNames } from './deal/sold-names.ts'
import type { NoticeSender } from './domain-checks/notices.ts'
import type { DnsWorker } from './dns/worker.ts'
import type { OutboxWorker } from './mail/outbox.ts'
import type { PageView } from './page/view.ts'
import type { Scheduler } from './scheduler/scheduler.ts'
import type { DomainRegistry } from './sites/registry.ts'
import type { SiteResolver } from './sites/resolver.ts'
import type { RateLimits } from './store/rate-limit-common.ts'
import type { Store } from './store/types.ts'
import type { VisitCounter } from './visits/counter.ts'

/** Shared by both apps of a process: the console (admin/decorations.ts) is decorated with the same objects. */
export interface SharedDecorations {
  config: Config
  store: Store
  outbox: OutboxWorker
  rateLimits: RateLimits
  /** Signs the links of the public pages and mails (http/form-token.ts, deal/link.ts). */
  secret: string
  /** The domains file in force, with the names sold through a deal marked sold (deal/sold-names.ts). */
  domains: DomainRegistry
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the decorations are declared once, in SharedDecorations
  interface FastifyInstance extends SharedDecorations {}
}

export interface Background {
  /** Called once, BACKGROUND_START_MS after ready (plugins/background.ts); never for an app never asked anything. */
  later(start: () => void): void
}

/** The public app's own: what its routes use, and what its plugins hand each other. */
interface PublicDecorations {
  sites: SiteResolver
  /** The page renderer with the visit counter (page/view.ts). */
  view: PageView
  /** Set once shutdown began: answers say "Connection: close" and /readyz says 503. */
  draining: boolean
  /**
   * This process's scheduled jobs, the complete list for its configuration (plugins/jobs.ts): no route uses them; a
   * test moves them on with `runDue(now)` instead of waiting for their time.
   */
  jobs: Scheduler
  /**
   * The owner's console (ADMIN_PORT), or null when it is off or not built yet (deferConsole). It closes with this
   * app; serve.ts makes it listen. Typed as Fastify's own: nothing of the public app reaches into it.
   */
  admin: FastifyInstance | null
  /** Builds the console (once; later calls get the same), or null when ADMIN_PORT is off. */
  startConsole(): Promise<FastifyInstance | null>
  /** Starts what the workers ask for BACKGROUND_START_MS after the app is ready (plugins/background.ts). */
  background: Background
  soldNames: SoldNames
  visits: VisitCounter
  /** The DNS updates of the _for-sale records (dns/worker.ts), when DNS_UPDATE_* is set. */
  dnsUpdates: DnsWorker | null
  /** The daily checks' notifications (domain-checks/notices.ts). */
  domainNotices: NoticeSender
}

/**
 * A Fastify instance with an app's own decorations `D`. Two of Fastify's methods are given again, first in the
 * intersection so that a call resolves to them: `register` takes a plugin written for this app (a route plugin of
 * the other app does not type-check), and `withTypeProvider` (the routes' zod schemas) keeps the decorations, where
 * Fastify's own would return a plain FastifyInstance.
 */
export type Decorated<D, P extends FastifyTypeProvider = FastifyTypeProviderDefault> = {
  register<O extends FastifyPluginOptions>(plugin: (app: Decorated<D>, options: O) => Promise<void>, options?: O): ReturnType<FastifyInstance['register']>
  withTypeProvider<Q extends FastifyTypeProvider>(): Decorated<D, Q>
} & FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, P> &
  D

/** The public app as its routes and plugins see it. */
export type PublicApp = Decorated<PublicDecorations>

/**
 * The one place the public app's type meets Fastify's plugin type, which knows only FastifyInstance, for
 * fastify-plugin's `fp` (plugins/): buildApp decorates the root instance before any plugin reads a decoration, and
 * Fastify hands each plugin an instance that inherits them.
 */
export const publicPlugin = <O extends FastifyPluginOptions = Record<never, never>>(
  plugin: (app: PublicApp, options: O) => Promise<void>,
): FastifyPluginAsync<O> => plugin as unknown as FastifyPluginAsync<O>
