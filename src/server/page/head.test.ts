import { describe, expect, test } from 'vitest'
import { answerLanguageFor } from '../sites/language.ts'
import type { Site } from '../sites/resolver.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { domainsFileSchema } from '../sites/settings.ts'
import { jsonForScript, pageHeadFor, renderHeadTags } from './head.ts'

const ATTACK = '</script><script>alert(1)</script><!-- & \u2028'
const file = domainsConfigOf({
  default: { currency: 'EUR' },
  domains: {
    'example.de': { price: 4900, description: 'Kurz und "einprägsam".' },
    'münchen.de': { price: 12000, currency: 'USD', noindex: true },
    'plain.de': null,
    'anfrage.de': { price: 4900, priceType: 'on-request', vat: 'included' },
    'attack.de': { description: ATTACK },
  },
})

function siteFor(ascii: string, display = ascii, config = file, acceptLanguage?: string): Site {
  const { settings } = config.resolve(ascii)!
  return { host: { ascii, display }, settings, listedExactly: true, domainsConfig: config, legal: {}, ...answerLanguageFor(settings.language, acceptLanguage) }
}

/** The head as a browser's HTML parser reads it: a script element's text ends at the first "</script". */
function headOf(site: Site) {
  const html = renderHeadTags(pageHeadFor(site))
  const meta = (key: string) => new RegExp(`<meta (?:name|property)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1]
  const start = html.indexOf('<script type="application/ld+json">') + '<script type="application/ld+json">'.length
  const end = html.toLowerCase().indexOf('</script', start)
  const scriptText = html.slice(start, end)
  return { html, meta, scriptText, jsonLd: JSON.parse(scriptText) as Record<string, unknown> }
}

describe('the head of a page', () => {
  test('a domain with a price has canonical link, robots, Open Graph, Twitter card and a Product with its Offer', () => {
    const { html, meta, jsonLd } = headOf(siteFor('example.de'))
    expect(html).toContain('<link rel="canonical" href="https://example.de/" />')
    expect(meta('robots')).toBe('index,follow')
    expect(meta('og:type')).toBe('website')
    expect(meta('og:locale')).toBe('de_DE')
    expect(meta('og:title')).toBe('example.de steht zum Verkauf')
    expect(meta('og:description')).toBe('Kurz und &quot;einprägsam&quot;.')
    expect(meta('og:url')).toBe('https://example.de/')
    expect(meta('og:image')).toBe(`https://example.de/og.png?v=${file.version}`)
    expect([meta('og:image:type'), meta('og:image:width'), meta('og:image:height')]).toEqual(['image/png', '1200', '630'])
    expect(meta('twitter:card')).toBe('summary_large_image')
    expect(jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'example.de',
      description: 'Kurz und "einprägsam".',
      url: 'https://example.de/',
      image: `https://example.de/og.png?v=${file.version}`,
      offers: { '@type': 'Offer', url: 'https://example.de/', availability: 'https://schema.org/InStock', price: 4900, priceCurrency: 'EUR' },
    })
  })

  test('an internationalised name is shown in Unicode, with punycode in every URL; noindex asks not to index', () => {
    const { html, meta, jsonLd } = headOf(siteFor('xn--mnchen-3ya.de', 'münchen.de'))
    expect(html).toContain('<link rel="canonical" href="https://xn--mnchen-3ya.de/" />')
    expect(meta('og:url')).toBe('https://xn--mnchen-3ya.de/')
    expect(meta('og:image')).toMatch(/^https:\/\/xn--mnchen-3ya\.de\/og\.png\?v=/)
    expect(meta('robots')).toBe('noindex')
    expect(jsonLd.name).toBe('münchen.de')
    expect(jsonLd.offers).toMatchObject({ price: 12000, priceCurrency: 'USD' })
  })

  test('without a price the Offer says only that the domain is available, and the description is the page’s', () => {
    const { meta, jsonLd } = headOf(siteFor('plain.de'))
    expect(jsonLd.offers).toEqual({ '@type': 'Offer', url: 'https://plain.de/', availability: 'https://schema.org/InStock' })
    expect(jsonLd.description).toBe('Die Domain plain.de ist zu verkaufen. Schreiben Sie dem Inhaber direkt eine Nachricht.')
    expect(meta('og:description')).toBe(jsonLd.description)
  })

  test('a price on request leaves price and currency out of the Offer and the whole head, though the file has one', () => {
    const { html, jsonLd } = headOf(siteFor('anfrage.de'))
    expect(jsonLd.offers).toEqual({ '@type': 'Offer', url: 'https://anfrage.de/', availability: 'https://schema.org/InStock' })
    expect(html).not.toMatch(/4\.?900/)
  })

  test('a description that tries to end the script element stays data inside it', () => {
    const { html, scriptText, jsonLd } = headOf(siteFor('attack.de'))
    expect(jsonLd.description).toBe(ATTACK)
    expect(scriptText).not.toMatch(/[<>&\u2028]/)
    // One script element only, closed where the head ends it.
    expect(html.match(/<script/gi)).toHaveLength(1)
    expect(html.trimEnd().endsWith('</script>')).toBe(true)
    expect(html).toContain('content="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &amp; \u2028"')
  })

  test('JSON for a script element escapes exactly what could end it or break older JavaScript', () => {
    expect(jsonForScript({ a: '<>&\u2028\u2029"\\' })).toBe('{"a":"\\u003c\\u003e\\u0026\\u2028\\u2029\\"\\\\"}')
    expect(JSON.parse(jsonForScript({ a: '<>&\u2028\u2029' }))).toEqual({ a: '<>&\u2028\u2029' })
  })

  test('the image URL changes when the domains file changes, and not when it is read again unchanged', () => {
    const again = domainsConfigOf({ default: { currency: 'EUR' }, domains: { 'plain.de': null } })
    const same = domainsConfigOf({ default: { currency: 'EUR' }, domains: { 'plain.de': null } })
    const changed = domainsConfigOf({ default: { currency: 'EUR' }, domains: { 'plain.de': { price: 1 } } })
    const otherDefault = domainsConfigOf({ default: { currency: 'USD' }, domains: { 'plain.de': null } })
    expect(again.version).toBe(same.version)
    expect(changed.version).not.toBe(same.version)
    expect(otherDefault.version).not.toBe(same.version)
  })

  test('noindex is a key of a domain and of the default; anything but a boolean is refused', () => {
    const parsed = domainsConfigOf({ default: { noindex: true }, domains: { 'a.de': null, 'b.de': { noindex: false } } })
    expect(pageHeadFor(siteFor('a.de', 'a.de', parsed)).noindex).toBe(true)
    expect(pageHeadFor(siteFor('b.de', 'b.de', parsed)).noindex).toBe(false)
    expect(domainsFileSchema.safeParse({ domains: { 'a.de': { noindex: 'yes' } } }).success).toBe(false)
  })

  test('an English page has English title and description, og:locale en_US, and the same image as before', () => {
    const config = domainsConfigOf({ domains: { 'english.com': { language: 'en', price: 4900 } } })
    const { meta, jsonLd } = headOf(siteFor('english.com', 'english.com', config, 'de-DE'))
    expect(meta('og:locale')).toBe('en_US')
    expect(meta('og:title')).toBe('english.com is for sale')
    expect(meta('og:description')).toBe('The domain english.com is for sale. Send the owner a message directly.')
    expect(jsonLd.description).toBe(meta('og:description'))
    expect(meta('og:image')).toBe(`https://english.com/og.png?v=${config.version}`)
    expect(jsonLd.offers).toMatchObject({ price: 4900, priceCurrency: 'EUR' })
  })

  test('with language: auto the head follows the request, and the image URL names the language it was made in', () => {
    const config = domainsConfigOf({ default: { language: 'auto' }, domains: { 'both.de': null } })
    const english = headOf(siteFor('both.de', 'both.de', config, 'en-GB,en;q=0.9'))
    const german = headOf(siteFor('both.de', 'both.de', config, 'de-AT'))
    expect([english.meta('og:locale'), english.meta('og:title')]).toEqual(['en_US', 'both.de is for sale'])
    expect([german.meta('og:locale'), german.meta('og:title')]).toEqual(['de_DE', 'both.de steht zum Verkauf'])
    expect(english.meta('og:image')).toBe(`https://both.de/og.png?v=${config.version}&amp;lang=en`)
    expect(german.meta('og:image')).toBe(`https://both.de/og.png?v=${config.version}&amp;lang=de`)
    expect(english.jsonLd.image).toBe(`https://both.de/og.png?v=${config.version}&lang=en`)
  })
})
