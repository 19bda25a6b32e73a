// The owner's portfolio (`portfolio: true`), answered by the app in process: "Weitere Domains" under every page and
// the whole list at /domains, searched, sorted and paged without script. The search limit, which tells clients apart
// by their socket's address, runs against the real server process.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { getPage as getPageOverSocket, requestAs as requestOverSocket, timesShown } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { startServerProcess } from '../helpers/server.ts'

// Sixty names of one pattern (more than a page of /domains holds), a few with words in common, and some that must
// never be listed.
const filler = Array.from({ length: 60 }, (_, i) => `  name-${String(i).padStart(2, '0')}.de:\n    price: ${1000 + i * 10}\n`).join('')
const DOMAINS = `
unknownHosts: not-found
portfolio: true
default:
  currency: EUR
domains:
  kaffee-shop.de:
    price: 4900
  kaffee-bar.de:
    price: 2500
  tee-shop.de:
    price: 900
    priceType: on-request
  münchen-kaffee.de:
    price: 3000
  kaffee.com:
    price: 99000
    currency: USD
  reserviert-kaffee.de:
    status: reserved
  verkauft-kaffee.de:
    status: sold
  versteckt-kaffee.de:
    listed: false
  "*.kaffee.de": {}
${filler}`

let server: InProcessApp
let file: string
beforeAll(async () => {
  file = writeTestFile(DOMAINS)
  // The tests below search more often than a visitor would (the limit has a test of its own).
  server = await buildTestApp({ DOMAINS_FILE: file, SEARCH_RATE_LIMIT: '0' })
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
})

/** The names of "Weitere Domains" as the page links them, with the price shown beside each. */
function portfolioOf(html: string): { href: string; name: string; price?: string }[] {
  const section = /<section class="portfolio"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1]
  if (!section) return []
  return [...section.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a>(?:<span class="portfolio-price">([^<]+)<\/span>)?<\/li>/g)].map(([, href, name, price]) => ({
    href: href!,
    name: name!,
    ...(price && { price: price.replaceAll('\u00a0', ' ') }),
  }))
}

/** The rows of /domains: name and price (with a plain space where the price has a no-break space). */
const rowsOf = (html: string) =>
  [...html.matchAll(/<tr><td><a href="[^"]+">([^<]+)<\/a><\/td><td>([^<]*)<\/td><\/tr>/g)].map(([, name, price]) =>
    `${name} ${price}`.replaceAll('\u00a0', ' ').trim(),
  )

describe('Weitere Domains', () => {
  test('a page lists twelve other names for sale, most like it first, each linking its own page with its price', async () => {
    const { status, html } = await server.requestAs('kaffee-shop.de', `${server.url}/`)
    expect(status).toBe(200)
    expect(html).toContain(`<h2 id="portfolio-heading">${TEXT.portfolio}</h2>`)
    const names = portfolioOf(html)
    expect(names).toHaveLength(12)
    expect(names.slice(0, 4)).toEqual([
      { href: 'https://kaffee-bar.de/', name: 'kaffee-bar.de', price: '2.500 €' },
      { href: 'https://xn--mnchen-kaffee-wob.de/', name: 'münchen-kaffee.de', price: '3.000 €' },
      { href: 'https://tee-shop.de/', name: 'tee-shop.de', price: TEXT.priceOnRequest },
      { href: 'https://name-00.de/', name: 'name-00.de', price: '1.000 €' },
    ])
    expect(names.map((name) => name.name)).not.toContain('kaffee-shop.de')
    expect(html).toContain(`<a href="/domains">${TEXT.portfolioAll}</a>`)
  })

  test('reserved, sold, unlisted and wildcard entries are never listed; a sold page lists the others', async () => {
    const { html } = await server.requestAs('verkauft-kaffee.de', `${server.url}/`)
    expect(html).toContain(TEXT.sold)
    const names = portfolioOf(html).map((name) => name.name)
    expect(names).toHaveLength(12)
    for (const hidden of ['reserviert-kaffee.de', 'verkauft-kaffee.de', 'versteckt-kaffee.de', '*.kaffee.de']) expect(names).not.toContain(hidden)
  })

  test('a domains file without portfolio: true shows no list, and /domains does not exist', async () => {
    const plain = writeTestFile('domains:\n  a.de: {}\n  b.de: {}\n')
    const other = await buildTestApp({ DOMAINS_FILE: plain })
    try {
      const { html } = await other.requestAs('a.de', `${other.url}/`)
      expect(html).not.toContain(TEXT.portfolio)
      expect((await other.requestAs('a.de', `${other.url}/domains`)).status).toBe(404)
    } finally {
      await other.close()
    }
  })
})

