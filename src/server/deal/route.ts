// GET and POST /kauf/<token>: the buyer's deal page (docs/deals.md, decision 033). Every token that is not one of
// ours for a deal of this host (malformed, forged, erased, another host's) gets the same 404, after the same work.
// The page's steps (cancel before paying, reveal the transfer code, "Domain erhalten") are plain forms posted back
// to the page: same origin only, rate-limited per client address, answered with the page again.
import { createHash, timingSafeEqual } from 'node:crypto'
import formbody from '@fastify/formbody'
import { z } from 'zod'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PublicApp } from '../decorations.ts'
import { DEAL_TEXTS } from '../../shared/deal-texts.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError, toFailure } from '../http/errors.ts'
import { refuseCrossSite } from '../http/same-origin.ts'
import type { Site } from '../sites/resolver.ts'
import { StoreUnavailableError, type StoredDeal } from '../store/types.ts'
import { DEAL_PATH, readDealToken } from './link.ts'
import { dealPageProps, type PageState } from './page-model.ts'
import { dealKeyOf, openTransferCode } from './seal.ts'
import { cancelDeal, completeDeal, type DealStepContext } from './steps.ts'
import { invoiceFile } from '../invoice/files.ts'
import { invoiceAddressForm, saveInvoiceAddress } from '../invoice/address.ts'
import { sentAsIs } from '../http/zod-schemas.ts'

interface DealRouteOptions {
  /** Told when a deal completed here, so that this process shows the name as sold at once. */
  onCompleted?: (domain: string) => void
}

const HOUR_MS = 60 * 60 * 1000
/** Page views per client address and hour, as a multiple of CONTACT_RATE_LIMIT (as the confirm link's). */
const VIEW_FACTOR = 10

/** Addresses compared as people type them: trimmed, case-insensitive; by digest, in constant time. */
const addressDigest = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest()
const sameAddress = (typed: string, stored: string) => timingSafeEqual(addressDigest(typed), addressDigest(stored))

