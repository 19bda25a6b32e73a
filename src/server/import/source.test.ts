import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { detectSeparator, fieldOfHeader, readSource } from './source.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/import')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')

describe('headers', () => {
  test.each([
    ['Domain', 'name'],
    ['Domain Name', 'name'],
    ['domain_name', 'name'],
    ['Domainname', 'name'],
    ['Preis', 'price'],
    ['PRICE', 'price'],
    ['Buy Now Price', 'price'],
    ['Mindestgebot', 'minOffer'],
    ['Min Offer', 'minOffer'],
    ['Minimum Offer', 'minOffer'],
    ['Währung', 'currency'],
    ['Waehrung', 'currency'],
    ['Currency', 'currency'],
  ])('%j is the column %s', (header, field) => expect(fieldOfHeader(header)).toEqual({ field }))

  test.each([
    ['Preis (EUR)', { field: 'price', mark: 'EUR' }],
    ['Price in USD', { field: 'price', mark: 'USD' }],
    ['Preis €', { field: 'price', mark: '€' }],
    ['min_offer_usd', { field: 'minOffer', mark: 'USD' }],
  ])('%j is an amount column with its currency', (header, found) => expect(fieldOfHeader(header)).toEqual(found))

  test.each(['Registrar', 'Ablaufdatum', 'Notiz', 'Preis (ABC)', 'Domain (EUR)', ''])('%j is a column the import leaves alone', (header) => {
    expect(fieldOfHeader(header)).toBeNull()
  })
})

describe('the separator', () => {
  test.each([
    ['Domain;Preis;Währung\nbeispiel.de;"4.900,00 €";EUR', ';'],
    ['Domain,Price\nexample.com,"1,500.00"', ','],
    ['"Domain;Name",Price,Currency', ','],
    ['\n\n  Domain;Preis', ';'],
    ['Domain', ','],
  ])('of %j is %j: the one the header line has more of outside quotes', (text, separator) => expect(detectSeparator(text)).toBe(separator))
})

describe('a CSV', () => {
  test('with a BOM, CRLF, ";", quoted separators, empty lines and extra columns reads every row with the line it starts on', () => {
    const source = readSource(fixture('inwx-de.csv'), 'csv')
    expect(source.separator).toBe(';')
    expect(source.problems).toEqual([])
    expect(source.columns).toEqual([
      { field: 'name', header: 'Domain' },
      { field: 'price', header: 'Preis' },
      { field: 'minOffer', header: 'Mindestgebot' },
      { field: 'currency', header: 'Währung' },
    ])
    expect(source.ignored).toEqual(['Registrar', 'Ablaufdatum', 'Notiz'])
    expect(source.rows).toEqual([
      { line: 2, cells: { name: 'beispiel.de', price: '4.900,00 €', minOffer: '1.500,00 €', currency: 'EUR' } },
      { line: 4, cells: { name: 'münchen-beispiel.de', price: '12.000', minOffer: '', currency: 'EUR' } },
      { line: 5, cells: { name: 'xn--bcher-kva.de', price: '2.500,- €', minOffer: '500', currency: '' } },
      { line: 7, cells: { name: 'ohne-preis.de', price: '', minOffer: '', currency: '' } },
      { line: 9, cells: { name: 'dollar-name.com', price: '1.200', minOffer: '', currency: 'USD' } },
    ])
  })

  test('with "," and quoted English amounts', () => {
    const source = readSource(fixture('godaddy-en.csv'), 'csv')
    expect(source.separator).toBe(',')
    expect(source.ignored).toEqual(['Expires', 'Auto Renew'])
    expect(source.rows[0]).toEqual({ line: 2, cells: { name: 'example.com', price: '$5,900.00', minOffer: '$1,000.00', currency: 'USD' } })
  })

  test('a short row gets empty cells; a quote never closed is a problem naming its line, the rows before it still count', () => {
    const source = readSource('Domain;Preis;Währung\na.de;1\nb.de;2;EUR\n"c.de;3\nd.de;4\n', 'csv')
    expect(source.rows).toEqual([
      { line: 2, cells: { name: 'a.de', price: '1', currency: '' } },
      { line: 3, cells: { name: 'b.de', price: '2', currency: 'EUR' } },
    ])
    expect(source.problems).toEqual([{ kind: 'syntax', line: 4, message: expect.stringContaining('Quote Not Closed') }])
  })

  test('without a column for the name, or with two for one field, says so and names the headers', () => {
    expect(readSource('example.de;4900\nother.de;100\n', 'csv')).toMatchObject({
      rows: [],
      problems: [{ kind: 'no-name-column', headers: ['example.de', '4900'] }],
    })
    expect(readSource('Domain;Preis;Price\na.de;1;2\n', 'csv').problems).toEqual([
      { kind: 'two-columns', line: 1, field: 'price', headers: ['Preis', 'Price'] },
    ])
  })

  test('an empty file has no rows', () => {
    expect(readSource('\ufeff\r\n\r\n', 'csv').problems).toEqual([{ kind: 'no-rows' }])
  })
})

describe('JSON', () => {
  test('is a list of entries with the same keys as the CSV headers, or of names', () => {
    const source = readSource(fixture('portfolio.json'), 'json')
    expect(source.problems).toEqual([])
    expect(source.rows).toEqual([
      { line: 1, cells: { name: 'json-beispiel.de', price: 4900, minOffer: 1000 } },
      { line: 2, cells: { name: 'zweite.de', price: '3.500,00 €', currency: 'EUR' } },
      { line: 3, cells: { name: 'nur-name.de' } },
      { line: 4, cells: { name: 'cent.de', price: 99.5 } },
    ])
  })

  test('that is no list, or no JSON at all, is a problem', () => {
    expect(readSource('{"domains": {"a.de": {}}}', 'json').problems).toEqual([
      { kind: 'syntax', line: null, message: expect.stringContaining('expected a list') },
    ])
    expect(readSource('[{"domain": "a.de",}]', 'json').problems).toEqual([{ kind: 'syntax', line: null, message: expect.any(String) }])
  })
})

// Long proofs (5 million levels, 150,000 columns): on a busy 2-core machine one took 38 s.
describe('hostile lists', { timeout: 120_000 }, () => {
  test('a header of 150,000 price columns: each one after the first is a problem, none is lost', () => {
    const header = ['Domain', ...Array.from({ length: 150_000 }, () => 'Price')]
    const source = readSource(`${header.join(',')}\na.de\n`, 'csv')
    expect(source.problems).toHaveLength(149_999)
    expect(source.problems[0]).toMatchObject({ kind: 'two-columns', field: 'price' })
  })

  test('JSON nested deeper than 100 levels is refused before any cell is shown as JSON (5 million levels)', () => {
    expect(readSource(`[{"domain": ${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}]`, 'json').problems).toEqual([
      { kind: 'syntax', line: null, message: 'lists and objects nested more than 100 levels deep' },
    ])
    // 100 levels are read: the list, its entry, and a cell nested 98 deep.
    const cell = `${'['.repeat(98)}${']'.repeat(98)}`
    expect(readSource(`[{"domain": ${cell}}]`, 'json')).toMatchObject({ problems: [], rows: [{ cells: { name: cell } }] })
  })
})
