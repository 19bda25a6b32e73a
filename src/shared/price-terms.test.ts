import { describe, expect, test } from 'vitest'
import { priceLine, priceText } from './price-terms.ts'

const AMOUNT = '4.900\u00a0€'

describe('price terms in words', () => {
  test('without a priceType the price reads as it always did', () => {
    expect(priceText({ price: AMOUNT })).toEqual({ line: `Preis: ${AMOUNT}` })
  })

  test.each([
    ['fixed', 'Festpreis'],
    ['negotiable', 'Verhandlungsbasis (VB)'],
  ] as const)('%s is "%s" with the amount', (priceType, label) => {
    expect(priceText({ price: AMOUNT, priceType })).toEqual({ line: `${label}: ${AMOUNT}`, terms: { label, amount: AMOUNT } })
  })

  test.each([
    ['included', 'inkl. MwSt.'],
    ['excluded', 'zzgl. MwSt.'],
  ] as const)('VAT %s is "%s", with or without a priceType', (vat, words) => {
    expect(priceText({ price: AMOUNT, vat })?.vat).toBe(words)
    expect(priceText({ price: AMOUNT, priceType: 'negotiable', vat })?.vat).toBe(words)
    expect(priceLine(priceText({ price: AMOUNT, priceType: 'fixed', vat })!)).toBe(`Festpreis: ${AMOUNT} ${words}`)
  })

  test('on request says so and nothing else, even if an amount and VAT were handed over', () => {
    expect(priceText({ priceType: 'on-request' })).toEqual({ line: 'Preis auf Anfrage' })
    expect(priceText({ priceType: 'on-request', price: AMOUNT, vat: 'included' })).toEqual({ line: 'Preis auf Anfrage' })
  })

  test('a fixed or negotiable price without an amount says nothing', () => {
    expect(priceText({})).toBeUndefined()
    expect(priceText({ priceType: 'fixed' })).toBeUndefined()
    expect(priceText({ priceType: 'negotiable', vat: 'excluded' })).toBeUndefined()
  })

  test('the line of a price without terms or VAT is the price alone', () => {
    expect(priceLine(priceText({ price: '990\u00a0$' })!)).toBe('Preis: 990\u00a0$')
  })
})
