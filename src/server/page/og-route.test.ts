import { describe, expect, test } from 'vitest'
import type { Site } from '../sites/resolver.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { ogContentOf } from './og-route.ts'

const file = domainsConfigOf({
  domains: {
    'example.de': { price: 4900 },
    'fest.de': { price: 12000, currency: 'USD', priceType: 'fixed', vat: 'excluded', description: 'Kurz.' },
    'anfrage.de': { price: 4900, priceType: 'on-request', vat: 'included' },
    'verkauft.de': { price: 4900, status: 'sold' },
  },
})
const siteFor = (ascii: string): Site => ({ host: { ascii, display: ascii }, settings: file.resolve(ascii)!.settings, domainsConfig: file, legal: {}, language: 'de', variesByLanguage: false })

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
