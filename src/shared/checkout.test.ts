import { describe, expect, test } from 'vitest'
import { checkAddress, checkCheckout, COUNTRIES } from './checkout.ts'

const valid = {
  name58fnlsd: 'Erika Mustermann',
  themail3h6: 'erika@example.de',
  company: '',
  street: 'Hauptstraße 1',
  postcode: '10115',
  city: 'Berlin',
  country: 'DE',
  vat_id: 'de 123456789',
  binding: 'on',
  name58fnlsdbee: '',
  themail3h6bee: '',
  token: 'A'.repeat(15),
  hash: 'x',
}

describe('the checkout schema', () => {
  test('takes a complete checkout, the VAT ID in upper case', () => {
    const check = checkCheckout(valid)
    expect(check.status).toBe('valid')
    if (check.status === 'valid') expect(check.data.vat_id).toBe('DE 123456789')
  })

  test('a purchase is binding only when the box was ticked', () => {
    expect(checkCheckout({ ...valid, binding: undefined })).toEqual({
      status: 'invalid',
      fieldErrors: { binding: 'Bitte bestätigen Sie, dass Sie verbindlich zum angezeigten Preis kaufen.' },
    })
    expect(checkCheckout({ ...valid, binding: 'yes' }, 'en')).toEqual({
      status: 'invalid',
      fieldErrors: { binding: 'Please confirm that you are buying at the price shown.' },
    })
  })

  test.each([
    ['street', ' \u200b '],
    ['city', 'Berlin\r\nBcc: x@example.org'],
    ['postcode', '1'.repeat(21)],
    ['company', 'A\u2028B'],
    ['country', 'XX'],
    ['country', 'de'],
    ['vat_id', '123'],
    ['themail3h6', 'erika@localhost'],
  ])('refuses %s %j, naming that field', (field, value) => {
    const check = checkCheckout({ ...valid, [field]: value })
    expect(check.status).toBe('invalid')
    if (check.status === 'invalid') expect(Object.keys(check.fieldErrors)).toEqual([field])
  })

  test('a missing token is no field the buyer can correct: no hint is given', () => {
    expect(checkCheckout({ ...valid, token: 'short' })).toEqual({ status: 'invalid', fieldErrors: {} })
  })

  test('knows the countries in use today, each once', () => {
    expect(COUNTRIES).toHaveLength(249)
    expect(new Set(COUNTRIES).size).toBe(249)
    expect(COUNTRIES).toEqual(expect.arrayContaining(['DE', 'AT', 'CH', 'GB', 'US']))
    expect(COUNTRIES).not.toEqual(expect.arrayContaining(['UK']))
  })
})

describe("the invoice address of a negotiated deal (the checkout's own fields and rules)", () => {
  const address = {
    name58fnlsd: 'Erika Mustermann',
    company: '',
    street: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    vat_id: 'de 123456789',
  }

  test('takes name and address alone: no e-mail, binding tick or form token, the VAT ID in upper case', () => {
    const check = checkAddress({ ...address, action: 'address' })
    expect(check.status).toBe('valid')
    if (check.status === 'valid') expect(check.data).toEqual({ ...address, vat_id: 'DE 123456789' })
  })

  test.each([
    ['street', ' \u200b '],
    ['city', 'Berlin\r\nBcc: x@example.org'],
    ['postcode', '1'.repeat(21)],
    ['company', 'A\u2028B'],
    ['country', 'XX'],
    ['vat_id', '123'],
    ['name58fnlsd', ''],
  ])('refuses %s %j with the hint the checkout gives for it', (field, value) => {
    const check = checkAddress({ ...address, [field]: value })
    const checkout = checkCheckout({ ...valid, [field]: value })
    expect(check.status).toBe('invalid')
    expect(checkout.status).toBe('invalid')
    if (check.status === 'invalid' && checkout.status === 'invalid') expect(check.fieldErrors).toEqual(checkout.fieldErrors)
  })

  test('names the wrong fields in English for an English page', () => {
    expect(checkAddress({ ...address, street: '', country: 'de' }, 'en')).toEqual({
      status: 'invalid',
      fieldErrors: { street: 'Please enter your street and number.', country: 'Please choose your country.' },
    })
  })
})
