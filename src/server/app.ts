// Builds the application: store, mail outbox, routes. It never listens; main.ts does (and tests do, on port 0).
import fs from 'node:fs'
import path from 'node:path'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import Fastify, { LogController, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import { TEXTS } from '../shared/texts-all.ts'
import type { Config } from './config.ts'
import { answerClientError, sendFailure } from './http/errors.ts'
import { zodSchemas } from './http/zod-schemas.ts'
import { createOutboxWorker } from './mail/outbox.ts'
import { counterExpiryJob } from './deal/expiry.ts'
import { createMailTransport, type SmtpTimeouts } from './mail/transport.ts'
import { createDevPageRenderer, createPageRenderer } from './page/render.ts'
import { logHooks, logStream } from './logger.ts'
import type { ViteDev } from './vite-dev.ts'
import contactRoutes, { BODY_LIMIT } from './contact/route.ts'
import confirmRoutes from './confirm/route.ts'
import dealPageRoutes from './deal/route.ts'
import checkoutRoutes from './checkout/route.ts'
import { createSoldNames } from './deal/sold-names.ts'
import { createDnsWorker } from './dns/worker.ts'
import { bootstrapHolder, domainCheckJob } from './domain-checks/job.ts'
import { createNoticeSender } from './domain-checks/notices.ts'
import { checkOptionsFor, listedNames, noticeUrlsFor } from './domain-checks/setup.ts'
import { dealAutoCompleteJob } from './deal/auto-complete.ts'
import { dealDeadlinesJob, transferCodeErasureJob } from './deal/deadlines.ts'
import { unconfirmedExpiryJob } from './confirm/expiry.ts'
import { openDomainRegistry, type DomainsLoad } from './sites/registry.ts'
import { createVisitCounter } from './visits/counter.ts'
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
import { leaseOwnerOf } from './cluster/lease.ts'
import { fastifyTrustProxy } from './http/client-address.ts'
import { trackConnections, type ConnectionTracker } from './http/connections.ts'
import { lazyRequestLogger, logsEveryRequest, summariseFailedAnswers } from './http/request-log.ts'
import { openRateLimitStore, openStore } from './store/index.ts'
import { planEdit } from './domains-edit/planner.ts'
import { domainsSyncFor, storeJournal } from './domains-edit/sync.ts'
import { consoleUrlOf, missingNotifySecret } from './notify/routing.ts'
import { createServerJobs } from './jobs/server-jobs.ts'
import { decoratePublic } from './decorations.ts'

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

/** How long after the app is ready its background work (outbox, jobs, expiries) starts. */
const BACKGROUND_START_MS = 500

const connectionTrackers = new WeakMap<FastifyInstance, ConnectionTracker>()

export async function buildApp(config: Config, options: AppOptions): Promise<FastifyInstance> {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
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
  })

  connectionTrackers.set(app, trackConnections(app.server))
  summariseFailedAnswers(app, app.log.child({ component: 'requests' }), config.logLevel)
  // First: the domains file loads in a process of its own (on the other core; serve.ts may have started it already)
  // while the store opens and the page renderer loads; it is awaited below, before anything needs it.
  const domainsLoaded = openDomainRegistry(config.domainsFile, app.log.child({ component: 'domains' }), {
    memoryMiB: config.domainsFileMemoryMiB,
    check: (file) => missingNotifySecret(file, config.notify.secret),
    ...(options.domainsLoad && { firstLoad: options.domainsLoad }),
  })
  // Awaited below; a failure before that (the store) must not also count as an unhandled rejection.
  domainsLoaded.catch(() => {})

  const store = await openStore(config, { log: app.log.child({ component: 'store' }) })
  const secret = config.contactSecret ?? (await store.secret())
  const mailTransport = createMailTransport(config, options.smtpTimeouts)
  if (!options.clusterWorker) await store.releaseLeftoverLeases()
  const outbox = createOutboxWorker({
    owner: leaseOwnerOf(process.pid),
    leaseMs: config.mailLeaseMs,
    secret,
    store,
    transport: mailTransport,
    addresses: { from: config.mailFrom, to: config.mailTo },
    log: app.log.child({ component: 'outbox' }),
    notify: { secret: config.notify.secret, personal: config.notify.personal, consoleUrl: () => consoleUrlOf(config, app.admin) },
  })
  const devRenderer = options.dev && (await createDevPageRenderer(options.dev.vite))
  const renderer = devRenderer || createPageRenderer(options.clientDir)
  // Names sold through a deal are sold whatever the file says (decision 033): everything sees the file through them.
  const soldNames = createSoldNames(store, app.log.child({ component: 'deals' }))
  await soldNames.refresh()
  const domains = soldNames.overlay(await domainsLoaded)
  const sites = createSiteResolver(config, domains)
  // The _for-sale records in the owner's DNS follow the domains in force (decision 045), when DNS_UPDATE_* is set.
  const dnsUpdates =
    config.dnsUpdate &&
    createDnsWorker({
      store,
      settings: config.dnsUpdate,
      domains: () => domains.current(),
      sold: soldNames,
      log: app.log.child({ component: 'dns' }),
      owner: `${leaseOwnerOf(process.pid)}:dns`,
      leaseMs: config.mailLeaseMs,
    })
  // Edits made in the console or the CLI of another instance, taken into this one's domains file (decision 044); only
  // where there can be other instances.
  const domainsSync =
    config.domainsFile === undefined
      ? null
      : domainsSyncFor(store, {
          domainsFile: config.domainsFile,
          memoryMiB: config.domainsFileMemoryMiB,
          journal: storeJournal(store),
          plan: planEdit,
          log: app.log.child({ component: 'domains' }),
          reload: () => domains.reload(),
        })
  const visits = createVisitCounter(store, app.log.child({ component: 'visits' }), { domains, ipv6Prefix: config.rateLimitIpv6Prefix })
  const jobs = createServerJobs(config, { store, transport: mailTransport, domains, log: app.log.child({ component: 'jobs' }) })
  jobs.add(
    dealAutoCompleteJob({
      store,
      config,
      get domains() {
        return domains.current()
      },
      log: app.log.child({ component: 'deals' }),
      onCompleted: (domain) => soldNames.add(domain),
      kick: () => outbox.kick(),
    }),
  )
  jobs.add(
    dealDeadlinesJob({
      store,
      config,
      get domains() {
        return domains.current()
      },
      log: app.log.child({ component: 'deals' }),
      kick: () => outbox.kick(),
    }),
  )
  jobs.add(transferCodeErasureJob({ store, log: app.log.child({ component: 'deals' }) }))
  jobs.add(unconfirmedExpiryJob({ store, log: app.log.child({ component: 'confirm' }) }))
  jobs.add(counterExpiryJob({ store, log: app.log.child({ component: 'counter-expiry' }) }))
  // The daily checks of the listed names (decision 047): hourly slices of the portfolio, notifications of their own.
  const domainNotices = createNoticeSender({
    store,
    log: app.log.child({ component: 'domain-checks' }),
    owner: `${leaseOwnerOf(process.pid)}:domains`,
    leaseMs: config.mailLeaseMs,
    secret: config.notify.secret,
    consoleUrl: () => consoleUrlOf(config, app.admin),
  })
  if (config.domainChecks.daily) {
    jobs.add(
      domainCheckJob({
        store,
        listed: () => listedNames(domains.current(), soldNames),
        checks: checkOptionsFor(config.domainChecks),
        bootstrap: bootstrapHolder(),
        notify: (ascii) => noticeUrlsFor(domains.current(), config)(ascii),
        queued: () => domainNotices.kick(),
        log: app.log.child({ component: 'domain-checks' }),
      }),
    )
  }
  app.decorate('draining', false)
  app.decorate('jobs', jobs)
  app.decorateRequest(SITE_LOOKUP, null)

  // One policy for every answer: the page's inline style and loader are allowed by their hashes, no nonce.
  addSecurityHeaders(app, pagePolicy(renderer.styleSources, renderer.scriptSources), { nonce: false })
  // Registered without a global limit: the contact routes use it. Counters live in DATA_DIR (or PostgreSQL),
  // shared by all the server processes on it.
  const rateLimits = await openRateLimitStore(config, secret)
  await app.register(rateLimit, { global: false, store: rateLimits.Store as never })

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
  decoratePublic(app, { config, store, outbox, rateLimits, secret, sites, view })
  await app.register(healthRoutes, { readyzDetails: config.readyzDetails })
  const tls = createTlsApprovals({ sites, store, dailyLimit: config.tlsWildcardDailyLimit, log: app.log.child({ component: 'tls-check' }) })
  await app.register(tlsCheckRoutes, { tls })
  await app.register(pageRoutes)
  await app.register(ogImageRoutes)
  await app.register(crawlerRoutes)
  await app.register(portfolioRoutes)
  await app.register(faviconRoutes)
  await app.register(contactRoutes)
  await app.register(confirmRoutes)
  await app.register(checkoutRoutes)
  await app.register(dealPageRoutes, { onCompleted: (domain) => soldNames.add(domain) })

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

  // Its own Fastify instance: no hook, route or static file of the console can ever answer on the public port. Its
  // code is a chunk of its own, loaded only here.
  let consoleBuilt: Promise<FastifyInstance | null> | undefined
  const startConsole = () =>
    (consoleBuilt ??=
      config.adminPort === null
        ? Promise.resolve(null)
        : import('./admin/app.ts').then(async ({ buildAdminApp }) => {
            app.admin = await buildAdminApp(config, {
              config,
              store,
              outbox,
              domains,
              rateLimits,
              secret,
              onDealCompleted: (domain: string) => soldNames.add(domain),
              dnsUpdates,
              domainNotices,
              log: app.log.child({ component: 'console' }),
              consoleDir: options.consoleDir ?? path.join(path.dirname(path.resolve(options.clientDir)), 'console'),
            })
            return app.admin
          }))
  app.decorate('admin', null)
  app.decorate('startConsole', startConsole)
  if (!options.deferConsole) await startConsole()

  // A callback, not an async function: this runs for every answer, and a promise each was measurable on GET /.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) reply.header('connection', 'close')
    done(null, payload)
  })
  let background: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    // The day's salt, read before the first page: without it a visit has no visitor and no repeat check, and a
    // client could count as many visits by arriving right after a start. Only that: a whole flush (tomorrow's salt,
    // settling past days) cost the cold start 75 to 100 ms (docs/benchmarks.md).
    await visits.saltRead()
    // The first page comes first: the background work's first runs (each a query or a write to the store) would
    // otherwise come between listening and the first answer. Nothing in them is that urgent; new mail kicks the
    // outbox itself.
    background = setTimeout(() => {
      if (app.draining) return
      outbox.start()
      dnsUpdates?.start()
      domainNotices.start()
      soldNames.start()
      domainsSync?.start()
      jobs.start()
      // One line per start: when the outbox's first poll and the jobs began (a test of several instances waits for the
      // outbox's own line, 'outbox pass done' at debug, which says the first poll is over).
      app.log.info('background work started')
    }, BACKGROUND_START_MS)
  })
  app.addHook('onClose', async () => {
    clearTimeout(background)
    // First: its requests in flight still need the store.
    await (await consoleBuilt?.catch(() => null))?.close()
    domains.close()
    await visits.close()
    // Before the outbox: a job may still send through the transport that the outbox closes.
    await jobs.stop()
    await outbox.stop()
    await dnsUpdates?.stop()
    await domainNotices.stop()
    await soldNames.stop()
    await domainsSync?.stop()
    await store.close()
    await rateLimits.close()
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
export async function shutdown(app: FastifyInstance, drainMs: number): Promise<void> {
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
