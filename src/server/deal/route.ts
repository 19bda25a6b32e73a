// GET and POST /kauf/<token>: the buyer's deal page (docs/deals.md, decision 033). Every token that is not one of
// ours for a deal of this host (malformed, forged, erased, another host's) gets the same 404, after the same work.
// The page's steps (cancel before paying, reveal the transfer code, "Domain erhalten") are plain forms posted back
// to the page: same origin only, rate-limited per client address, answered with the page again.
//
// This file registers the routes; their handlers are in page-handlers.ts, loaded by the first request to any of them
// (decision 063): a route's first hook waits for that module, so everything after it (the cross-site check, the rate
// limit's answer, the handler, the error handler) finds it loaded.
import formbody from '@fastify/formbody'
import { z } from 'zod'
import type { FastifyRequest } from 'fastify'
import type { PublicApp } from '../decorations.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError } from '../http/errors.ts'
import { onFirstUse } from '../http/on-first-use.ts'
import { refuseCrossSite } from '../http/same-origin.ts'
import { DEAL_PATH } from './link.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { DealPageHandlers, DealRouteOptions } from './page-handlers.ts'

const HOUR_MS = 60 * 60 * 1000
/** Page views per client address and hour, as a multiple of CONTACT_RATE_LIMIT (as the confirm link's). */
const VIEW_FACTOR = 10

const dealPageRoutes = async (app: PublicApp, options: DealRouteOptions) => {
  const { config } = app
  // Room for the invoice address's fields (decision 038), each a line of up to 200 characters.
  await app.register(formbody, { bodyLimit: 8192 })
  const load = onFirstUse(async () => (await import('./page-handlers.ts')).dealPageHandlers(app, options))
  let handlers: DealPageHandlers | undefined
  const loaded = async () => {
    handlers ??= await load()
  }
  // An error before the module was loaded (the load itself failed) still gets the page's answer if it loads now.
  app.setErrorHandler(async (error, request, reply) => (handlers ?? (await load())).failed(error, request, reply))

  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  const limit = (groupId: string, max: number) =>
    config.contactRateLimit > 0
      ? {
          rateLimit: {
            groupId,
            max,
            timeWindow: HOUR_MS,
            keyGenerator: clientKey,
            errorResponseBuilder: (request: FastifyRequest) => new HttpError(429, handlers!.rateLimited(request)),
          },
        }
      : {}

  // Pages and the invoice's PDF, whatever was sent (sentAsIs: strings and Buffers reach no serializer); a link that is
  // not one gets the same page as a forged one, so the params are any text and the handlers read them.
  const pages = { '2xx': sentAsIs, '3xx': sentAsIs, '4xx': sentAsIs }
  app.get<{ Params: { token: string }; Querystring: { rate?: unknown } }>(
    `${DEAL_PATH}/:token`,
    {
      onRequest: loaded,
      config: limit('deal-pages', config.contactRateLimit * VIEW_FACTOR),
      schema: { params: z.object({ token: z.string() }), response: pages },
    },
    (request, reply) => handlers!.page(request, reply),
  )

  // The deal's invoices (decision 038), by their number, only under the deal's own link: another deal's number gets
  // the same 404 as a forged link. Never cached anywhere: the link is the only key.
  app.get<{ Params: { token: string; number: string } }>(
    `${DEAL_PATH}/:token/rechnung/:number`,
    {
      onRequest: loaded,
      config: limit('deal-pages', config.contactRateLimit * VIEW_FACTOR),
      schema: { params: z.object({ token: z.string(), number: z.string() }), response: pages },
    },
    (request, reply) => handlers!.invoice(request, reply),
  )

  // Every POST of the page counts, the e-mail check's above all: a few tries per hour are plenty for a buyer who
  // mistyped. Another site's posts are refused before they count (the route's own onRequest runs before the rate
  // limit's): a page the buyer opens elsewhere could send them from the buyer's address and use up the buyer's steps.
  const crossSite = refuseCrossSite((request) => handlers!.crossSite(request))
  app.post<{ Params: { token: string }; Body: { action?: unknown; email?: unknown; [field: string]: unknown } | undefined }>(
    `${DEAL_PATH}/:token`,
    {
      onRequest: [loaded, crossSite],
      config: limit('deal-steps', config.contactRateLimit),
      schema: { params: z.object({ token: z.string() }), response: pages },
    },
    (request, reply) => handlers!.step(request, reply),
  )
}

export default dealPageRoutes
