import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { domainsConfigOf } from './domains-document.ts'
import { displayHost } from './host.ts'

const PORTFOLIO = domainsConfigOf({
  portfolio: true,
  default: { currency: 'EUR' },
  domains: {
    'hotel-berlin.de': { price: 5000 },
    'berlin-reise.de': { price: 900 },
    'hotel-muenchen.de': { price: 3000 },
    'berlin-hotel.com': { price: 7000, currency: 'USD' },
    'reise24.de': { price: 100 },
    'auto.de': { priceType: 'on-request', price: 99999 },
    'zahn.de': {},
    'münchen-hotel.de': { price: 2500, priceType: 'negotiable' },
    'verkauft-hotel.de': { status: 'sold', price: 1 },
    'reserviert-hotel.de': { status: 'reserved', price: 1 },
    'versteckt-hotel.de': { listed: false, price: 1 },
    '*.hotel.de': { price: 1 },
    'hotel.net': { price: 4000 },
  },
})

const names = (items: { ascii: string }[]) => items.map((item) => item.ascii)

describe('related names', () => {
  test('the same top-level domain first, then more words in common, then by name; never the name itself', () => {
    expect(names(PORTFOLIO.related('hotel-berlin.de'))).toEqual([
      'berlin-reise.de',
      'hotel-muenchen.de',
      'xn--mnchen-hotel-dlb.de',
      'auto.de',
      'reise24.de',
      'zahn.de',
      'berlin-hotel.com',
      'hotel.net',
    ])
  })

  test('sold, reserved, unlisted names and wildcards are left out; the limit is kept', () => {
    const all = names(PORTFOLIO.related('new-hotel.de', 100))
    expect(all).not.toContain('verkauft-hotel.de')
    expect(all).not.toContain('reserviert-hotel.de')
    expect(all).not.toContain('versteckt-hotel.de')
    expect(all.some((name) => name.startsWith('*'))).toBe(false)
    expect(all).toHaveLength(9)
    expect(PORTFOLIO.related('new-hotel.de', 2)).toHaveLength(2)
  })

  test('words are split at hyphens and digits and count from three letters; Unicode names share their words', () => {
    expect(names(PORTFOLIO.related('reise-ab.info', 1))).toEqual(['berlin-reise.de'])
    expect(names(PORTFOLIO.related('xn--mnchen-shop-thb.de', 1))).toEqual(['xn--mnchen-hotel-dlb.de'])
  })

  test('each item has its price, currency and price type; a price on request has no amount', () => {
    const items = PORTFOLIO.related('x.com', 100)
    expect(items.find((item) => item.ascii === 'berlin-hotel.com')).toEqual({
      ascii: 'berlin-hotel.com',
      display: 'berlin-hotel.com',
      price: 7000,
      currency: 'USD',
    })
    expect(items.find((item) => item.ascii === 'auto.de')).toEqual({ ascii: 'auto.de', display: 'auto.de', currency: 'EUR', priceType: 'on-request' })
    expect(items.find((item) => item.ascii === 'xn--mnchen-hotel-dlb.de')).toEqual({
      ascii: 'xn--mnchen-hotel-dlb.de',
      display: 'münchen-hotel.de',
      price: 2500,
      currency: 'EUR',
      priceType: 'negotiable',
    })
  })

  test('without portfolio: true there is nothing to show', () => {
    const plain = domainsConfigOf({ domains: { 'a-hotel.de': {}, 'b-hotel.de': {} } })
    expect(plain.related('a-hotel.de')).toEqual([])
    expect(plain.list({})).toEqual({ total: 0, items: [] })
  })
})

describe('the whole list', () => {
  test('by name, an umlaut with its vowel; then a page of it', () => {
    const all = PORTFOLIO.list({ limit: 100 })
    expect(all.total).toBe(9)
    expect(all.items.map((item) => item.display)).toEqual([
      'auto.de',
      'berlin-hotel.com',
      'berlin-reise.de',
      'hotel-berlin.de',
      'hotel-muenchen.de',
      'hotel.net',
      'münchen-hotel.de',
      'reise24.de',
      'zahn.de',
    ])
    expect(PORTFOLIO.list({ offset: 2, limit: 2 }).items.map((item) => item.ascii)).toEqual(['berlin-reise.de', 'hotel-berlin.de'])
    expect(PORTFOLIO.list({ order: 'desc', limit: 2 }).items.map((item) => item.ascii)).toEqual(['zahn.de', 'reise24.de'])
  })

  test('by price either way, the names without an amount last', () => {
    const prices = (query: object) => PORTFOLIO.list({ sort: 'price', limit: 100, ...query }).items.map((item) => item.price ?? item.ascii)
    expect(prices({})).toEqual([100, 900, 2500, 3000, 4000, 5000, 7000, 'auto.de', 'zahn.de'])
    expect(prices({ order: 'desc' })).toEqual([7000, 5000, 4000, 3000, 2500, 900, 100, 'auto.de', 'zahn.de'])
  })

  test('q finds a part of the name, in Unicode or ASCII, in any case', () => {
    const found = (q: string, query: object = {}) => PORTFOLIO.list({ q, limit: 100, ...query })
    expect(names(found('BERLIN').items)).toEqual(['berlin-hotel.com', 'berlin-reise.de', 'hotel-berlin.de'])
    expect(found('berlin').total).toBe(3)
    expect(names(found('münchen').items)).toEqual(['xn--mnchen-hotel-dlb.de'])
    expect(names(found('xn--mnchen').items)).toEqual(['xn--mnchen-hotel-dlb.de'])
    expect(names(found('hotel', { sort: 'price', order: 'desc' }).items)).toEqual([
      'berlin-hotel.com',
      'hotel-berlin.de',
      'hotel.net',
      'hotel-muenchen.de',
      'xn--mnchen-hotel-dlb.de',
    ])
    expect(found('gibt-es-nicht')).toEqual({ total: 0, items: [] })
  })

  test('a query cannot reach across two names, and a page never holds more than 1000', () => {
    expect(PORTFOLIO.list({ q: 'de\nb' }).total).toBe(0)
    expect(PORTFOLIO.list({ q: 'de\0' }).total).toBe(7)
    const many = domainsConfigOf({ portfolio: true, domains: Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`n${i}.de`, {}])) })
    expect(many.list({ limit: 5000 }).items).toHaveLength(1000)
    expect(many.list({ limit: 5000 }).total).toBe(1500)
  })
})

