import { describe, expect, test } from 'vitest'
import { domainsFileSchema } from '../sites/settings.ts'
import { portfolioOf, wordsOf } from './names.ts'

const config = domainsFileSchema.parse({
  portfolio: true,
  default: { currency: 'EUR' },
  domains: {
    'kaffee-shop.de': { price: 4900 },
    'kaffee-bar.de': { price: 2500 },
    'tee-shop.de': { price: 900, priceType: 'on-request' },
    'kaffee-shop.com': { price: 12000, currency: 'USD' },
    'auto.de': {},
    'reserviert-kaffee.de': { status: 'reserved' },
    'verkauft-kaffee.de': { status: 'sold' },
    'versteckt-kaffee.de': { listed: false },
    '*.kaffee.de': {},
    'münchen-kaffee.de': { price: 3000 },
  },
})
const portfolio = portfolioOf(config)!
const names = (list: { ascii: string }[]) => list.map((name) => name.ascii)

describe('the portfolio', () => {
  test('words are the letters of the labels below the top-level domain, three or more, split at hyphens and digits', () => {
    expect(wordsOf('kaffee-shop24.de')).toEqual(['kaffee', 'shop'])
    expect(wordsOf('münchen-kaffee.de')).toEqual(['münchen', 'kaffee'])
    expect(wordsOf('ab-x1.de')).toEqual([])
  })

  test('lists only names a buyer can buy now: no wildcard, reserved, sold or unlisted name', () => {
    expect(names(portfolio.list({ sort: 'name', order: 'asc', offset: 0, limit: 50 }).items)).toEqual([
      'auto.de',
      'kaffee-bar.de',
      'kaffee-shop.com',
      'kaffee-shop.de',
      'xn--mnchen-kaffee-wob.de',
      'tee-shop.de',
    ])
  })

  test('related names: the same top-level domain first, then more words in common, then by name; never the name itself', () => {
    expect(names(portfolio.related('kaffee-shop.de', 12))).toEqual(['kaffee-bar.de', 'xn--mnchen-kaffee-wob.de', 'tee-shop.de', 'auto.de', 'kaffee-shop.com'])
    expect(names(portfolio.related('kaffee-shop.de', 2))).toEqual(['kaffee-bar.de', 'xn--mnchen-kaffee-wob.de'])
  })

  test('a name that is not in the portfolio gets the related names as well', () => {
    expect(names(portfolio.related('shop.kaffee.de', 3))).toEqual(['kaffee-shop.de', 'kaffee-bar.de', 'xn--mnchen-kaffee-wob.de'])
  })

  test('search finds a part of the name in Unicode or punycode, in any case', () => {
    expect(names(portfolio.list({ q: 'MÜNCHEN', sort: 'name', order: 'asc', offset: 0, limit: 50 }).items)).toEqual(['xn--mnchen-kaffee-wob.de'])
    expect(names(portfolio.list({ q: 'xn--mnchen', sort: 'name', order: 'asc', offset: 0, limit: 50 }).items)).toEqual(['xn--mnchen-kaffee-wob.de'])
    expect(portfolio.list({ q: 'shop', sort: 'name', order: 'asc', offset: 0, limit: 1 })).toEqual({ total: 3, items: [expect.objectContaining({ ascii: 'kaffee-shop.com' })] })
  })

  test('sorting by price puts names without a shown amount last, either way', () => {
    const byPrice = (order: 'asc' | 'desc') => names(portfolio.list({ sort: 'price', order, offset: 0, limit: 50 }).items)
    expect(byPrice('asc')).toEqual(['kaffee-bar.de', 'xn--mnchen-kaffee-wob.de', 'kaffee-shop.de', 'kaffee-shop.com', 'auto.de', 'tee-shop.de'])
    expect(byPrice('desc')).toEqual(['kaffee-shop.com', 'kaffee-shop.de', 'xn--mnchen-kaffee-wob.de', 'kaffee-bar.de', 'auto.de', 'tee-shop.de'])
    expect(names(portfolio.list({ sort: 'name', order: 'desc', offset: 0, limit: 2 }).items)).toEqual(['tee-shop.de', 'xn--mnchen-kaffee-wob.de'])
  })

  test('a domains file without portfolio: true has none', () => {
    expect(portfolioOf(domainsFileSchema.parse({ domains: { 'a.de': {} } }))).toBeNull()
  })
})
