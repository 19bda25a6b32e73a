// The handlers of the buyer's deal page (route.ts registers its routes): loaded with the first request to one of
// them, not at the server's start (decision 063). With them come what only a deal page needs: the page's model, the
// GiroCode, the deal's steps and the invoice files.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PublicApp } from '../decorations.ts'
import { DEAL_TEXTS } from '../../shared/deal-texts.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { toFailure } from '../http/errors.ts'
import type { Site } from '../sites/resolver.ts'
import { StoreUnavailableError, type StoredDeal } from '../store/types.ts'
import { DEAL_PATH, readDealToken } from './link.ts'
import { dealPageProps, type PageState } from './page-model.ts'
import { dealKeyOf, openTransferCode } from './seal.ts'
import { cancelDeal, completeDeal, type DealStepContext } from './steps.ts'
import { invoiceFile } from '../invoice/files.ts'
import { invoiceAddressForm, saveInvoiceAddress } from '../invoice/address.ts'

export interface DealRouteOptions {
  /** Told when a deal completed here, so that this process shows the name as sold at once. */
  onCompleted?: (domain: string) => void
}

type TokenRequest = FastifyRequest<{ Params: { token: string }; Querystring: { rate?: unknown } }>
type InvoiceRequest = FastifyRequest<{ Params: { token: string; number: string } }>
type StepRequest = FastifyRequest<{ Params: { token: string }; Body: { action?: unknown; email?: unknown; [field: string]: unknown } | undefined }>

/** Addresses compared as people type them: trimmed, case-insensitive; by digest, in constant time. */
const addressDigest = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest()
const sameAddress = (typed: string, stored: string) => timingSafeEqual(addressDigest(typed), addressDigest(stored))

export function dealPageHandlers(app: PublicApp, options: DealRouteOptions) {
  const { secret, sites, view, store, outbox, config } = app
  const wordsOf = (request: FastifyRequest) => DEAL_TEXTS[sites.answerLanguage(request).language]

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
    const props = dealPageProps(deal, site, site.settings.mailTo ?? config.mailTo, `${DEAL_PATH}/${token}`, Date.now(), {
      ...state,
      invoices,
      ...(invoiceAddress && { invoiceAddress }),
    })
    return view.dealPage(reply, statusCode, props, DEAL_TEXTS[props.language].title(props.domain))
  }

  return {
    rateLimited: (request: FastifyRequest) => wordsOf(request).rateLimited,
    crossSite: (request: FastifyRequest) => wordsOf(request).crossSite,

    failed(error: unknown, request: FastifyRequest, reply: FastifyReply) {
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
    },

    async page(request: TokenRequest, reply: FastifyReply) {
      const site = siteOf(request, reply)
      if (!site) return reply
      const deal = await dealOf(site, request.params.token)
      if (!deal) return notFound(site, reply)
      // ?rate=N: the payment block (bank details, QR code) for that rate of the plan; only this deal's rates exist here.
      const rate = typeof request.query.rate === 'string' && /^\d{1,2}$/.test(request.query.rate) ? Number(request.query.rate) : undefined
      return show(reply, site, deal, request.params.token, 200, rate === undefined ? {} : { rate })
    },

    async invoice(request: InvoiceRequest, reply: FastifyReply) {
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

    async step(request: StepRequest, reply: FastifyReply) {
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
  }
}

export type DealPageHandlers = ReturnType<typeof dealPageHandlers>
