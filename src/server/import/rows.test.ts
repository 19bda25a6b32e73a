import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkRows } from './rows.ts'
import { readSource } from './source.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/import')
const inEuro = () => 'EUR'
const check = (text: string, currencyIn: (ascii: string) => string = inEuro) => checkRows(readSource(text, 'csv'), currencyIn)
const fixture = (name: string, format: 'csv' | 'json' = 'csv') => checkRows(readSource(fs.readFileSync(path.join(FIXTURES, name), 'utf8'), format), inEuro)

describe('names', () => {
  test('Unicode and punycode, any case, with a trailing dot, come out in ASCII, and as people read them', () => {
    const { domains, problems } = check('Domain\nMünchen.de\nxn--bcher-kva.de\nEXAMPLE.ORG.\n')
    expect(problems).toEqual([])
    expect(domains.map(({ ascii, name }) => [ascii, name])).toEqual([
      ['xn--mnchen-3ya.de', 'münchen.de'],
      ['xn--bcher-kva.de', 'bücher.de'],
      ['example.org', 'example.org'],
    ])
  })

  test('every invalid name is a problem naming its line and the value, and only those rows are left out', () => {
    const { domains, problems } = fixture('problems.csv')
    expect(domains.map(({ name }) => name)).toEqual(['gut.de', 'münchen.de'])
    expect(problems).toEqual([
      { kind: 'name', line: 3, value: 'nicht gültig.de' },
      { kind: 'name', line: 4, value: '<img src=x onerror=alert(1)>.de' },
      { kind: 'name', line: 5, value: '\u001b]0;pwned\u0007evil.de' },
      { kind: 'wildcard', line: 6, value: '*.wildcard.de' },
      { kind: 'amount', line: 7, field: 'price', value: '4.900,50 €', reason: 'cents', currency: '' },
      { kind: 'amount', line: 8, field: 'price', value: 'viel', reason: 'format', currency: '' },
      { kind: 'currency', line: 9, value: 'Euro' },
      { kind: 'amount', line: 10, field: 'price', value: '$100', reason: 'currency', currency: 'EUR' },
      { kind: 'no-name', line: 11 },
      { kind: 'duplicate', line: 13, first: 12, name: 'münchen.de', conflict: false },
      { kind: 'duplicate', line: 14, first: 2, name: 'gut.de', conflict: true },
      { kind: 'name', line: 15, value: 'localhost' },
    ])
  })
})

describe('amounts', () => {
  test.each([
    ['4900', 4900],
    ['4.900', 4900],
    ['"4.900,00 €"', 4900],
    ['4.900,- €', 4900],
    ['"1,500.00"', 1500],
    ['EUR 1.500', 1500],
    ['12 000', 12000],
    ['0', 0],
  ])('%s is read as %s', (cell, amount) => {
    const { domains, problems } = check(`Domain,Preis\na.de,${cell}\n`)
    expect(problems).toEqual([])
    expect(domains[0]!.price).toBe(amount)
  })

  test('an empty cell is no amount (null); a missing column says nothing (undefined)', () => {
    const { domains } = check('Domain;Preis\na.de;\n')
    expect(domains[0]).toMatchObject({ price: null })
    expect(domains[0]!.minOffer).toBeUndefined()
  })

  test('JSON numbers are taken as they are, and cents are a problem there too', () => {
    const { domains, problems } = fixture('portfolio.json', 'json')
    expect(domains.map(({ name, price, minOffer, currency }) => ({ name, price, minOffer, currency }))).toEqual([
      { name: 'json-beispiel.de', price: 4900, minOffer: 1000, currency: undefined },
      { name: 'zweite.de', price: 3500, minOffer: undefined, currency: 'EUR' },
      { name: 'nur-name.de', price: undefined, minOffer: undefined, currency: undefined },
    ])
    expect(problems).toEqual([{ kind: 'amount', line: 4, field: 'price', value: '99.5', reason: 'cents', currency: '' }])
  })
})

describe('currencies', () => {
  test("a currency column, a code or € with the amount, or the header name the row's currency, and they must agree", () => {
    const { domains, problems } = check(
      'Domain;Preis (USD);Mindestgebot;Währung\na.de;100;;\nb.de;"100 €";;\nc.de;100;;chf\nd.de;$100;;\ne.de;;100 GBP;\n',
      () => 'SEK',
    )
    expect(domains.map(({ name, currency }) => [name, currency])).toEqual([
      ['a.de', 'USD'],
      ['d.de', 'USD'],
      ['e.de', 'GBP'],
    ])
    // "100 €", or CHF, under a header in USD: the two say different things.
    expect(problems).toEqual([
      { kind: 'amount', line: 3, field: 'price', value: '100 €', reason: 'currency', currency: 'EUR' },
      { kind: 'amount', line: 4, field: 'price', value: '100', reason: 'currency', currency: 'CHF' },
    ])
  })

  test("an amount without a currency is in the name's current one; a mark of another is a problem naming it", () => {
    const { problems } = check('Domain;Preis\ndollar.com;$100\neuro.de;$100\n', (ascii) => (ascii === 'dollar.com' ? 'USD' : 'EUR'))
    expect(problems).toEqual([{ kind: 'amount', line: 3, field: 'price', value: '$100', reason: 'currency', currency: 'EUR' }])
  })
})
