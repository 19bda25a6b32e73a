// GET and POST /kaufen: the checkout at the fixed price (docs/deals.md, decision 035). A checkout is stored as an
// inquiry of kind 'checkout' at the file's price, with the owner's mail and webhooks in the same transaction, before
// the buyer is told anything; the owner confirms it (a deal, as "Annehmen" makes one) or declines it. It is the
// contact form's sibling: signed token, decoys, minimum fill time, rate limits, same origin, no script needed.
//
// This file registers the routes; their handlers are in handlers.ts, loaded by the first request to /kaufen
// (decision 063): each route's first hook waits for that module, so its handler and error handler find it loaded.
import formbody from '@fastify/formbody'
import type { PublicApp } from '../decorations.ts'
import { CHECKOUT_PATH } from '../../shared/checkout.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError } from '../http/errors.ts'
import { onFirstUse } from '../http/on-first-use.ts'
import { refuseCrossSite } from '../http/same-origin.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import { everyPostLimit } from '../submission/accept.ts'
import type { CheckoutHandlers } from './handlers.ts'

const BODY_LIMIT = 16 * 1024

export default async function checkoutRoutes(app: PublicApp) {
  const { config, sites } = app
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  await app.register(formbody, { bodyLimit: BODY_LIMIT })
  // The checkout is a form: nothing but urlencoded bodies (the contact route's parsers are its own plugin's).
  app.removeContentTypeParser('text/plain')
  app.removeContentTypeParser('application/json')
  const load = onFirstUse(async () => (await import('./handlers.ts')).checkoutHandlers(app, clientKey))
  let handlers: CheckoutHandlers | undefined
  const loaded = async () => {
    handlers ??= await load()
  }
  // An error before the module was loaded (the load itself failed) still gets the checkout's answer if it loads now.
  app.setErrorHandler(async (error, request, reply) => (handlers ?? (await load())).failed(error, request, reply))

  // Pages, also for what is wrong in the form (sentAsIs: strings reach no serializer); the body is read by checkCheckout.
  const schema = { response: { '2xx': sentAsIs, '3xx': sentAsIs, '4xx': sentAsIs } }
  app.get<{ Querystring: { gesendet?: string } }>(CHECKOUT_PATH, { onRequest: loaded, schema }, (request, reply) => handlers!.form(request, reply))

  const everyPost = everyPostLimit(
    config.contactRateLimit,
    'checkout-posts',
    clientKey,
    (request) => new HttpError(429, TEXTS[sites.answerLanguage(request).language].rateLimited),
  )
  // Another site's posts are refused before they count against the buyer's posts (http/same-origin.ts).
  const crossSite = refuseCrossSite((request) => TEXTS[sites.answerLanguage(request).language].crossSite)
  app.post(CHECKOUT_PATH, { bodyLimit: BODY_LIMIT, onRequest: [loaded, crossSite], config: everyPost, schema }, (request, reply) =>
    handlers!.handle(request, reply),
  )
}
