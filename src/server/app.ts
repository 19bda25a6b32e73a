// Builds the application: its workers' plugins (plugins/, each owning its start and stop), the page's files and the
// routes. It never listens; main.ts does (and tests do, on port 0).
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import { TEXTS } from '../shared/texts-all.ts'
import type { Config } from './config.ts'
import { answerClientError, sendFailure } from './http/errors.ts'
import { zodSchemas } from './http/zod-schemas.ts'
import { createMailTransport, type SmtpTimeouts } from './mail/transport.ts'
import { createDevPageRenderer, createPageRenderer } from './page/render.ts'
import { logHooks, logStream } from './logger.ts'
import type { ViteDev } from './vite-dev.ts'
import contactRoutes, { BODY_LIMIT } from './contact/route.ts'
import confirmRoutes from './confirm/route.ts'
import dealPageRoutes from './deal/route.ts'
import checkoutRoutes from './checkout/route.ts'
import { openDomainRegistry, type DomainsLoad } from './sites/registry.ts'
import { isFormScript } from './visits/form-script.ts'
import healthRoutes from './health/route.ts'
import pageRoutes from './page/route.ts'
import ogImageRoutes from './page/og-route.ts'
import crawlerRoutes from './page/crawler-route.ts'
import portfolioRoutes from './portfolio/route.ts'
import faviconRoutes from './page/favicon-route.ts'
import { createPageView } from './page/view.ts'
import { addSecurityHeaders, pagePolicy } from './http/security-headers.ts'
import { createSiteResolver, SITE_LOOKUP } from './sites/resolver.ts'
import { varyByLanguage } from './sites/language.ts'
import tlsCheckRoutes, { createTlsApprovals } from './sites/tls-check.ts'
import { fastifyTrustProxy } from './http/client-address.ts'
import { trackConnections, type ConnectionTracker } from './http/connections.ts'
import { lazyRequestLogger, logsEveryRequest, summariseFailedAnswers } from './http/request-log.ts'
import { missingNotifySecret } from './notify/routing.ts'
import type { PublicApp } from './decorations.ts'
import storePlugin from './plugins/store.ts'
import rateLimitsPlugin from './plugins/rate-limits.ts'
import backgroundPlugin from './plugins/background.ts'
import outboxPlugin from './plugins/outbox.ts'
import domainsPlugin from './plugins/domains.ts'
import dnsUpdatesPlugin from './plugins/dns-updates.ts'
import domainNoticesPlugin from './plugins/domain-notices.ts'
import domainsSyncPlugin from './plugins/domains-sync.ts'
import visitsPlugin from './plugins/visits.ts'
import jobsPlugin from './plugins/jobs.ts'
import consolePlugin from './plugins/console.ts'

export interface AppOptions {
  /** The built client (index.html and assets). */
  clientDir: string
  logger?: FastifyServerOptions['logger'] & object
  /** Shorter SMTP timeouts, for tests that wait for them to fire. */
  smtpTimeouts?: Partial<SmtpTimeouts>
  /**
   * Set in a worker process of a cluster: its primary ended the leases left over from a previous run before it
   * forked the workers (and ends those of a worker that died), so a worker leaves the other workers' leases alone.
   */
  clusterWorker?: boolean
  /** `npm run dev`: the page and its scripts come from the sources through Vite (vite-dev.ts), not from clientDir. */
  dev?: ViteDev
  /** The console's build (dist/console); by default beside clientDir. */
  consoleDir?: string
  /** The first load of DOMAINS_FILE, when serve.ts started it before this module was even loaded. */
  domainsLoad?: DomainsLoad
  /**
   * serve.ts: the console is built by `app.startConsole()` once the public port listens, so that the first page
   * does not wait for the console's code and routes. Otherwise (tests) buildApp builds it.
   */
  deferConsole?: boolean
}

/** Request logs without the client's address or query string: we keep no more personal data than we need. */
const requestSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: req.url.split('?')[0] ?? '/',
    host: req.headers.host,
  }),
}

/**
 * The longest a request may take to arrive (head and body). Shorter than SHUTDOWN_GRACE_MS less the longest drain (SHUTDOWN_DRAIN_SECONDS), so that
 * a request that was accepted before the shutdown has run out before the process would be killed.
 */
const REQUEST_TIMEOUT_MS = 10_000

const connectionTrackers = new WeakMap<FastifyInstance, ConnectionTracker>()

