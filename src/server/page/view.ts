// What every HTML answer of the public site is made of: the landing page for the request's site (with a fresh
// token and, after a form sent without script, its outcome), or a notice. The page route, the contact route's
// answers to forms sent without script and the 404 handler all answer through here.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CheckoutPageProps, DealPageProps, DomainListProps, PageProps } from '../../client/page-props.ts'
import { priceText } from '../../shared/price-terms.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { TEXT } from '../../shared/texts.ts'
import { issueToken, TOKEN_WINDOW_MS } from '../http/form-token.ts'
import type { Site, SiteResolver } from '../sites/resolver.ts'
import { formatPrice, priceTermsOf } from '../sites/settings.ts'
import { GERMAN, varyByLanguage, type AnswerLanguage } from '../sites/language.ts'
import { confirmModeOf } from '../submission/confirmation.ts'
import { sellsAtFixedPrice } from '../sites/checkout-rules.ts'
import { acceptsGzip } from './gzip-splice.ts'
import { pageHeadFor, type PageHead } from './head.ts'
import { portfolioLinks } from '../portfolio/links.ts'
import type { VisitCounter } from '../visits/counter.ts'
import { createPreparedPages } from './prepared.ts'
import { pageCacheKey, type NoticeForm, type PageRenderer } from './render.ts'

export interface PageView {
  /**
   * Answers with the page for the request's host: the landing page with a fresh token, or a redirect, or the
   * neutral or 404 answer for hosts this server does not sell. `extra` carries the outcome of a form sent without
   * script.
   */
  page(request: FastifyRequest, reply: FastifyReply, statusCode?: number, extra?: Pick<PageProps, 'outcome' | 'values'>): FastifyReply
  /** A page without form in `answer`'s language (a site's, or GERMAN): its texts are the caller's, in that language. */
  notice(reply: FastifyReply, statusCode: number, answer: AnswerLanguage, title: string, text: string, form?: NoticeForm): FastifyReply
  legal(reply: FastifyReply, answer: AnswerLanguage, title: string, text: string): FastifyReply
  /**
   * The request's site, for the routes of a site's other files (og.png, robots.txt, /domains); null once it has
   * answered for a host without one as they all do: 400, 404 (also where `/` shows the neutral page) or the www redirect.
   */
  siteOf(request: FastifyRequest, reply: FastifyReply): Site | null
  /** The page of GET /domains of a host with a portfolio, in the site's language (`props.language`). */
  renderDomainList(props: DomainListProps): string
  /** Answers with a page renderDomainList made. */
  domainList(reply: FastifyReply, site: AnswerLanguage, html: string): FastifyReply
  /**
   * A buyer's deal page (/kauf/…), in the buyer's language (`title` too): never cached, never indexed. Answered once
   * the page's components are loaded, with the first such page (decision 063).
   */
  dealPage(reply: FastifyReply, statusCode: number, props: DealPageProps, title: string): Promise<FastifyReply>
  /** The checkout at the fixed price (/kaufen), in the site's language: never cached (it carries a token), never indexed. Loaded as the deal page. */
  checkoutPage(reply: FastifyReply, site: AnswerLanguage, statusCode: number, props: CheckoutPageProps): Promise<FastifyReply>
}

const HTML = 'text/html; charset=utf-8'

/**
 * What the page shows for a site besides the form: price terms, description, buy button, "So läuft der Kauf ab",
 * offer field and footer links. A reserved name keeps its price and steps but loses the buy button (a checkout
 * elsewhere would take money for a name promised to another buyer); a sold one shows neither price nor steps.
 */
function siteProps(site: Site): Pick<PageProps, 'listing' | 'buyUrl' | 'checkout' | 'howToBuy' | 'offer' | 'legal' | 'verify' | 'saleStatus' | 'portfolio'> {
  const { currency = 'EUR', description, minOffer, status, buyUrl, howToBuy } = site.settings
  const terms = priceTermsOf(site.settings, site.language)
  const listing = { ...terms, ...(description && { description }) }
  // An empty howToBuy in the file leaves the block out.
  const showsSteps = priceText(terms) !== undefined && howToBuy !== ''
  return {
    ...(Object.keys(listing).length > 0 && { listing }),
    ...(buyUrl !== undefined && status !== 'reserved' && status !== 'sold' && { buyUrl }),
    ...(sellsAtFixedPrice(site) && { checkout: true as const }),
    ...(showsSteps && { howToBuy: howToBuy === undefined ? {} : { text: howToBuy } }),
    ...(minOffer !== undefined && { offer: { currency, minimum: formatPrice(minOffer, currency, site.language) } }),
    ...(Object.keys(site.legal).length > 0 && { legal: site.legal }),
    ...(confirmModeOf(site) === 'verify' && { verify: true }),
    ...((status === 'reserved' || status === 'sold') && { saleStatus: status }),
    ...portfolioLinks(site),
  }
}

/**
 * What a site's page is made of besides its token: the same for every request of a host, in a language, until the
 * domains file reloads (a new DomainsConfig) or the name's sale status changes. Made once and kept, with the
 * renderer's cache key: building the props, the head and the key for every request was a measured share of GET /
 * (docs/decisions/034-request-path.md).
 */
interface PageBase {
  props: Omit<PageProps, 'token' | 'hash'>
  head: PageHead
  key: string
  /** The prepared answer's key: the renderer's with the host whose token the page carries. */
  preparedKey: string
  /** The page's headers, made once: plain, and with gzip. */
  headers: { plain: Record<string, string>; gzip: Record<string, string> }
}
/** Hosts whose page base a domains configuration keeps; the oldest goes first beyond it (a spray of hosts). */
const PAGE_BASES_PER_LOAD = 2000

