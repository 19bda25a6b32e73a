// GET /og.png: the link-preview image of the request's host, drawn once per host and domains file and kept in memory.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Language } from '../../shared/language.ts'
import { priceLine, priceText } from '../../shared/price-terms.ts'
import { TEXTS } from '../../shared/texts.ts'
import { HttpError } from '../http/errors.ts'
import { varyByLanguage, type AnswerLanguage } from '../sites/language.ts'
import type { Site } from '../sites/resolver.ts'
import { priceTermsOf } from '../sites/settings.ts'
import { OG_IMAGE_PATH } from './head.ts'
import { ogImageSvg, renderOgImage, type OgImageContent } from './og-image.ts'
import type { PageView } from './view.ts'

/** Images kept (each at most 60 KB): the hosts most recently shared. */
const CACHE_SIZE = 256
/**
 * Images drawn at the same time. Hosts are whatever a Host header says (with `unknownHosts: page` every name gets a
 * page), so a flood of new names must not take every core: beyond this, 503 with Retry-After.
 */
const MAX_RENDERING = 4

interface OgImage {
  png: Buffer
  etag: string
}

/**
 * What the image shows: the name, the price as the page words it (no amount when it is on request, none for a sold
 * name, as on the page), and the description.
 */
export function ogContentOf(site: Site, language: Language): OgImageContent {
  const text = TEXTS[language]
  const price = priceText(priceTermsOf(site.settings, language), language)
  return {
    name: site.host.display,
    ...(price && { price: priceLine(price) }),
    text: site.settings.description ?? (site.settings.status === 'sold' ? text.sold : text.imageText),
  }
}

/**
 * The image's language: the site's; with `language: auto` the one the page named in the image's URL (head.ts), so
 * the image does not depend on the Accept-Language of whoever fetches it, else the request's.
 */
function imageLanguage(site: Site, lang: unknown): AnswerLanguage {
  return site.variesByLanguage && (lang === 'de' || lang === 'en') ? { language: lang, variesByLanguage: false } : site
}

function createOgImages() {
  const cache = new Map<string, Promise<OgImage>>()
  let rendering = 0
  return {
    get(site: Site, language: Language): Promise<OgImage> {
      const key = `${site.host.ascii}\n${site.host.display}\n${language}\n${site.domainsConfig.version}`
      const hit = cache.get(key)
      if (hit) {
        cache.delete(key) // most recently used goes last
        cache.set(key, hit)
        return hit
      }
      if (rendering >= MAX_RENDERING) throw new HttpError(503, TEXTS[language].unavailable, undefined, { 'retry-after': '5' })
      rendering++
      // The promise is cached at once, so concurrent requests for one host draw it once.
      const image = (async () => {
        try {
          const svg = await ogImageSvg(ogContentOf(site, language))
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

export default async function ogImageRoutes(app: FastifyInstance, deps: { view: PageView }) {
  const { view } = deps
  const images = createOgImages()
  app.get<{ Querystring: { lang?: unknown } }>(OG_IMAGE_PATH, async (request, reply) => {
    const site = view.siteOf(request, reply)
    if (!site) return reply
    const answer = imageLanguage(site, request.query.lang)
    varyByLanguage(reply, answer)
    const image = await images.get(site, answer.language)
    reply
      .header('cache-control', 'public, max-age=86400')
      .header('etag', image.etag)
      // Link previews show it on other sites (the default for every answer is same-origin).
      .header('cross-origin-resource-policy', 'cross-origin')
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(image.etag)) return reply.code(304).send()
    return reply.type('image/png').send(image.png)
  })
}
