// Search and sharing, answered by the app in process: the head of each host's page, and its link-preview image. The
// image rate limit, which tells clients apart by their socket's address, runs against the real server process.
import fs from 'node:fs'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { requestAs as requestOverSocket } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { pngSize } from '../helpers/png.ts'
import { startServerProcess } from '../helpers/server.ts'

const DOMAINS = `
unknownHosts: not-found
default:
  currency: EUR
domains:
  example.de:
    price: 4900
    description: Kurz und einprägsam.
  münchen.de:
    noindex: true
  attack.de:
    description: </script><script>alert(1)</script>
`

let server: InProcessApp
let file: string
beforeAll(async () => {
  file = writeTestFile(DOMAINS)
  server = await buildTestApp({ DOMAINS_FILE: file })
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
})

const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as Record<string, unknown>
const metaOf = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1]

const requestAs = (host: string, url: string) => server.requestAs(host, url)
const getPage = (url: string, host: string) => server.requestAs(host, `${url}/`)

/** GET /og.png with a chosen Host header, the body as bytes. */
async function getImage(host: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { status, headers: answered, body } = await server.requestAs(host, `${server.url}/og.png`, { headers })
  return { status, headers: answered, body }
}

/** getImage over a socket of its own to a server process (from another loopback address with `localAddress`). */
function getImageOverSocket(
  host: string,
  headers: Record<string, string> = {},
  { url, localAddress }: { url: string; localAddress?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/og.png`, { headers: { ...headers, host }, ...(localAddress && { localAddress }) }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}

describe('the head of each page', () => {
  test('GET / carries canonical link, Open Graph, Twitter card, robots and a Product matching the domains file', async () => {
    const { status, html } = await getPage(server.url, 'example.de')
    expect(status).toBe(200)
    expect(html).toContain('<link rel="canonical" href="https://example.de/" />')
    expect(metaOf(html, 'robots')).toBe('index,follow')
    expect(metaOf(html, 'og:url')).toBe('https://example.de/')
    expect(metaOf(html, 'og:image')).toMatch(/^https:\/\/example\.de\/og\.png\?v=[\w-]+$/)
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image')
    expect(jsonLdOf(html)).toMatchObject({
      '@type': 'Product',
      name: 'example.de',
      description: 'Kurz und einprägsam.',
      offers: { '@type': 'Offer', price: 4900, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
    })
    // The head is in the page before the visitor's scripts, once.
    expect(html.match(/rel="canonical"/g)).toHaveLength(1)
    expect(html.indexOf('application/ld+json')).toBeLessThan(html.indexOf('</head>'))
  })

  test('a noindex domain asks not to be indexed; its URLs are in punycode, its name in Unicode', async () => {
    const { html } = await getPage(server.url, 'xn--mnchen-3ya.de')
    expect(metaOf(html, 'robots')).toBe('noindex')
    expect(html).toContain('<link rel="canonical" href="https://xn--mnchen-3ya.de/" />')
    expect(jsonLdOf(html)).toMatchObject({ name: 'münchen.de', offers: { availability: 'https://schema.org/InStock' } })
    expect(jsonLdOf(html).offers).not.toHaveProperty('price')
  })

  test('a description that closes the script element stays inside the JSON-LD', async () => {
    const { html } = await getPage(server.url, 'attack.de')
    expect(html).not.toContain('<script>alert(1)')
    expect(jsonLdOf(html).description).toBe('</script><script>alert(1)</script>')
  })
})

describe('the link-preview image', () => {
  test('is a PNG of 1200x630 within 60 KB, kept for a day, and answered 304 for its ETag', async () => {
    const first = await getImage('example.de')
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toBe('image/png')
    expect(first.headers['cache-control']).toBe('public, max-age=86400')
    expect(pngSize(first.body)).toEqual({ width: 1200, height: 630 })
    expect(first.body.length).toBeLessThanOrEqual(60 * 1024)
    const etag = first.headers.etag!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await getImage('example.de')
    expect(again.headers.etag).toBe(etag)
    expect(again.body.equals(first.body)).toBe(true)
    const notModified = await getImage('example.de', { 'if-none-match': etag })
    expect(notModified.status).toBe(304)
    expect(notModified.body.length).toBe(0)
  })

  test('differs per host, and a host the file does not list gets the 404 page', async () => {
    const [a, b] = await Promise.all([getImage('example.de'), getImage('xn--mnchen-3ya.de')])
    expect(b.status).toBe(200)
    expect(b.headers.etag).not.toBe(a.headers.etag)
    const unknown = await getImage('other.de')
    expect(unknown.status).toBe(404)
    expect(unknown.headers['content-type']).toMatch(/^text\/html/)
    expect((await requestAs('127.0.0.1', `${server.url}/og.png`)).status).toBe(404)
  })

  test('a reload of the domains file changes the image and the URL pages give for it', { timeout: 90_000 }, async () => {
    const before = await getImage('example.de')
    const urlBefore = metaOf((await getPage(server.url, 'example.de')).html, 'og:image')
    fs.writeFileSync(`${file}.tmp`, DOMAINS.replace('price: 4900', 'price: 5500'))
    fs.renameSync(`${file}.tmp`, file)
    // The reload reads the file in a process of its own: beside the suite and two CPU burners that took over 5 s.
    await expect.poll(async () => (await getPage(server.url, 'example.de')).html, { timeout: 60_000 }).toContain('5.500')
    expect(metaOf((await getPage(server.url, 'example.de')).html, 'og:image')).not.toBe(urlBefore)
    const after = await getImage('example.de', { 'if-none-match': before.headers.etag! })
    expect(after.status).toBe(200)
    expect(after.headers.etag).not.toBe(before.headers.etag)
    expect(after.body.equals(before.body)).toBe(false)
    expect(pngSize(after.body)).toEqual({ width: 1200, height: 630 })
  })
})

describe('a client asking for the images of many hosts', () => {
  test('gets 429 once it has had IMAGE_RATE_LIMIT images drawn, while GET /, images already drawn and other clients are still answered', async () => {
    // Every name gets a page, and so an image: a client can name new hosts without end.
    const spray = await startServerProcess({ DOMAINS_FILE: writeTestFile('unknownHosts: page\ndomains:\n  example.de: {}\n'), IMAGE_RATE_LIMIT: '3' })
    try {
      const url = spray.url
      const statuses = []
      for (let i = 0; i < 8; i++) statuses.push((await getImageOverSocket(`spray-${i}.de`, {}, { url })).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
      const refused = await getImageOverSocket('spray-9.de', {}, { url })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(JSON.parse(refused.body.toString())).toEqual({ error: TEXT.rateLimited })
      expect((await requestOverSocket('spray-9.de', `${url}/`)).status).toBe(200)
      expect((await getImageOverSocket('spray-0.de', {}, { url })).status).toBe(200)
      expect((await getImageOverSocket('spray-9.de', {}, { url, localAddress: '127.0.0.2' })).status).toBe(200)
    } finally {
      await spray.stop()
      spray.cleanup()
    }
  })
})

describe('robots.txt and sitemap.xml', () => {
  test('each host lets crawlers read every page and names its own page in its sitemap', async () => {
    const robots = await requestAs('example.de', `${server.url}/robots.txt`)
    expect(robots.status).toBe(200)
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(robots.html).toBe('User-agent: *\nAllow: /\nSitemap: https://example.de/sitemap.xml\n')
    const sitemap = await requestAs('example.de', `${server.url}/sitemap.xml`)
    expect(sitemap.status).toBe(200)
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8')
    expect([...sitemap.html.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual(['https://example.de/'])
    expect(sitemap.html).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
  })

  test('a noindex name is not in its sitemap, and robots.txt still lets crawlers read the page that says noindex', async () => {
    const robots = await requestAs('münchen.de', `${server.url}/robots.txt`)
    expect(robots.html).toBe('User-agent: *\nAllow: /\n')
    const sitemap = await requestAs('xn--mnchen-3ya.de', `${server.url}/sitemap.xml`)
    expect(sitemap.status).toBe(200)
    expect(sitemap.html).not.toContain('<loc>')
  })

  test('a host the file does not list gets the 404 page for both', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const answer = await requestAs('nicht-gelistet.de', `${server.url}${path}`)
      expect(answer.status, path).toBe(404)
      expect(answer.headers['content-type'], path).toMatch(/^text\/html/)
    }
  })
})
