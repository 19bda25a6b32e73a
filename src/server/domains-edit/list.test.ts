import { describe, expect, test, vi } from 'vitest'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { listDomains } from './list.ts'

// Counts the decodings of international names for the search text (the cost of the first list after a reload).
const decoded = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:url', async (original) => {
  const url = await original<typeof import('node:url')>()
  return { ...url, domainToUnicode: (name: string) => (decoded.count++, url.domainToUnicode(name)) }
})

const domains: Record<string, unknown> = {
  'münchen.de': { price: 900, description: '<b>x</b>' },
  'versteckt.de': { listed: false, status: 'reserved' },
  '*.wild.de': {},
}
for (let i = 0; i < 250; i++) domains[`name-${String(i).padStart(3, '0')}.de`] = { price: 1000 + i }
const config = domainsConfigOf({ default: { currency: 'USD', language: 'en' }, domains })

describe("the console's list of names", () => {
  test("pages through the exact names in the file's order, unlisted ones too, with the defaults where a name sets none", () => {
    const first = listDomains(config, {})
    expect([first.total, first.items.length]).toEqual([252, 100])
    expect(first.items.slice(0, 2)).toEqual([
      {
        name: 'münchen.de',
        ascii: 'xn--mnchen-3ya.de',
        price: 900,
        currency: 'USD',
        priceType: null,
        minOffer: null,
        status: 'available',
        language: 'en',
        listed: true,
        description: '<b>x</b>',
      },
      {
        name: 'versteckt.de',
        ascii: 'versteckt.de',
        price: null,
        currency: 'USD',
        priceType: null,
        minOffer: null,
        status: 'reserved',
        language: 'en',
        listed: false,
        description: null,
      },
    ])
    expect(listDomains(config, { offset: 200 }).items.map((row) => row.name)).toEqual(Array.from({ length: 52 }, (_, i) => `name-${198 + i}.de`))
    expect(listDomains(config, { offset: 5000 })).toEqual({ q: '', offset: 5000, total: 252, items: [] })
  })

  test('searches the ASCII and the Unicode form, in any case, never across two names, and pages a search', () => {
    expect(listDomains(config, { q: 'MÜNCHEN' }).items.map((row) => row.ascii)).toEqual(['xn--mnchen-3ya.de'])
    expect(listDomains(config, { q: 'xn--mnchen' }).total).toBe(1)
    expect(listDomains(config, { q: 'wild' }).total).toBe(0)
    expect(listDomains(config, { q: 'de\nname' }).total).toBe(0)
    const many = listDomains(config, { q: 'name-1', offset: 90 })
    expect([many.total, many.items.map((row) => row.name)]).toEqual([100, Array.from({ length: 10 }, (_, i) => `name-${190 + i}.de`)])
    // Asked again (the kept search), the same answer.
    expect(listDomains(config, { q: 'name-1', offset: 90 })).toEqual(many)
    expect(listDomains(config, { q: '.de' }).total).toBe(252)
  })

  test('the list after a reload makes no search text: the first search does, once per table', () => {
    const reloaded = domainsConfigOf({ domains: { 'bücher.de': {}, 'zwei.de': {} } })
    decoded.count = 0
    expect(listDomains(reloaded, {}).total).toBe(2)
    expect(listDomains(reloaded, { offset: 1 }).items.map((row) => row.name)).toEqual(['zwei.de'])
    expect(decoded.count).toBe(0)
    expect(listDomains(reloaded, { q: 'bü' }).items.map((row) => row.name)).toEqual(['bücher.de'])
    expect(listDomains(reloaded, { q: 'zw' }).total).toBe(1)
    expect(decoded.count).toBe(1)
  })
})
