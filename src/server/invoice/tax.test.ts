import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { amountsFromGross, amountsOf, rateText, taxCaseOf } from './tax.ts'

describe('the amounts of an invoice', () => {
  test('net and VAT add up to the gross amount to the cent, for any amount and rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), (gross, rate) => {
        const { net, vat } = amountsFromGross(gross, rate)
        expect(Number.isInteger(net) && Number.isInteger(vat)).toBe(true)
        expect(net + vat).toBe(gross)
        expect(net).toBeGreaterThanOrEqual(0)
        expect(vat).toBeGreaterThanOrEqual(0)
        // The VAT is net × rate within half a cent (EN 16931 BR-CO-17 allows a whole unit).
        expect(Math.abs(vat * 10_000 - net * rate)).toBeLessThanOrEqual(5_000 + rate)
      }),
      { numRuns: 5_000 },
    )
  })

  test('1.190,00 € gross at 19 % is 1.000,00 € net and 190,00 € VAT; 0,01 € is all net', () => {
    expect(amountsFromGross(119_000, 1900)).toEqual({ net: 100_000, vat: 19_000, gross: 119_000, rateBasisPoints: 1900 })
    expect(amountsFromGross(1, 1900)).toMatchObject({ net: 1, vat: 0 })
    expect(amountsFromGross(99_999, 1900)).toMatchObject({ net: 84_033, vat: 15_966 })
  })

  test('no VAT in every case but the standard one', () => {
    for (const taxCase of ['small-business', 'reverse-charge', 'outside-eu'] as const)
      expect(amountsOf(4900_00, taxCase, 1900)).toEqual({ net: 4900_00, vat: 0, gross: 4900_00, rateBasisPoints: 0 })
  })

  test('refuses amounts that are not whole minor units', () => {
    expect(() => amountsFromGross(1.5, 1900)).toThrow(RangeError)
    expect(() => amountsFromGross(-1, 1900)).toThrow(RangeError)
  })

  test("rates are written with the language's decimal sign", () => {
    expect(rateText(1900, ',')).toBe('19')
    expect(rateText(750, ',')).toBe('7,5')
    expect(rateText(750, '.')).toBe('7.5')
  })
})

describe('which tax case a buyer is', () => {
  const seller = { smallBusiness: false, country: 'DE' }
  test('a buyer in Germany, with or without VAT ID, pays German VAT', () => {
    expect(taxCaseOf(seller, { country: 'DE', vatId: 'DE123456789' })).toBe('standard')
    expect(taxCaseOf(seller, { country: null, vatId: null })).toBe('standard')
  })
  test('a business in another member state with its VAT ID: reverse charge; without it: German VAT', () => {
    expect(taxCaseOf(seller, { country: 'FR', vatId: 'FR12345678901' })).toBe('reverse-charge')
    expect(taxCaseOf(seller, { country: 'AT', vatId: null })).toBe('standard')
  })
  test('a buyer outside the EU: not taxable here', () => {
    expect(taxCaseOf(seller, { country: 'CH', vatId: 'CHE-123.456.789' })).toBe('outside-eu')
    expect(taxCaseOf(seller, { country: 'US', vatId: null })).toBe('outside-eu')
  })
  test('a Kleinunternehmer never charges VAT', () => {
    expect(taxCaseOf({ smallBusiness: true, country: 'DE' }, { country: 'FR', vatId: 'FR1' })).toBe('small-business')
  })
})
