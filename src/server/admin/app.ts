// The owner's console: a Fastify instance of its own, listening on ADMIN_PORT, never on the public port. It works on
// the same store, outbox and domains as the public app of this process (buildApp creates both).
import fs from 'node:fs'
import path from 'node:path'
import fastifyCookie from '@fastify/cookie'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import { CONSOLE_HEADER } from '../../shared/console-api.ts'
import { TEXT } from '../../shared/texts.ts'
import type { Config } from '../config.ts'
import { fastifyTrustProxy } from '../http/client-address.ts'
import { answerClientError, sendFailure } from '../http/errors.ts'
import { sentAsIs, zodSchemas } from '../http/zod-schemas.ts'
import { isCrossSite } from '../http/same-origin.ts'
import { addSecurityHeaders, pagePolicy } from '../http/security-headers.ts'
import { auditHooks } from './audit/record.ts'
import auditRoutes from './audit/route.ts'
import { decorateConsole, type ConsoleApp, type ConsoleDecorations } from './decorations.ts'
import { consoleHostNames, isConsoleHost } from './host.ts'
import dealRoutes from './deal/route.ts'
import salesRoutes from './sales/route.ts'
import paymentRoutes from './payments/route.ts'
import importRoutes from './import/route.ts'
import domainsRoutes from './domains/route.ts'
import domainCheckRoutes from './domain-checks/route.ts'
import inboxRoutes from './inbox/route.ts'
import { loadPage } from './inbox/pages.ts'
import statsRoutes from './stats/route.ts'
import privacyRoutes from './privacy/route.ts'
import securityRoutes from './security/route.ts'
import { startupProblem } from './security/relying-party.ts'
import { createConsoleRenderer, sendPage } from './render.ts'
import sessionRoutes from './session/route.ts'
import { sessionGuard } from './session/guard.ts'

/** What the console is built with: its decorations (those it does not make itself), its logger and its build. */
export type AdminAppOptions = Omit<ConsoleDecorations, 'renderer' | 'dnsUpdates' | 'domainNotices'> &
  Partial<Pick<ConsoleDecorations, 'renderer' | 'dnsUpdates' | 'domainNotices'>> & {
    log: FastifyBaseLogger
    /** The console's build (index.html, assets/); its absence (tests without the console build) is tolerated. */
    consoleDir: string
  }

/** Replies and the export carry some text; nothing the owner sends comes near this but a list to import (its routes set their own). */
const BODY_LIMIT = 256 * 1024
/** A request's head and body: an import's file arrives within it (docs/console.md). */
const REQUEST_TIMEOUT_MS = 10_000
/** A head is a few hundred bytes; a connection that takes longer is holding a place, not sending a request. */
const HEADERS_TIMEOUT_MS = 5_000
/**
 * An idle keep-alive connection: Fastify's figure, as on the public port, longer than a browser keeps one idle, so
 * that the server is not the side closing a connection the client is about to reuse.
 */
const KEEP_ALIVE_TIMEOUT_MS = 72_000
/**
 * A connection on which nothing moves either way (a client that stopped reading an answer). Longer than an import
 * may take (import/child.ts), which sends nothing while it works.
 */
const CONNECTION_TIMEOUT_MS = 6 * 60_000
/**
 * Connections at once: more than one owner's browser and a proxy's pool need; anything past it is refused at once
 * instead of costing memory and a file descriptor each (docs/decisions/031).
 */
export const MAX_CONNECTIONS = 256

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The console's pages (CONSOLE_PATHS but the sign-in page), each loaded by the inbox's loadPage. */
const PAGE_ROUTES = ['/', '/anfragen/:id', '/postausgang', '/uebersicht']