const dealPageRoutes = async (app: PublicApp, options: DealRouteOptions) => {
  const { secret, sites, view, store, outbox, config } = app
  // Room for the invoice address's fields (decision 038), each a line of up to 200 characters.
  await app.register(formbody, { bodyLimit: 8192 })
  app.setErrorHandler((error, request, reply) => {
    const answer = sites.answerLanguage(request)
    const failure = toFailure(error, TEXTS[answer.language])
    if (failure.statusCode >= 500 && !(error instanceof StoreUnavailableError)) request.log.error({ err: error }, 'request failed')
    const words = DEAL_TEXTS[answer.language]
    return view.notice(
      reply.headers(failure.headers).header('x-robots-tag', 'noindex, nofollow'),
      failure.statusCode,
      answer,
      words.notFoundTitle,
      failure.body.error,
    )
  })

  const notFound = (site: Site, reply: FastifyReply) => {
    const words = DEAL_TEXTS[site.language]
    return view.notice(reply.header('x-robots-tag', 'noindex, nofollow'), 404, site, words.notFoundTitle, words.notFound)
  }

  /** The deal the token stands for on this site, or null (answered with the one 404). */
  async function dealOf(site: Site, token: unknown): Promise<StoredDeal | null> {
    const linkHash = readDealToken(secret, token)
    if (linkHash === null) return null
    const deal = await store.dealByLink(linkHash)
    return deal && deal.domain === site.host.ascii ? deal : null
  }

  function siteOf(request: FastifyRequest, reply: FastifyReply): Site | null {
    const lookup = sites.lookup(request)
    if (lookup.kind === 'site') return lookup.site
    void view.page(request, reply)
    return null
  }

  const show = async (reply: FastifyReply, site: Site, deal: StoredDeal, token: string, statusCode = 200, state: PageState = {}) => {
    const invoices = await store.dealInvoices(deal.id)
    const invoiceAddress = state.invoiceAddress ?? (await invoiceAddressForm({ store, config }, deal, invoices))
    return view.dealPage(
      reply,
      statusCode,
      dealPageProps(deal, site, site.settings.mailTo ?? config.mailTo, `${DEAL_PATH}/${token}`, Date.now(), {
        ...state,
        invoices,
        ...(invoiceAddress && { invoiceAddress }),
      }),
    )
  }

  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  const limit = (groupId: string, max: number) =>
    config.contactRateLimit > 0
      ? {
          rateLimit: {
            groupId,
            max,
            timeWindow: HOUR_MS,
            keyGenerator: clientKey,
            errorResponseBuilder: (request: FastifyRequest) => new HttpError(429, DEAL_TEXTS[sites.answerLanguage(request).language].rateLimited),
          },
        }
      : {}

  // Pages and the invoice's PDF, whatever was sent (sentAsIs: strings and Buffers reach no serializer); a link that is
  // not one gets the same page as a forged one, so the params are any text and the handlers read them.
  const pages = { '2xx': sentAsIs, '3xx': sentAsIs, '4xx': sentAsIs }
  app.get<{ Params: { token: string }; Querystring: { rate?: unknown } }>(
    `${DEAL_PATH}/:token`,
    { config: limit('deal-pages', config.contactRateLimit * VIEW_FACTOR), schema: { params: z.object({ token: z.string() }), response: pages } },
    async (request, reply) => {
      const site = siteOf(request, reply)
      if (!site) return reply
      const deal = await dealOf(site, request.params.token)
      if (!deal) return notFound(site, reply)
      // ?rate=N: the payment block (bank details, QR code) for that rate of the plan; only this deal's rates exist here.
      const rate = typeof request.query.rate === 'string' && /^\d{1,2}$/.test(request.query.rate) ? Number(request.query.rate) : undefined
      return show(reply, site, deal, request.params.token, 200, rate === undefined ? {} : { rate })
    },
  )

  // The deal's invoices (decision 038), by their number, only under the deal's own link: another deal's number gets
  // the same 404 as a forged link. Never cached anywhere: the link is the only key.
  app.get<{ Params: { token: string; number: string } }>(
    `${DEAL_PATH}/:token/rechnung/:number`,
    {
      config: limit('deal-pages', config.contactRateLimit * VIEW_FACTOR),
      schema: { params: z.object({ token: z.string(), number: z.string() }), response: pages },
    },
    async (request, reply) => {
      const site = siteOf(request, reply)
      if (!site) return reply
      const deal = await dealOf(site, request.params.token)
      const number = /^\d{1,15}$/.test(request.params.number) ? Number(request.params.number) : null
      const listed = deal && number !== null ? (await store.dealInvoices(deal.id)).find((invoice) => invoice.number === number) : undefined
      const file = listed && (await invoiceFile(store, listed.id))
      if (!file) return notFound(site, reply.header('cache-control', 'no-store'))
      return reply
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.pdf)
    },
  )

  // Every POST of the page counts, the e-mail check's above all: a few tries per hour are plenty for a buyer who
  // mistyped. Another site's posts are refused before they count (the route's own onRequest runs before the rate
  // limit's): a page the buyer opens elsewhere could send them from the buyer's address and use up the buyer's steps.
  const crossSite = refuseCrossSite((request) => DEAL_TEXTS[sites.answerLanguage(request).language].crossSite)
  app.post<{ Params: { token: string }; Body: { action?: unknown; email?: unknown; [field: string]: unknown } | undefined }>(
    `${DEAL_PATH}/:token`,
    {
      onRequest: crossSite,
      config: limit('deal-steps', config.contactRateLimit),
      schema: { params: z.object({ token: z.string() }), response: pages },
    },
    async (request, reply) => {
      const site = siteOf(request, reply)
      if (!site) return reply
      const { token } = request.params
      const deal = await dealOf(site, token)
      if (!deal) return notFound(site, reply)
      const context: DealStepContext = { store, config, domains: site.domainsConfig }
      const now = Date.now()
      const again = () => reply.code(303).header('cache-control', 'no-store').redirect(`${DEAL_PATH}/${token}`, 303)
      switch (request.body?.action) {
        case 'reveal': {
          const typed = typeof request.body.email === 'string' ? request.body.email.slice(0, 254) : ''
          const sealed = deal.hasTransferCode ? await store.dealTransferCode(deal.id) : null
          if (sealed === null || (deal.status !== 'transferred' && deal.status !== 'completed')) return again()
          if (!sameAddress(typed, deal.buyer.email)) {
            request.log.info({ deal: deal.id }, 'transfer code: the address did not match')
            return show(reply, site, deal, token, 400, { wrongEmail: true, email: typed })
          }
          const code = openTransferCode(dealKeyOf(config), deal.id, sealed)
          if (code === null) throw new Error(`the transfer code of deal ${deal.id} does not open with this deal key (DEAL_KEY or DATA_DIR/deal-key)`)
          request.log.info({ deal: deal.id }, 'transfer code shown to the buyer')
          return show(reply, site, deal, token, 200, { shownCode: code })
        }
        case 'cancel': {
          const result = await cancelDeal(context, deal.id, 'buyer', '', now)
          if (result.status === 'done') {
            outbox.kick()
            request.log.info({ deal: deal.id }, 'deal cancelled by the buyer')
          }
          return again()
        }
        case 'received': {
          const result = await completeDeal(context, deal.id, 'buyer', now)
          if (result.status === 'done') {
            outbox.kick()
            options.onCompleted?.(deal.domain)
            request.log.info({ deal: deal.id, domain: deal.domain }, 'deal completed: the buyer received the domain')
          }
          return again()
        }
        case 'address': {
          const outcome = await saveInvoiceAddress({ store, config }, deal, request.body)
          if (outcome.status === 'invalid') return show(reply, site, deal, token, 400, { invoiceAddress: outcome.form })
          if (outcome.status === 'done') request.log.info({ deal: deal.id }, 'invoice address given by the buyer')
          return again()
        }
        default:
          return again()
      }
    },
  )
}

export default dealPageRoutes