export function createPageView(deps: { secret: string; renderer: PageRenderer; sites: SiteResolver; visits: VisitCounter }): PageView {
  const { secret, renderer, sites, visits } = deps
  const bases = new WeakMap<Site['domainsConfig'], Map<string, PageBase>>()
  const prepared = createPreparedPages()

  function baseOf(site: Site): PageBase {
    let perLoad = bases.get(site.domainsConfig)
    if (!perLoad) bases.set(site.domainsConfig, (perLoad = new Map()))
    const id = `${site.host.ascii} ${site.host.display} ${site.language} ${site.variesByLanguage} ${site.settings.status ?? ''}`
    let base = perLoad.get(id)
    if (!base) {
      const props = { host: site.host.display, language: site.language, ...siteProps(site) }
      const head = pageHeadFor(site)
      const key = pageCacheKey(props, head)
      // A token is shared by everyone who loads the page in its second and valid for a day: a stored copy gives
      // nothing away, and `no-cache` makes every use ask again (decision 056).
      const plain = { 'content-type': HTML, 'cache-control': 'no-cache', vary: site.variesByLanguage ? 'Accept-Encoding, Accept-Language' : 'Accept-Encoding' }
      base = { props, head, key, preparedKey: `${site.host.ascii}\n${key}`, headers: { plain, gzip: { ...plain, 'content-encoding': 'gzip' } } }
      if (perLoad.size >= PAGE_BASES_PER_LOAD) perLoad.delete(perLoad.keys().next().value!)
      perLoad.set(id, base)
    }
    return base
  }

  function notice(reply: FastifyReply, statusCode: number, answer: AnswerLanguage, title: string, text: string, form?: NoticeForm) {
    const home = statusCode === 404 ? { href: '/', label: TEXTS[answer.language].backHome } : undefined
    return varyByLanguage(reply.code(statusCode).type(HTML).header('cache-control', 'no-store'), answer).send(
      renderer.notice(answer.language, title, text, home, form),
    )
  }

  return {
    page(request, reply, statusCode = 200, extra = {}) {
      const lookup = sites.lookup(request)
      switch (lookup.kind) {
        case 'invalid':
          return notice(reply, 400, GERMAN, TEXT.badRequest, TEXT.badHost)
        case 'unknown':
          return lookup.answer === 'neutral'
            ? // The sentence is the whole page: as its heading, once.
              notice(reply, 200, GERMAN, TEXT.unavailableDomain, '')
            : notice(reply, 404, GERMAN, TEXT.notFoundTitle, TEXT.unavailableDomain)
        case 'redirect':
          return reply.code(301).header('cache-control', 'no-store').redirect(lookup.location, 301)
      }
      const { site } = lookup
      const base = baseOf(site)
      const gzip = acceptsGzip(request.headers['accept-encoding'])
      if (statusCode !== 200 || extra.outcome !== undefined || extra.values !== undefined) {
        // The answer to a form sent without script: it carries the visitor's input, made for this answer alone.
        const { token, signedIssueTime } = issueToken(secret, site.host.ascii)
        const page = renderer.page({ ...base.props, token, hash: signedIssueTime, ...extra }, gzip, base.head, base.key)
        if (page.encoding) reply.header('content-encoding', page.encoding)
        reply.code(statusCode).type(HTML).header('cache-control', 'no-store').header('vary', 'Accept-Encoding')
        return varyByLanguage(reply, site).send(page.body)
      }
      // The owner's own look through `….localhost` is no visit.
      if ((request.method === 'GET' || request.method === 'HEAD') && !site.preview) visits.page(request, site.host.ascii)
      // The same bytes for every request of this second (decision 056): prepared at its first.
      const second = Math.floor(Date.now() / TOKEN_WINDOW_MS)
      const page = prepared.get(base.preparedKey, second, gzip, (zip) => {
        const { token, signedIssueTime } = issueToken(secret, site.host.ascii, second * TOKEN_WINDOW_MS)
        const { body } = renderer.page({ ...base.props, token, hash: signedIssueTime }, zip, base.head, base.key)
        return typeof body === 'string' ? Buffer.from(body) : body
      })
      if (request.headers['if-none-match'] === page.etag) return reply.code(304).headers(base.headers.plain).header('etag', page.etag).send()
      return reply
        .code(200)
        .headers(gzip ? base.headers.gzip : base.headers.plain)
        .header('etag', page.etag)
        .send(gzip ? page.gzip : page.plain)
    },
    notice,
    legal(reply, answer, title, text) {
      return varyByLanguage(reply.code(200).type(HTML).header('cache-control', 'no-cache'), answer).send(renderer.legal(answer.language, title, text))
    },
    siteOf(request, reply) {
      const lookup = sites.lookup(request)
      switch (lookup.kind) {
        case 'invalid':
          notice(reply, 400, GERMAN, TEXT.badRequest, TEXT.badHost)
          return null
        case 'unknown':
          notice(reply, 404, GERMAN, TEXT.notFoundTitle, TEXT.unavailableDomain)
          return null
        case 'redirect':
          reply.code(301).header('cache-control', 'no-store').redirect(lookup.location, 301)
          return null
      }
      return lookup.site
    },
    async dealPage(reply, statusCode, props, title) {
      const html = await renderer.dealPage(props, title)
      return reply.code(statusCode).type(HTML).header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow').send(html)
    },
    async checkoutPage(reply, site, statusCode, props) {
      const html = await renderer.checkoutPage(props, TEXTS[props.language].checkoutTitle(props.host))
      return varyByLanguage(reply.code(statusCode).type(HTML).header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow'), site).send(html)
    },
    renderDomainList: (props) => renderer.domainList(props),
    domainList(reply, site, html) {
      return varyByLanguage(reply.code(200).type(HTML).header('cache-control', 'no-cache'), site).send(html)
    },
  }
}