export async function buildAdminApp(config: Config, options: AdminAppOptions): Promise<ConsoleApp> {
  const { consoleDir, log, dnsUpdates, domainNotices, ...shared } = options
  const renderer = options.renderer ?? createConsoleRenderer(consoleDir)
  const fastify = Fastify({
    loggerInstance: log,
    // Its own setting, off unless set: the public port's proxy is not the console's, and the SSH tunnel connects
    // from 127.0.0.1 like a proxy on this machine, so trusting loopback would let a tunnel user write any address.
    trustProxy: fastifyTrustProxy(config.adminTrustProxy),
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks both timeouts only every connectionsCheckingInterval (30 s unless told): check every second.
    http: { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
    clientErrorHandler: answerClientError,
    schemaController: zodSchemas,
  })
  fastify.server.maxConnections = MAX_CONNECTIONS
  const app = decorateConsole(fastify, { ...shared, renderer, dnsUpdates: dnsUpdates ?? null, domainNotices: domainNotices ?? null })
  // The public page's policy (docs/decisions/006) without its hashes (the console has no inline style), and a nonce
  // per answer for its scripts: one person's page, off the hot path.
  addSecurityHeaders(app, pagePolicy(), { nonce: true })
  const hostNames = consoleHostNames(config)
  let untrustedProxyTold = false
  app.addHook('onRequest', async (request, reply) => {
    // Nothing of the console belongs in a cache, a shared one least of all; no page of it in a frame.
    // Through the reply, as the security headers (http/security-headers.ts): set on the raw response, they would
    // lose to the reply's own X-Frame-Options.
    reply.header('cache-control', 'no-store').header('x-frame-options', 'DENY')
    // Before anything else is looked at: a page of another name (DNS rebinding through the owner's tunnel) gets
    // nothing, not even a counted sign-in. The Host header itself, never X-Forwarded-Host: a proxy passes it on.
    if (!isConsoleHost(hostNames, request.headers.host)) {
      return reply.code(421).type('application/json; charset=utf-8').send({ error: TEXT.badHost })
    }
    // A proxy says the browser came over HTTPS, and nothing believes it: once, so that the owner learns why.
    if (config.adminTrustProxy === false && !untrustedProxyTold && request.headers['x-forwarded-proto'] !== undefined) {
      untrustedProxyTold = true
      request.log.warn(
        "console: a proxy sends X-Forwarded-Proto, but ADMIN_TRUST_PROXY is not set: the session cookie is not Secure and every sign-in counts as the proxy's; set ADMIN_TRUST_PROXY (docs/console.md)",
      )
    }
    // Before the session: another site must not even sign the owner in or out. A browser sends a custom header
    // cross-site only after a CORS preflight, which this app never allows.
    if (STATE_CHANGING.has(request.method) && (isCrossSite(request.headers) || request.headers[CONSOLE_HEADER] === undefined)) {
      return reply.code(403).type('application/json; charset=utf-8').send({ error: TEXT.crossSite })
    }
  })
  // Its onRequest hook parses the Cookie header before the session guard's reads it.
  await app.register(fastifyCookie)
  app.addHook('onRequest', (request, reply) => sessionGuard(app, request, reply))
  auditHooks(app)
  app.addHook('onSend', async (_request, reply) => {
    // A body refused for its size is not read to its end just to keep the connection: the place goes to the next.
    if (reply.statusCode === 413) reply.header('connection', 'close')
  })

  // Set before the routes' plugins are registered: each takes the error handler in force when it is made.
  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error))
  const assets = path.join(consoleDir, 'assets')
  if (fs.existsSync(assets)) {
    await app.register(fastifyStatic, { root: assets, prefix: '/assets/', index: false, preCompressed: true, cacheControl: false })
  }
  await app.register(sessionRoutes)
  await app.register(inboxRoutes)
  await app.register(statsRoutes)
  await app.register(dealRoutes)
  await app.register(salesRoutes)
  await app.register(paymentRoutes)
  await app.register(privacyRoutes)
  await app.register(importRoutes)
  await app.register(domainsRoutes)
  await app.register(domainCheckRoutes)
  await app.register(securityRoutes)
  await app.register(auditRoutes)
  for (const url of PAGE_ROUTES) {
    // The page's own data reads its query (inbox/route.ts): a path it does not know is the page "not found", not a 400.
    const params = url.includes(':id') ? { params: z.object({ id: z.string() }) } : {}
    app.get(url, { schema: { ...params, response: { 200: sentAsIs, 404: sentAsIs } } }, async (request, reply) => {
      const state = await loadPage(request)
      return state ? sendPage(reply, renderer, state) : sendPage(reply, renderer, { page: 'not-found' }, 404)
    })
  }

  // Reached only with a session (the guard answers first otherwise).
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.code(404).type('application/json; charset=utf-8').send({ error: TEXT.notFound })
    }
    return sendPage(reply, renderer, { page: 'not-found' }, 404)
  })
  const passkeyProblem = startupProblem(config)
  if (passkeyProblem) log.warn(passkeyProblem)
  return app
}