describe('/domains', () => {
  test('lists every available name, fifty to a page, by name, and is not indexed but followed', async () => {
    const { status, headers, html } = await server.requestAs('kaffee-shop.de', `${server.url}/domains`)
    expect(status).toBe(200)
    expect(headers['content-type']).toMatch(/^text\/html/)
    expect(html).toContain('<meta name="robots" content="noindex,follow" />')
    // No script: the list, its search and its sorting work without one.
    expect(html).not.toMatch(/<script[\s>]/)
    const rows = rowsOf(html)
    expect(rows).toHaveLength(50)
    expect(rows.slice(0, 3)).toEqual(['kaffee-bar.de 2.500 €', 'kaffee-shop.de 4.900 €', 'kaffee.com 99.000 $'])
    expect(html).toContain(TEXT.domainListCount('65'))
    expect(html).toContain(TEXT.domainListPage('1', '2'))
    expect(html).toContain('<a href="/domains?page=2" rel="next">')
    const second = await server.requestAs('kaffee-shop.de', `${server.url}/domains?page=2`)
    expect(rowsOf(second.html)).toHaveLength(15)
    expect(rowsOf(second.html).at(-1)).toBe('tee-shop.de Preis auf Anfrage')
  })

  test('sorts by price either way, names without an amount last, and the heading links turn the order round', async () => {
    const up = await server.requestAs('kaffee-shop.de', `${server.url}/domains?sort=price`)
    expect(rowsOf(up.html).slice(0, 2)).toEqual(['name-00.de 1.000 €', 'name-01.de 1.010 €'])
    expect(up.html).toContain('aria-sort="ascending"')
    expect(up.html).toContain('href="/domains?sort=price&amp;order=desc"')
    const down = await server.requestAs('kaffee-shop.de', `${server.url}/domains?sort=price&order=desc`)
    expect(rowsOf(down.html).slice(0, 2)).toEqual(['kaffee.com 99.000 $', 'kaffee-shop.de 4.900 €'])
  })

  test('searches by any part of a name, in Unicode or punycode, and keeps the search while sorting and paging', async () => {
    const found = await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=${encodeURIComponent('MÜNCHEN')}`)
    expect(rowsOf(found.html)).toEqual(['münchen-kaffee.de 3.000 €'])
    expect(found.html).toContain(TEXT.domainListFound('1', 'MÜNCHEN'))
    const kaffee = await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=kaffee&sort=price`)
    expect(rowsOf(kaffee.html)).toEqual(['kaffee-bar.de 2.500 €', 'münchen-kaffee.de 3.000 €', 'kaffee-shop.de 4.900 €', 'kaffee.com 99.000 $'])
    expect(kaffee.html).toContain('href="/domains?q=kaffee&amp;sort=price&amp;order=desc"')
    const none = await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=nirgends`)
    expect(none.html).toContain(TEXT.domainListEmpty)
  })

  test('a search for markup is shown as text, and a wrong query gets 400, a page past the end the last page', async () => {
    const markup = await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=${encodeURIComponent('"><script>alert(1)</script>')}`)
    expect(markup.status).toBe(200)
    expect(markup.html).not.toContain('<script>alert(1)')
    expect(markup.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    const wrong = await server.requestAs('kaffee-shop.de', `${server.url}/domains?sort=evil`)
    expect(wrong.status).toBe(400)
    expect(timesShown(wrong.html, TEXT.badRequest)).toBe(1)
    expect((await server.requestAs('kaffee-shop.de', `${server.url}/domains?page=0`)).status).toBe(400)
    expect((await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=${'x'.repeat(101)}`)).status).toBe(400)
    const late = await server.requestAs('kaffee-shop.de', `${server.url}/domains?page=99`)
    expect(late.html).toContain(TEXT.domainListPage('2', '2'))
  })

  test('hosts that get no page get no list', async () => {
    expect((await server.requestAs('unbekannt.de', `${server.url}/domains`)).status).toBe(404)
    expect((await server.requestAs('versteckt-kaffee.de', `${server.url}/domains`)).status).toBe(404)
  })

  test('an edit of the domains file shows in both lists', async () => {
    fs.writeFileSync(file, DOMAINS.replace('  kaffee-bar.de:\n    price: 2500\n', '  kaffee-bar.de:\n    price: 2600\n  kaffee-neu.de:\n    price: 100\n'))
    await expect
      .poll(async () => rowsOf((await server.requestAs('kaffee-shop.de', `${server.url}/domains?q=kaffee-`)).html))
      .toEqual([
        'kaffee-bar.de 2.600 €',
        'kaffee-neu.de 100 €',
        'kaffee-shop.de 4.900 €',
        // Its punycode form has "kaffee-" in it.
        'münchen-kaffee.de 3.000 €',
      ])
    expect(
      portfolioOf((await server.requestAs('kaffee-shop.de', `${server.url}/`)).html)
        .slice(0, 2)
        .map((name) => name.name),
    ).toEqual(['kaffee-bar.de', 'kaffee-neu.de'])
  })
})

describe('a client that searches too often', () => {
  test('gets 429 with a page that says so and Retry-After, while GET /, the plain list and other clients still get answers', async () => {
    const limited = await startServerProcess({ DOMAINS_FILE: file, SEARCH_RATE_LIMIT: '5' })
    try {
      const search = (i: number, localAddress?: string) =>
        requestOverSocket(
          'kaffee-shop.de',
          `${limited.url}/domains?q=${['kaffee', 'name', 'de', 'shop', 'bar', 'tee', 'n', 'e'][i % 8]}&sort=price&page=${1 + (i % 2)}`,
          {
            ...(localAddress && { localAddress }),
          },
        )
      // Another visitor saw the plain list first.
      expect((await requestOverSocket('kaffee-shop.de', `${limited.url}/domains`, { localAddress: '127.0.0.3' })).status).toBe(200)
      const answers = []
      for (let i = 0; i < 12; i++) answers.push(await search(i))
      expect(answers.map((answer) => answer.status)).toEqual([...Array(5).fill(200), ...Array(7).fill(429)])
      const refused = answers.at(-1)!
      expect(refused.headers['content-type']).toMatch(/^text\/html/)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
      expect(timesShown(refused.html, TEXT.rateLimited)).toBe(1)
      expect(refused.html).not.toMatch(/<script[\s>]/)
      // Sorting and paging without a search cost a rendering each, so they count too.
      expect((await requestOverSocket('kaffee-shop.de', `${limited.url}/domains?page=2`)).status).toBe(429)
      // What the client is still answered: the page, and the plain list (kept since it was rendered).
      expect((await getPageOverSocket(limited.url, 'kaffee-shop.de')).status).toBe(200)
      const plain = await requestOverSocket('kaffee-shop.de', `${limited.url}/domains`)
      expect(plain.status).toBe(200)
      expect(rowsOf(plain.html)).toHaveLength(50)
      // Another address is another client.
      expect((await search(0, '127.0.0.2')).status).toBe(200)
    } finally {
      await limited.stop()
      limited.cleanup()
    }
  })

  test('the plain list of a host is rendered once and then costs no search of the budget', async () => {
    const limited = await buildTestApp({ DOMAINS_FILE: file, SEARCH_RATE_LIMIT: '2' })
    try {
      const statuses = []
      for (let i = 0; i < 6; i++) statuses.push((await limited.requestAs('kaffee-shop.de', `${limited.url}/domains`)).status)
      expect(statuses).toEqual(Array(6).fill(200))
      // The first plain list counted once; one search is left of two.
      expect((await limited.requestAs('kaffee-shop.de', `${limited.url}/domains?q=kaffee`)).status).toBe(200)
      expect((await limited.requestAs('kaffee-shop.de', `${limited.url}/domains?q=kaffee`)).status).toBe(429)
    } finally {
      await limited.close()
    }
  })
})

describe('an English page of the portfolio', () => {
  test('lists the other names and the whole list in English, amounts as English readers write them', async () => {
    const english = writeTestFile(
      'portfolio: true\ndefault: { language: en }\ndomains:\n  a-shop.com: { price: 4900 }\n  b-shop.com: { price: 2500, priceType: negotiable }\n  c-shop.com: { priceType: on-request }\n',
    )
    const other = await buildTestApp({ DOMAINS_FILE: english })
    try {
      const page = await other.requestAs('a-shop.com', `${other.url}/`)
      expect(page.html).toContain(`<h2 id="portfolio-heading">${TEXTS.en.portfolio}</h2>`)
      expect(portfolioOf(page.html)).toEqual([
        { href: 'https://b-shop.com/', name: 'b-shop.com', price: TEXTS.en.priceNegotiableShort('€2,500') },
        { href: 'https://c-shop.com/', name: 'c-shop.com', price: TEXTS.en.priceOnRequest },
      ])
      const list = await other.requestAs('a-shop.com', `${other.url}/domains?sort=price&order=desc`)
      expect(list.html).toContain('<html lang="en">')
      expect(list.html).toContain(`<title>${TEXTS.en.domainListTitle} | a-shop.com</title>`)
      expect(rowsOf(list.html)).toEqual(['a-shop.com €4,900', `b-shop.com ${TEXTS.en.priceNegotiableShort('€2,500')}`, `c-shop.com ${TEXTS.en.priceOnRequest}`])
      expect(list.html).toContain(TEXTS.en.domainListCount('3'))
    } finally {
      await other.close()
    }
  })
})
