import { describe, expect, test } from 'vitest'
import { groupedIban, isValidIban, normalIban } from './iban.ts'

describe('the IBAN check', () => {
  test('accepts real IBANs of several countries, written with spaces and in small letters', () => {
    for (const iban of [
      'DE89 3704 0044 0532 0130 00',
      'de89370400440532013000',
      'AT61 1904 3002 3457 3201',
      'GB29 NWBK 6016 1331 9268 19',
      'NL91ABNA0417164300',
      'CH9300762011623852957',
    ]) {
      expect(isValidIban(normalIban(iban)), iban).toBe(true)
    }
  })

  test('refuses a changed digit, swapped digits, a wrong length and stray characters', () => {
    for (const iban of ['DE89370400440532013001', 'DE98370400440532013000', 'DE8937040044053201300', 'DE89-3704-0044-0532-0130-00', 'XX', '']) {
      expect(isValidIban(normalIban(iban)), iban).toBe(false)
    }
  })

  test('groups an IBAN in fours for reading', () => {
    expect(groupedIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00')
  })
})
