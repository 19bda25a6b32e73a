// GET /og.png: the link-preview image of the request's host, drawn once per host and domains file and kept in memory.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { TEXT } from '../../shared/texts.ts'
import { HttpError } from '../http/errors.ts'
import type { Site, SiteResolver } from '../sites/resolver.ts'
import { formatPrice } from '../sites/settings.ts'
import { OG_IMAGE_PATH } from './head.ts'
import { ogImageSvg, renderOgImage } from './og-image.ts'
import type { PageView } from './view.ts'

/** Images kept (each at most 60 KB): the hosts most recently shared. */
const CACHE_SIZE = 256
/**
 * Images drawn at the same time. Hosts are whatever a Host header says (with `unknownHosts: page` every name gets a
 * page), so a flood of new names must not take every core: beyond this, 503 with Retry-After.
 */
const MAX_RENDERING = 4
const FOR_SALE = 'Diese Domain steht zum Verkauf'

interface OgImage {
  png: Buffer
  etag: string
}

function contentOf(site: Site) {
  const { price, currency = 'EUR', description } = site.settings
  return { name: site.host.display, ...(price !== undefined && { price: formatPrice(price, currency) }), text: description ?? FOR_SALE }
}

function createOgImages() {
  const cache = new Map<string, Promise<OgImage>>()
  let rendering = 0
  return {
    get(site: Site): Promise<OgImage> {
      const key = `${site.host.ascii}\n${site.host.display}\n${site.domainsConfig.version}`
      const hit = cache.get(key)
      if (hit) {
        cache.delete(key) // most recently used goes last
        cache.set(key, hit)
        return hit
      }
      if (rendering >= MAX_RENDERING) throw new HttpError(503, TEXT.unavailable, undefined, { 'retry-after': '5' })
      rendering++
      // The promise is cached at once, so concurrent requests for one host draw it once.
      const image = (async () => {
        try {
          const svg = await ogImageSvg(contentOf(site))
          const png = await renderOgImage(svg)
          return { png, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"` }
        } finally {
          rendering--
        }
      })()
      image.catch(() => cache.delete(key))
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
      cache.set(key, image)
      return image
    },
  }
}

export default async function ogImageRoutes(app: FastifyInstance, deps: { view: PageView; sites: SiteResolver }) {
  const { view, sites } = deps
  const images = createOgImages()
  app.get(OG_IMAGE_PATH, async (request, reply) => {
    const lookup = sites.lookup(request)
    switch (lookup.kind) {
      case 'invalid':
        return view.notice(reply, 400, TEXT.badRequest, TEXT.badHost)
      case 'unknown':
        return view.notice(reply, 404, TEXT.notFoundTitle, TEXT.unavailableDomain)
      case 'redirect':
        return reply.code(301).header('cache-control', 'no-store').redirect(lookup.location, 301)
    }
    const image = await images.get(lookup.site)
    reply
      .header('cache-control', 'public, max-age=86400')
      .header('etag', image.etag)
      // Link previews show it on other sites (the default for every answer is same-origin).
      .header('cross-origin-resource-policy', 'cross-origin')
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(image.etag)) return reply.code(304).send()
    return reply.type('image/png').send(image.png)
  })
}