/**
 * What /domains shows, computed the plain way: every listed name checked against the query, then the whole match
 * list sorted (by name with accents folded, ties by the ASCII form; by price either way, ties by name, names without
 * an amount last by name), then the page cut out of it.
 */
function naiveList(
  document: { domains: Record<string, { price?: number; priceType?: string; status?: string; listed?: boolean }> },
  query: { q: string; sort: 'name' | 'price'; order: 'asc' | 'desc'; offset: number; limit: number },
) {
  const fold = (display: string) => display.normalize('NFD').replace(/\p{M}/gu, '')
  const byName = (a: { key: string; ascii: string }, b: { key: string; ascii: string }) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.ascii < b.ascii ? -1 : a.ascii > b.ascii ? 1 : 0
  const needle = query.q
    .replace(/[\0\n]/g, '')
    .trim()
    .toLowerCase()
  const names = Object.entries(document.domains)
    .filter(([name, entry]) => !name.startsWith('*') && entry.listed !== false && (entry.status ?? 'available') === 'available')
    .map(([name, entry]) => {
      const ascii = new URL(`http://${name}/`).hostname
      const display = displayHost(ascii)
      const amount = entry.priceType === 'on-request' ? undefined : entry.price
      return { ascii, display, key: fold(display), amount }
    })
    .filter(({ ascii, display }) => !needle || display.includes(needle) || ascii.includes(needle))
  let sorted: typeof names
  if (query.sort === 'name') {
    sorted = names.sort(byName)
    if (query.order === 'desc') sorted.reverse()
  } else {
    const direction = query.order === 'asc' ? 1 : -1
    const priced = names.filter((name) => name.amount !== undefined).sort((a, b) => direction * (a.amount! - b.amount!) || byName(a, b))
    sorted = [...priced, ...names.filter((name) => name.amount === undefined).sort(byName)]
  }
  return { total: sorted.length, names: sorted.slice(query.offset, query.offset + Math.min(query.limit, 1000)).map((name) => name.ascii) }
}

describe('the list against a plain sort of every match', () => {
  // Few letters, so that names share parts and queries match many of them; few prices, so that prices tie.
  const label = fc.stringMatching(/^[abcäö]{1,3}(-[abc]{1,2})?[0-9]?$/)
  const entry = fc.record(
    {
      price: fc.constantFrom(100, 200, 300, 5000),
      priceType: fc.constantFrom('fixed', 'negotiable', 'on-request'),
      status: fc.constantFrom('available', 'available', 'available', 'reserved', 'sold'),
      listed: fc.constantFrom(true, true, true, false),
    },
    { requiredKeys: [] },
  )
  const document = fc.dictionary(
    fc.tuple(label, fc.constantFrom('de', 'com', 'at')).map(([name, tld]) => `${name}.${tld}`),
    entry,
    { minKeys: 1, maxKeys: 120 },
  )
  const query = fc.record({
    q: fc.oneof(fc.constant(''), fc.stringMatching(/^[abcäö.\-0-9 ]{1,4}$/), fc.constantFrom('xn--', 'A', ' b ', 'de\n', 'c\0')),
    sort: fc.constantFrom('name' as const, 'price' as const),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    offset: fc.nat({ max: 130 }),
    limit: fc.integer({ min: 0, max: 60 }),
  })

  test('gives the same names in the same order and the same total for any query, sort, order and page', () => {
    fc.assert(
      fc.property(document, fc.array(query, { minLength: 1, maxLength: 8 }), (domains, queries) => {
        // Names that differ only in case or spelling (ÄÖ, punycode) are one name to the file: keep one of each.
        const unique = Object.fromEntries([
          ...new Map(Object.entries(domains).map(([name, settings]) => [new URL(`http://${name}/`).hostname, [name, settings] as const])).values(),
        ])
        const file = { portfolio: true, domains: unique }
        const portfolio = domainsConfigOf(file)
        // Several queries on one index: its kept searches must not leak from one query into the next.
        for (const q of queries) {
          const { total, items } = portfolio.list(q)
          expect({ total, names: items.map((item) => item.ascii) }).toEqual(naiveList(file, q))
        }
      }),
      { numRuns: 300 },
    )
  })

  test('a page deep in a long list of sparse matches, either order', () => {
    const domains = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`n${i}${i % 97 === 0 ? 'zz' : ''}.de`, { price: 100 * (i % 50) + 100 }]))
    const file = { portfolio: true, domains }
    const portfolio = domainsConfigOf(file)
    for (const sort of ['name', 'price'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        for (const [q, offset] of [
          ['zz', 0],
          ['zz', 20],
          ['1', 500],
          ['1', 1200],
          ['', 2990],
        ] as const) {
          const query = { q, sort, order, offset, limit: 50 }
          const { total, items } = portfolio.list(query)
          expect({ total, names: items.map((item) => item.ascii) }).toEqual(naiveList(file, query))
        }
      }
    }
  })
})
