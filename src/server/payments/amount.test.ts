import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { decimalOf } from '../lib/money.ts'
import { parseMinor } from './amount.ts'

describe('an amount of a bank statement in minor units', () => {
  test('is read from its digits, with or without decimals', () => {
    expect(parseMinor('4900.00', 'EUR')).toBe(490_000)
    expect(parseMinor('4900', 'EUR')).toBe(490_000)
    expect(parseMinor('0.1', 'EUR')).toBe(10)
    expect(parseMinor('12.3400', 'EUR')).toBe(1234)
    expect(parseMinor('1500', 'JPY')).toBe(1500)
    expect(parseMinor(' 1.05 ', 'EUR')).toBe(105)
  })

  test('that floats would get wrong are exact', () => {
    // 0.29 * 100 is 28.999999999999996 in binary floating point.
    expect(parseMinor('0.29', 'EUR')).toBe(29)
    expect(parseMinor('1234567890123.45', 'EUR')).toBe(123_456_789_012_345)
  })

  test('refuses what is no plain decimal, cents of a cent, and more than counts exactly', () => {
    for (const bad of ['', '-5.00', '+5', '1e3', '1,00', '1.', '.5', 'NaN', 'Infinity', '0x10', '١٢', '1 000.00', '1.000000'])
      expect(parseMinor(bad, 'EUR')).toBe('format')
    expect(parseMinor('1.001', 'EUR')).toBe('precision')
    expect(parseMinor('1.5', 'JPY')).toBe('precision')
    expect(parseMinor('999999999999999999', 'EUR')).toBe('range')
    expect(parseMinor('9999999999999999999', 'EUR')).toBe('format')
  })

  test('every amount in cents reads back as itself', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (minor) => parseMinor(decimalOf(minor, 'EUR'), 'EUR') === minor))
  })
})
