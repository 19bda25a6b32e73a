import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../../client/page-props.ts'
import { formatPrice } from '../sites/settings.ts'
import { acceptsGzip } from './gzip-splice.ts'
import type { PageViewCounter } from './page-views.ts'
import type { PageRenderer } from './render.ts'
import type { Site, SiteResolver } from '../sites/resolver.ts'
import type { TlsApprovals } from '../sites/tls-check.ts'
import { issueToken } from '../contact/token.ts'

export interface PageDeps {
  secret: string
  renderer: PageRenderer
  sites: SiteResolver
  pageViews: PageViewCounter
  tls: TlsApprovals
}

const HTML = 'text/html; charset=utf-8'

export function sendNotice(reply: FastifyReply, renderer: PageRenderer, statusCode: number, title: string, text: string) {
  return reply
    .code(statusCode)
    .type(HTML)
    .header('cache-control', 'no-store')
    .send(renderer.notice(title, text, statusCode === 404 ? { href: '/', label: TEXT.backHome } : undefined))
}

/** What the page shows for a site besides the form: price, description, offer field and footer links. */
function siteProps(site: Site): Pick<PageProps, 'listing' | 'offer' | 'legal'> {
  const { price, currency = 'EUR', description, minOffer } = site.settings
  const listing = {
    ...(price !== undefined && { price: formatPrice(price, currency) }),
    ...(description && { description }),
  }
  return {
    ...(Object.keys(listing).length > 0 && { listing }),
    ...(minOffer !== undefined && { offer: { currency, minimum: formatPrice(minOffer, currency) } }),
    ...(Object.keys(site.legal).length > 0 && { legal: site.legal }),
  }
}

/**
 * Answers with the page for the request's host: the landing page with a fresh token, or a redirect, or the neutral
 * or 404 answer for hosts this server does not sell. `extra` carries the outcome of a form sent without script.
 */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PageDeps,
  statusCode = 200,
  extra: Pick<PageProps, 'outcome' | 'values'> = {},
) {
  const lookup = deps.sites.lookup(request)
  switch (lookup.kind) {
    case 'invalid':
      return sendNotice(reply, deps.renderer, 400, TEXT.badRequest, TEXT.badHost)
    case 'unknown':
      return lookup.answer === 'neutral'
        ? sendNotice(reply, deps.renderer, 200, TEXT.unavailableDomain, TEXT.unavailableDomain)
        : sendNotice(reply, deps.renderer, 404, TEXT.notFoundTitle, TEXT.unavailableDomain)
    case 'redirect':
      return reply.code(301).header('cache-control', 'no-store').redirect(lookup.location, 301)
  }
  const { site } = lookup
  const { token, signedIssueTime } = issueToken(deps.secret, site.host.ascii)
  const props: PageProps = { host: site.host.display, token, hash: signedIssueTime, ...siteProps(site), ...extra }
  if (statusCode === 200 && request.method === 'GET') deps.pageViews.count(site.host.ascii)
  const page = deps.renderer.page(props, reply.cspNonce, acceptsGzip(request.headers['accept-encoding']))
  if (page.encoding) reply.header('content-encoding', page.encoding)
  // Every page carries a fresh single-use token, so no cache may keep it.
  return reply.code(statusCode).type(HTML).header('cache-control', 'no-store').header('vary', 'Accept-Encoding').send(page.body)
}

export default async function pageRoutes(app: FastifyInstance, deps: PageDeps) {
  app.get<{ Querystring: { gesendet?: string } }>('/', async (request, reply) => {
    // Where a form sent without JavaScript lands after success (post/redirect/get).
    const sent = request.query.gesendet === '1'
    return sendPage(request, reply, deps, 200, sent ? { outcome: { status: 'success' } } : {})
  })

  // The owner's own Impressum and Datenschutzerklärung, when their texts are configured.
  for (const [path, kind, title] of [
    ['/impressum', 'imprint', TEXT.imprint],
    ['/datenschutz', 'privacy', TEXT.privacy],
  ] as const) {
    app.get(path, async (request, reply) => {
      const lookup = deps.sites.lookup(request)
      const text = lookup.kind === 'site' ? deps.sites.legalText(kind, lookup.site) : undefined
      if (!text) return sendNotice(reply, deps.renderer, 404, TEXT.notFoundTitle, TEXT.notFound)
      return reply.code(200).type(HTML).header('cache-control', 'no-cache').send(deps.renderer.legal(title, text))
    })
  }

  // Caddy's on-demand TLS asks here before it requests a certificate: only for domains this server sells.
  app.get<{ Querystring: { domain?: string } }>('/tls-check', async (request, reply) => {
    const allowed = typeof request.query.domain === 'string' && (await deps.tls.approve(request.query.domain))
    return reply.code(allowed ? 200 : 404).header('cache-control', 'no-store').send(allowed ? 'ok' : 'unknown domain')
  })
}
