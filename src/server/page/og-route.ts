// GET /og.png: the link-preview image of the request's host, drawn once per host and domains file and kept in memory.
import { createHash } from 'node:crypto'
import { isLanguage, type Language } from '../../shared/language.ts'
import { priceLine, priceText } from '../../shared/price-terms.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError, sendFailure } from '../http/errors.ts'
import { createWorkBudget, type WorkBudget } from '../http/work-budget.ts'
import { languagesOf, varyByLanguage, type AnswerLanguage } from '../sites/language.ts'
import { byteLruCache } from '../sites/lru.ts'
import type { Site } from '../sites/resolver.ts'
import { priceTermsOf } from '../sites/settings.ts'
import { OG_IMAGE_PATH } from './head.ts'
import { createOgDrawer, type OgDrawer } from './og-drawer.ts'
import type { OgImageContent } from './og-image.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

/** What the images kept may take together (an image is 30 to 60 KB: a few hundred of the hosts shared last). */
const CACHE_BYTES = 16 * 2 ** 20
/** What an image being drawn is counted as until it is done: the most one may take. */
const DRAWING_BYTES = 64 * 1024
/**
 * Images drawn at the same time (by one worker thread, og-drawer.ts, so that a drawing takes one core at most), and
 * drawings waiting for their turn; more are refused with 503 and Retry-After: hosts are whatever a Host header says
 * (with `unknownHosts: page` every name gets a page).
 */
const DRAWING = 1
const WAITING = 8

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
  return site.variesByLanguage && isLanguage(lang) && languagesOf(site.settings).includes(lang) ? { language: lang, variesByLanguage: false } : site
}

/**
 * The images, drawn once per host, language and domains file and kept in a cache bounded by bytes. A drawing (not a
 * kept image) takes one unit of the asking client's budget and waits for its turn.
 */
export function createOgImages({ budget, drawer, cacheBytes = CACHE_BYTES }: { budget: WorkBudget; drawer: OgDrawer; cacheBytes?: number }) {
  const cache = byteLruCache<string, Promise<OgImage>>(cacheBytes)
  let drawing = 0
  const waiting: (() => void)[] = []
  const turn = async () => {
    if (drawing < DRAWING) drawing++
    else await new Promise<void>((resolve) => waiting.push(resolve))
  }
  // The turn passes on to the next in the queue, or is given back.
  const done = () => (waiting.length > 0 ? waiting.shift()!() : drawing--)

  return {
    get(site: Site, language: Language, client: string): Promise<OgImage> {
      const key = `${site.host.ascii}\n${site.host.display}\n${language}\n${site.domainsConfig.version}`
      const hit = cache.get(key)
      if (hit) return hit
      const text = TEXTS[language]
      if (drawing + waiting.length >= DRAWING + WAITING) throw new HttpError(503, text.unavailable, undefined, { 'retry-after': '5' })
      const allowed = budget.take(client)
      if (!allowed.ok) throw new HttpError(429, text.rateLimited, undefined, { 'retry-after': String(allowed.retryAfterSeconds) })
      // The promise is kept at once, so concurrent requests for one host draw it once.
      const image = (async () => {
        await turn()
        try {
          const { svg, png } = await drawer.draw(ogContentOf(site, language))
          return { png, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"` }
        } finally {
          done()
        }
      })()
      image.then(
        ({ png }) => cache.resize(key, image, png.length + key.length),
        // Not kept: the next request draws it again. Only this drawing's entry, not one made since.
        () => cache.delete(key, image),
      )
      return cache.set(key, image, DRAWING_BYTES)
    },
    /** What the kept images take, for tests. */
    cachedBytes: () => cache.bytes(),
  }
}

export default async function ogImageRoutes(app: PublicApp) {
  const { view, config } = app
  const drawer = createOgDrawer()
  app.addHook('onClose', () => drawer.close())
  const images = createOgImages({ budget: createWorkBudget({ max: config.imageRateLimit, windowMs: 60_000 }), drawer })
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  // The PNG is a Buffer; its errors are sent in the one error body by the route itself.
  const schema = { response: { 200: sentAsIs, 304: sentAsIs } }
  app.get<{ Querystring: { lang?: unknown } }>(OG_IMAGE_PATH, { schema }, async (request, reply) => {
    const site = view.siteOf(request, reply)
    if (!site) return reply
    const answer = imageLanguage(site, request.query.lang)
    varyByLanguage(reply, answer)
    let image: OgImage
    try {
      image = await images.get(site, answer.language, clientKey(request))
    } catch (error) {
      // In the API's one error body (this route is registered before the app's error handler).
      return sendFailure(request, reply, error, TEXTS[answer.language])
    }
    reply
      .header('cache-control', 'public, max-age=86400')
      .header('etag', image.etag)
      // Link previews show it on other sites (the default for every answer is same-origin).
      .header('cross-origin-resource-policy', 'cross-origin')
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(image.etag)) return reply.code(304).send()
    return reply.type('image/png').send(image.png)
  })
}
