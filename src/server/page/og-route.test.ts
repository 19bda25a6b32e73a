import { afterAll, describe, expect, test } from 'vitest'
import { TEXTS } from '../../shared/texts-all.ts'
import { HttpError } from '../http/errors.ts'
import { createWorkBudget } from '../http/work-budget.ts'
import type { Site } from '../sites/resolver.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { createOgDrawer } from './og-drawer.ts'
import { createOgImages, ogContentOf } from './og-route.ts'

const file = domainsConfigOf({
  domains: {
    'example.de': { price: 4900 },
    'fest.de': { price: 12000, currency: 'USD', priceType: 'fixed', vat: 'excluded', description: 'Kurz.' },
    'anfrage.de': { price: 4900, priceType: 'on-request', vat: 'included' },
    'verkauft.de': { price: 4900, status: 'sold' },
  },
})
const siteFor = (ascii: string): Site => ({
  host: { ascii, display: ascii },
  settings: file.resolve(ascii)!.settings,
  listedExactly: true,
  domainsConfig: file,
  legal: {},
  language: 'de',
  variesByLanguage: false,
})

describe('what the link-preview image shows', () => {
  test('the price in the words of the page, terms and VAT included', () => {
    expect(ogContentOf(siteFor('example.de'), 'de')).toEqual({ name: 'example.de', price: 'Preis: 4.900\u00a0€', text: 'Diese Domain steht zum Verkauf' })
    expect(ogContentOf(siteFor('fest.de'), 'de')).toEqual({ name: 'fest.de', price: 'Festpreis: 12.000\u00a0$ zzgl. MwSt.', text: 'Kurz.' })
  })

  test('no amount when the price is on request, though the file has one', () => {
    expect(ogContentOf(siteFor('anfrage.de'), 'de')).toEqual({ name: 'anfrage.de', price: 'Preis auf Anfrage', text: 'Diese Domain steht zum Verkauf' })
  })

  test('a sold name: no price, and that it is sold', () => {
    expect(ogContentOf(siteFor('verkauft.de'), 'de')).toEqual({ name: 'verkauft.de', text: 'Diese Domain wurde verkauft.' })
  })
})

describe('drawing the images', () => {
  const drawer = createOgDrawer()
  afterAll(() => drawer.close())
  const unlimited = createWorkBudget({ max: 0, windowMs: 60_000 })
  const hostSite = (name: string): Site => ({ ...siteFor('example.de'), host: { ascii: name, display: name } })
  const statusOf = (error: unknown) => (error instanceof HttpError ? error.statusCode : error)

  test('the images kept never take more than their bound in bytes; the ones used last stay', async () => {
    const bound = 150 * 1024
    const images = createOgImages({ budget: unlimited, drawer, cacheBytes: bound })
    const drawn = []
    for (let i = 0; i < 6; i++) {
      drawn.push(await images.get(hostSite(`name-${i}.de`), 'de', 'a'))
      expect(images.cachedBytes()).toBeLessThanOrEqual(bound)
    }
    // Three real images of 30 to 60 KB fit, more do not.
    expect(images.cachedBytes()).toBeGreaterThan(2 * 30 * 1024)
    expect(await images.get(hostSite('name-5.de'), 'de', 'a')).toBe(drawn[5])
    expect(await images.get(hostSite('name-0.de'), 'de', 'a')).not.toBe(drawn[0])
  })

  test('a client gets 429 once its drawings are spent, though kept images are still given to it and others still draw', async () => {
    const images = createOgImages({ budget: createWorkBudget({ max: 2, windowMs: 60_000 }), drawer })
    await images.get(hostSite('a.de'), 'de', 'spray')
    await images.get(hostSite('b.de'), 'de', 'spray')
    const refused = await Promise.resolve()
      .then(() => images.get(hostSite('c.de'), 'de', 'spray'))
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(HttpError)
    expect(refused).toMatchObject({ statusCode: 429, message: TEXTS.de.rateLimited })
    expect(Number((refused as HttpError).headers['retry-after'])).toBeGreaterThan(0)
    expect((await images.get(hostSite('a.de'), 'de', 'spray')).png.length).toBeGreaterThan(0)
    expect((await images.get(hostSite('c.de'), 'de', 'other')).png.length).toBeGreaterThan(0)
  })

  test('one drawing at a time and a short queue: more new images asked for at once get 503 with Retry-After', async () => {
    const images = createOgImages({ budget: unlimited, drawer })
    const answers = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => Promise.resolve().then(() => images.get(hostSite(`n${i}.de`), 'de', 'a'))))
    const statuses = answers.map((answer) => (answer.status === 'fulfilled' ? 200 : statusOf(answer.reason)))
    expect(statuses).toEqual([...Array(9).fill(200), ...Array(3).fill(503)])
    const refused = answers.at(-1) as PromiseRejectedResult
    expect((refused.reason as HttpError).headers['retry-after']).toBe('5')
  })
})