export async function buildApp(config: Config, options: AppOptions): Promise<PublicApp> {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  // The one place the public app gets its type: what PublicApp adds, its plugins decorate below, each before
  // anything reads it (fastify-plugin's dependencies say which comes first).
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, serializers: requestSerializers, hooks: logHooks, stream: await logStream(config) },
    logController: new LogController({ disableRequestLogging: !logsEveryRequest(config.logLevel) }),
    childLoggerFactory: lazyRequestLogger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Node checks both timeouts only every connectionsCheckingInterval (30 s unless told): check every second.
    http: { headersTimeout: REQUEST_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
    clientErrorHandler: answerClientError,
    schemaController: zodSchemas,
  }) as unknown as PublicApp

  connectionTrackers.set(app, trackConnections(app.server))
  summariseFailedAnswers(app, app.log.child({ component: 'requests' }), config.logLevel)
  // First: the domains file loads in a process of its own (on the other core; serve.ts may have started it already)
  // while the store opens and the page renderer loads; the domains plugin awaits it, before anything needs it.
  const domainsLoaded = openDomainRegistry(config.domainsFile, app.log.child({ component: 'domains' }), {
    memoryMiB: config.domainsFileMemoryMiB,
    check: (file) => missingNotifySecret(file, config.notify.secret),
    ...(options.domainsLoad && { firstLoad: options.domainsLoad }),
  })
  // Awaited there; a failure before that (the store) must not also count as an unhandled rejection.
  domainsLoaded.catch(() => {})

  // The workers, each a plugin that decorates the app with what it owns, starts in onReady (most of them with the
  // background work, BACKGROUND_START_MS after ready) and stops in onClose. Fastify runs onClose hooks in the reverse
  // order of registration, and each plugin names what it needs (fastify-plugin checks that it came first), so the
  // order below is the stop order backwards (decision 061): the store closes last, the jobs before the outbox whose
  // transport their mail goes through, the console (registered last, below) first.
  app.decorate('config', config)
  app.decorate('draining', false)
  await app.register(storePlugin, { clusterWorker: options.clusterWorker })
  await app.register(rateLimitsPlugin)
  await app.register(backgroundPlugin)
  const transport = createMailTransport(config, options.smtpTimeouts)
  await app.register(outboxPlugin, { transport })
  const devRenderer = options.dev && (await createDevPageRenderer(options.dev.vite))
  const renderer = devRenderer || createPageRenderer(options.clientDir)
  await app.register(domainsPlugin, { loaded: domainsLoaded })
  await app.register(dnsUpdatesPlugin)
  await app.register(domainNoticesPlugin)
  await app.register(domainsSyncPlugin)
  await app.register(visitsPlugin)
  await app.register(jobsPlugin, { transport })
  const { secret, visits } = app
  const sites = createSiteResolver(config, app.domains)
  app.decorate('sites', sites)
  app.decorateRequest(SITE_LOOKUP, null)

  // One policy for every answer: the page's inline style and loader are allowed by their hashes, no nonce.
  addSecurityHeaders(app, pagePolicy(renderer.styleSources, renderer.scriptSources), { nonce: false })
  if (options.dev && devRenderer) (await import('./vite-dev.ts')).serveFromVite(app, options.dev, devRenderer)
  else
    await app.register(fastifyStatic, {
      root: options.clientDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // The build wrote .br and .gz beside each asset (scripts/build-lib.ts).
      preCompressed: true,
      allowedPath: (pathName) => pathName !== '/index.html',
      // Vite puts a content hash into every asset name, so an asset never changes and may be cached for good.
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable')
        // The form's script is fetched when the visitor turns to the form: that request is the count (decision 049).
        if (isFormScript(filePath)) {
          const lookup = sites.lookup(reply.request)
          if (lookup.kind === 'site' && !lookup.site.preview) visits.formTurn(reply.request, lookup.site.host.ascii)
        }
      },
    })
  const view = createPageView({ secret, renderer, sites, visits })
  app.decorate('view', view)
  await app.register(healthRoutes, { readyzDetails: config.readyzDetails })
  const tls = createTlsApprovals({ sites, store: app.store, dailyLimit: config.tlsWildcardDailyLimit, log: app.log.child({ component: 'tls-check' }) })
  await app.register(tlsCheckRoutes, { tls })
  await app.register(pageRoutes)
  await app.register(ogImageRoutes)
  await app.register(crawlerRoutes)
  await app.register(portfolioRoutes)
  await app.register(faviconRoutes)
  await app.register(contactRoutes)
  await app.register(confirmRoutes)
  await app.register(checkoutRoutes)
  await app.register(dealPageRoutes, { onCompleted: (domain) => app.soldNames.add(domain) })

  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error))
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? ''
    // In the language of the host's page, where the host has one.
    const answer = sites.answerLanguage(request)
    const text = TEXTS[answer.language]
    if (url.startsWith('/api/')) {
      return varyByLanguage(reply.code(404).type('application/json; charset=utf-8'), answer).send({ error: text.notFound })
    }
    return view.notice(reply, 404, answer, text.notFoundTitle, text.notFound)
  })

  // A callback, not an async function: this runs for every answer, and a promise each was measurable on GET /.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) reply.header('connection', 'close')
    done(null, payload)
  })
  await app.register(consolePlugin, {
    consoleDir: options.consoleDir ?? path.join(path.dirname(path.resolve(options.clientDir)), 'console'),
    deferConsole: options.deferConsole,
  })
  return app
}

/** How long a shutdown may take before the process is ended anyway (exit code 1). */
export const SHUTDOWN_GRACE_MS = 20_000

/**
 * Graceful shutdown: first drain (readiness fails, every answer closes its keep-alive connection, so no client
 * sends a request into a socket that is about to close), then stop listening, end the connections that are not
 * being answered (idle, or holding half a request), finish the requests in flight and the mail being sent, and
 * close the store. `drainMs` (SHUTDOWN_DRAIN_SECONDS): how long the drain keeps accepting.
 */
export async function shutdown(app: PublicApp, drainMs: number): Promise<void> {
  app.draining = true
  await new Promise((resolve) => setTimeout(resolve, drainMs))
  const closed = app.close()
  // Again until closed: a connection the kernel accepted while the server stopped listening arrives late.
  const connections = connectionTrackers.get(app)
  connections?.closeUnanswered()
  const sweep = setInterval(() => connections?.closeUnanswered(), 100)
  try {
    await closed
  } finally {
    clearInterval(sweep)
  }
}
