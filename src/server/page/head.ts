// What search engines and link previews read in the page's <head>: canonical link, robots, Open Graph, Twitter card
// and a schema.org Product as JSON-LD. Made from the site alone, so it is part of the page rendered once per host.
import { escapeHtml } from '../../shared/html.ts'
import { LOCALE } from '../../shared/language.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import type { Site } from '../sites/resolver.ts'
import { publicPrice, type DomainSettings } from '../sites/settings.ts'

export const OG_IMAGE_PATH = '/og.png'
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const

/** The head of one site's page, as data: the page cache keys on it, so a reloaded domains file renders anew. */
export interface PageHead {
  /** The domain as people read it. */
  name: string
  /** https://<host in punycode>/ */
  url: string
  title: string
  description: string
  /** The page's language, as og:locale names it (de_DE, en_US). */
  locale: string
  image: string
  noindex: boolean
  offer: { availability: Availability; price?: number; priceCurrency?: string }
}

type Availability = 'InStock' | 'LimitedAvailability' | 'SoldOut'

/**
 * The one place where a domain's sale state (the file's `status`) becomes schema.org availability.
 */
function availabilityOf(settings: DomainSettings): Availability {
  return settings.status === 'sold' ? 'SoldOut' : settings.status === 'reserved' ? 'LimitedAvailability' : 'InStock'
}

export function pageHeadFor(site: Site): PageHead {
  const { host, settings } = site
  const url = `https://${host.ascii}/`
  const price = publicPrice(settings)
  const { currency = 'EUR' } = settings
  const text = TEXTS[site.language]
  return {
    name: host.display,
    url,
    title: settings.status === 'sold' ? text.titleSold(host.display) : text.title(host.display),
    description: settings.description ?? (settings.status === 'sold' ? text.sold : text.description(host.display)),
    locale: LOCALE[site.language].replace('-', '_'),
    // With `language: auto` the image's URL names the page's language: a link preview made from an English page
    // shows the English image, whatever the Accept-Language of the request for the image (page/og-route.ts).
    image: `${url}${OG_IMAGE_PATH.slice(1)}?v=${site.domainsConfig.version}${site.variesByLanguage ? `&lang=${site.language}` : ''}`,
    noindex: settings.noindex === true,
    offer: { availability: availabilityOf(settings), ...(price !== undefined && { price, priceCurrency: currency }) },
  }
}

/**
 * JSON for a script element's content. "<", ">" and "&" are escaped so that no value can end the element or open a
 * comment in it (HTML's script data states), U+2028/2029 so that the text is also valid in older JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function productJsonLd(head: PageHead) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: head.name,
    description: head.description,
    url: head.url,
    image: head.image,
    offers: { '@type': 'Offer', url: head.url, availability: `https://schema.org/${head.offer.availability}`, ...pick(head.offer) },
  }
}

function pick({ price, priceCurrency }: PageHead['offer']) {
  return price === undefined ? {} : { price, priceCurrency }
}

/** The tags, after the page's <title> and description. */
export function renderHeadTags(head: PageHead): string {
  const meta = (attribute: 'name' | 'property', key: string, content: string | number) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(String(content))}" />`
  return [
    `<link rel="canonical" href="${escapeHtml(head.url)}" />`,
    meta('name', 'robots', head.noindex ? 'noindex' : 'index,follow'),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:locale', head.locale),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.url),
    meta('property', 'og:image', head.image),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', OG_IMAGE_SIZE.width),
    meta('property', 'og:image:height', OG_IMAGE_SIZE.height),
    meta('property', 'og:image:alt', head.title),
    // Twitter reads title, description and image from the Open Graph tags.
    meta('name', 'twitter:card', 'summary_large_image'),
    `<script type="application/ld+json">${jsonForScript(productJsonLd(head))}</script>`,
  ].join('\n    ')
}
