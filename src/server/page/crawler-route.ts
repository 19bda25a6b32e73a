// /robots.txt and /sitemap.xml of the request's host: crawlers may read every page of a name for sale, and the
// sitemap names its one page (none for a `noindex: true` name, whose page asks not to be indexed, nor a sold one). robots.txt never
// disallows a noindex page: a crawler must be able to read the page to see that it asks not to be indexed.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Site } from '../sites/resolver.ts'
import { escapeHtml } from '../../shared/html.ts'
import { pageHeadFor } from './head.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

/** A sold name's page is no longer a page for sale: the sitemap leaves it out (docs/deals.md). */
const listed = (site: Site) => !pageHeadFor(site).noindex && site.settings.status !== 'sold'

function robotsTxt(site: Site): string {
  const head = pageHeadFor(site)
  return ['User-agent: *', 'Allow: /', ...(listed(site) ? [`Sitemap: ${head.url}sitemap.xml`] : []), ''].join('\n')
}

function sitemapXml(site: Site): string {
  const head = pageHeadFor(site)
  const urls = listed(site) ? [head.url] : []
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => `  <url><loc>${escapeHtml(url)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n')
}

export default async function crawlerRoutes(app: PublicApp) {
  const { view } = app
  function answer(request: FastifyRequest, reply: FastifyReply, type: string, body: (site: Site) => string) {
    const site = view.siteOf(request, reply)
    return site ? reply.type(type).header('cache-control', 'public, max-age=3600').send(body(site)) : reply
  }
  const schema = { response: { 200: sentAsIs } }
  app.get('/robots.txt', { schema }, (request, reply) => answer(request, reply, 'text/plain; charset=utf-8', robotsTxt))
  app.get('/sitemap.xml', { schema }, (request, reply) => answer(request, reply, 'application/xml; charset=utf-8', sitemapXml))
}
