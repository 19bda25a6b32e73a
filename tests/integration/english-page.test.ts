// The domains file's `language`, answered by the app in process: English pages from <html lang> to the link-preview
// image, German pages as they always were, and `auto`, which follows Accept-Language and says so in Vary.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

const EN = TEXTS.en
const DOMAINS = `
unknownHosts: not-found
legal:
  imprintText: Verantwortlich ist Erika Mustermann.
domains:
  deutsch.de: { price: 4900, minOffer: 1500 }
  english.com: { language: en, price: 4900, minOffer: 1500 }
  both.de: { language: auto, price: 4900 }
  reserved.com: { language: en, status: reserved }
  sold.com: { language: en, status: sold }
  terms.com: { language: en, price: 12000, priceType: negotiable, vat: excluded, buyUrl: "https://escrow.example/buy?d=terms.com" }
  asked.com: { language: en, price: 12000, priceType: on-request }
`

let server: InProcessApp
beforeAll(async () => {
  server = await buildTestApp({ DOMAINS_FILE: writeTestFile(DOMAINS) })
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
})

const get = (host: string, path = '/', acceptLanguage?: string) =>
  server.requestAs(host, `${server.url}${path}`, { headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } })
const langOf = (html: string) => /<html lang="([^"]*)">/.exec(html)?.[1]
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]
const metaOf = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1]
const propsOf = (html: string) => JSON.parse(/<script type="application\/json" id="page-props"[^>]*>([^<]*)<\/script>/.exec(html)![1]!) as { language: string }
/** The German texts that English says differently ("Name" is the same word in both). */
const GERMAN_ONLY = Object.entries(TEXT)
  .filter(([key, value]) => typeof value === 'string' && value !== EN[key as keyof typeof EN])
  .map(([, value]) => value as string)

describe('language: en', () => {
  test('price terms, the buy button and how buying works are English, amounts as English readers write them', async () => {
    const { html } = await get('terms.com')
    expect(html).toContain(`<span class="terms">${EN.priceNegotiable}</span> <!-- -->€12,000`)
    expect(html).toContain(`<p class="vat">${EN.vatExcluded}</p>`)
    expect(html).toContain(`<a class="buy" href="https://escrow.example/buy?d=terms.com">${EN.buyNow}</a>`)
    expect(html).toContain(EN.howToBuyTitle)
    expect(html).toContain(EN.howToBuy.split('\n')[0])
    const asked = await get('asked.com')
    expect(asked.html).toContain(EN.priceOnRequest)
    expect(asked.html).not.toContain('12,000')
    for (const german of GERMAN_ONLY) expect(html + asked.html).not.toContain(german)
  })

  test('the page is English from <html lang> to the form, with prices as English readers write them', async () => {
    const { status, headers, html } = await get('english.com', '/', 'de-DE,de;q=0.9')
    expect(status).toBe(200)
    expect(langOf(html)).toBe('en')
    expect(titleOf(html)).toBe('english.com is for sale')
    expect(metaOf(html, 'description')).toBe(EN.description('english.com'))
    expect(metaOf(html, 'og:locale')).toBe('en_US')
    for (const text of [EN.interested, EN.forSale('english.com'), EN.writeUs, EN.labelEmail, EN.labelMessage, EN.submit]) expect(html).toContain(text)
    expect(html).toContain('<p class="price">Price: €4,900</p>')
    expect(html).toContain(EN.labelOffer('EUR'))
    expect(html).toContain('Minimum offer: €1,500')
    for (const german of GERMAN_ONLY) expect(html).not.toContain(german)
    // The browser hydrates in the language the server rendered.
    expect(propsOf(html).language).toBe('en')
    // The language is the file's, not the request's: nothing varies by Accept-Language.
    expect(headers.vary).toBe('Accept-Encoding')
  })

  test('a known host answers a missing page, the API and its legal page in English; the owner’s text stays as written', async () => {
    const missing = await get('english.com', '/nope')
    expect(missing.status).toBe(404)
    expect(langOf(missing.html)).toBe('en')
    expect(titleOf(missing.html)).toBe(EN.notFoundTitle)
    expect(missing.html).toContain(`<a href="/">${EN.backHome}</a>`)
    const api = await get('english.com', '/api/nope')
    expect([api.status, JSON.parse(api.html)]).toEqual([404, { error: EN.notFound }])
    const imprint = await get('english.com', '/impressum')
    expect(langOf(imprint.html)).toBe('en')
    expect(titleOf(imprint.html)).toBe(EN.imprint)
    expect(imprint.html).toContain('Verantwortlich ist Erika Mustermann.')
    expect(imprint.html).toContain(EN.backHome)
  })

  test('reserved and sold say so in English; a sold name refuses a POST in English', async () => {
    const reserved = await get('reserved.com')
    expect(reserved.html).toContain(`<p class="sale-status">${EN.reserved}</p>`)
    expect(reserved.html).toContain(EN.reservedBackup)
    const sold = await get('sold.com')
    expect(sold.html).toContain(`<p class="sale-status">${EN.sold}</p>`)
    expect(sold.html).not.toContain('<form')
    const post = await server.requestAs('sold.com', `${server.url}/api/contact`, { method: 'POST', body: {} })
    expect([post.status, JSON.parse(post.html)]).toEqual([410, { error: EN.sold }])
  })
})

