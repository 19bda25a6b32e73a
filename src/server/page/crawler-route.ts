// /robots.txt and /sitemap.xml of the request's host: crawlers may read every page of a name for sale, and the
// sitemap names its one page (none for a `noindex: true` name, whose page asks not to be indexed). robots.txt never
// disallows a noindex page: a crawler must be able to read the page to see that it asks not to be indexed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TEXT } from '../../shared/texts.ts'
import { GERMAN } from '../sites/language.ts'
import type { Site, SiteResolver } from '../sites/resolver.ts'
import { escapeHtml } from '../../shared/html.ts'
import { pageHeadFor } from './head.ts'
import type { PageView } from './view.ts'

function robotsTxt(site: Site): string {
  const head = pageHeadFor(site)
  return ['User-agent: *', 'Allow: /', ...(head.noindex ? [] : [`Sitemap: ${head.url}sitemap.xml`]), ''].join('\n')
}

function sitemapXml(site: Site): string {
  const head = pageHeadFor(site)
  const urls = head.noindex ? [] : [head.url]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => `  <url><loc>${escapeHtml(url)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n')
}

export default async function crawlerRoutes(app: FastifyInstance, deps: { view: PageView; sites: SiteResolver }) {
  const { view, sites } = deps
  // The same answers as the page for hosts without one: 400, 404 or the www redirect.
  function answer(request: FastifyRequest, reply: FastifyReply, type: string, body: (site: Site) => string) {
    const lookup = sites.lookup(request)
    switch (lookup.kind) {
      case 'invalid':
        return view.notice(reply, 400, GERMAN, TEXT.badRequest, TEXT.badHost)
      case 'unknown':
        return view.notice(reply, 404, GERMAN, TEXT.notFoundTitle, TEXT.unavailableDomain)
      case 'redirect':
        return reply.code(301).header('cache-control', 'no-store').redirect(lookup.location, 301)
    }
    return reply.type(type).header('cache-control', 'public, max-age=3600').send(body(lookup.site))
  }
  app.get('/robots.txt', (request, reply) => answer(request, reply, 'text/plain; charset=utf-8', robotsTxt))
  app.get('/sitemap.xml', (request, reply) => answer(request, reply, 'application/xml; charset=utf-8', sitemapXml))
}