describe('language: de (the default)', () => {
  test('the page is the German page it always was, whatever the browser prefers', async () => {
    const { headers, html } = await get('deutsch.de', '/', 'en-US,en;q=0.9')
    expect(langOf(html)).toBe('de')
    expect(titleOf(html)).toBe('deutsch.de steht zum Verkauf')
    expect(metaOf(html, 'og:locale')).toBe('de_DE')
    expect(html).toContain('<p class="price">Preis: 4.900\u00a0€</p>')
    expect(html).toContain('Mindestangebot: 1.500\u00a0€')
    expect(html).toContain(TEXT.interested)
    expect(html).not.toContain(EN.interested)
    expect(propsOf(html).language).toBe('de')
    expect(headers.vary).toBe('Accept-Encoding')
    const missing = await get('deutsch.de', '/nope', 'en')
    expect([langOf(missing.html), titleOf(missing.html)]).toEqual(['de', TEXT.notFoundTitle])
  })

  test('a host the server does not sell gets the German answer, whatever the browser prefers', async () => {
    const unknown = await get('fremd.example', '/', 'en')
    expect(unknown.status).toBe(404)
    expect(langOf(unknown.html)).toBe('de')
    expect(unknown.html).toContain(TEXT.unavailableDomain)
    expect(unknown.headers.vary).toBeUndefined()
  })
})

describe('language: auto', () => {
  test.each([
    ['en-GB,en;q=0.9', 'en'],
    ['de-AT,de;q=0.9,en;q=0.8', 'de'],
    [undefined, 'de'],
    ['fr-FR,fr;q=0.9', 'de'],
    ['fr-FR,fr;q=0.9,en;q=0.5', 'en'],
    ['en;q=0.5,de;q=0.5', 'de'],
    ['en-US', 'en'],
  ])('Accept-Language %j gets the %s page, and Vary says it depends on it', async (acceptLanguage, language) => {
    // In this order the cache holds both pages of the host: each request must still get its own.
    const { headers, html } = await get('both.de', '/', acceptLanguage)
    expect(langOf(html)).toBe(language)
    expect(titleOf(html)).toBe(TEXTS[language as 'de' | 'en'].title('both.de'))
    expect(propsOf(html).language).toBe(language)
    expect(headers.vary).toBe('Accept-Encoding, Accept-Language')
    expect(html).toContain(language === 'en' ? 'Price: €4,900' : 'Preis: 4.900\u00a0€')
  })

  test('its notices follow Accept-Language too, and vary by it', async () => {
    const english = await get('both.de', '/nope', 'en')
    const german = await get('both.de', '/nope', 'de')
    expect([langOf(english.html), titleOf(english.html), english.headers.vary]).toEqual(['en', EN.notFoundTitle, 'Accept-Language'])
    expect([langOf(german.html), titleOf(german.html), german.headers.vary]).toEqual(['de', TEXT.notFoundTitle, 'Accept-Language'])
  })
})

describe('the link-preview image', () => {
  const etagOf = async (host: string, query: string, acceptLanguage?: string) => {
    const response = await get(host, `/og.png${query}`, acceptLanguage)
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('image/png')
    return { etag: response.headers.etag, vary: response.headers.vary }
  }

  test('an auto page names its language in the image URL, and the image follows the URL, not the request', async () => {
    const page = await get('both.de', '/', 'en')
    const image = new URL(metaOf(page.html, 'og:image')!.replaceAll('&amp;', '&'))
    expect(image.searchParams.get('lang')).toBe('en')
    const english = await etagOf('both.de', image.search, 'de')
    const german = await etagOf('both.de', image.search.replace('lang=en', 'lang=de'), 'en')
    expect(english.etag).not.toBe(german.etag)
    expect([english.vary, german.vary]).toEqual([undefined, undefined])
    // Without a language in the URL it is the request's, and says so.
    const negotiated = await etagOf('both.de', '', 'en-US')
    expect(negotiated).toEqual({ etag: english.etag, vary: 'Accept-Language' })
  })

  test('a page of one language has one image, whatever the URL asks for', async () => {
    const plain = await etagOf('english.com', '')
    expect(await etagOf('english.com', '?lang=de')).toEqual(plain)
    expect(await etagOf('deutsch.de', '?lang=en', 'en')).toEqual(await etagOf('deutsch.de', ''))
  })
})
