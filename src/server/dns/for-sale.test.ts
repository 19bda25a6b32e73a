import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseZoneTxt } from '../../../tests/helpers/dns.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { judgeRecords } from './check.ts'
import { forSaleListing, forSaleRecords, forSaleText, readForSaleTxt, zoneLine, zoneString, type ForSaleDomain } from './for-sale.ts'

const octets = (text: string) => Buffer.byteLength(text, 'utf8')
const txt = (...strings: string[]) => strings.map((s) => Buffer.from(s, 'utf8'))
/** What breaks a rule in one record; null for a TXT that is no _for-sale record. */
const problemsOf = (...strings: string[]) => {
  const reading = readForSaleTxt(txt(...strings))
  return reading.kind === 'for-sale' ? reading.problems : null
}
const listing = (file: unknown) => forSaleListing(domainsConfigOf(file))

describe('the records of a domain', () => {
  test('are furi to its own page, fval from price and currency, ftxt from the description, one pair each', () => {
    expect(forSaleRecords('example.de', { price: 4900, description: 'Kurz und gut.' })).toEqual([
      'v=FORSALE1;furi=https://example.de/',
      'v=FORSALE1;fval=EUR4900',
      'v=FORSALE1;ftxt=Kurz und gut.',
    ])
    expect(forSaleRecords('xn--mnchen-3ya.de', { price: 12000, currency: 'USD' })).toEqual([
      'v=FORSALE1;furi=https://xn--mnchen-3ya.de/',
      'v=FORSALE1;fval=USD12000',
    ])
    expect(forSaleRecords('example.de', {})).toEqual(['v=FORSALE1;furi=https://example.de/'])
  })

  test('carry no fval when the price is on request, though the file keeps one for the owner', () => {
    const settings = { price: 4900, priceType: 'on-request', description: 'Preis auf Anfrage.' } as const
    expect(forSaleRecords('example.de', settings)).toEqual(['v=FORSALE1;furi=https://example.de/', 'v=FORSALE1;ftxt=Preis auf Anfrage.'])
    expect(listing({ domains: { 'example.de': settings } }).domains[0]!.expected).toEqual({ furi: 'https://example.de/', fval: null })
  })

  test('read back, every record has exactly the pair it was built with and breaks no rule', () => {
    const records = forSaleRecords('example.de', { price: 0, currency: 'JPY', description: 'Ä "x" \\ 😀' })
    expect(records.map((record) => readForSaleTxt(txt(record)))).toEqual([
      { kind: 'for-sale', text: records[0], tag: 'furi', value: 'https://example.de/', problems: [] },
      { kind: 'for-sale', text: records[1], tag: 'fval', value: 'JPY0', problems: [] },
      { kind: 'for-sale', text: records[2], tag: 'ftxt', value: 'Ä "x" \\ 😀', problems: [] },
    ])
  })

  test('leave out furi when the name is too long for one record', () => {
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(50)}.de`
    expect(forSaleRecords(long, { price: 1 })).toEqual(['v=FORSALE1;fval=EUR1'])
  })
})

describe('ftxt from a description', () => {
  test('is one line without control or bidi characters, and cannot be read as a second pair', () => {
    expect(forSaleText('Erste\nZweite\tDritte\r\n\u0007Vierte \u202eevil')).toBe('Erste Zweite Dritte Vierte evil')
    expect(forSaleText('Preis;fval=EUR1 und ; furi=x; ok')).toBe('Preis,fval=EUR1 und , furi=x; ok')
    expect(problemsOf(`v=FORSALE1;ftxt=${forSaleText('a;fval=EUR1')}`)).toEqual([])
    expect(forSaleText(' \n\t ')).toBeNull()
  })

  test('is shortened at a word to fit one record of 255 octets, with an ellipsis', () => {
    const text = forSaleText(`${'Wort '.repeat(100)}Ende`)!
    expect(octets(`v=FORSALE1;ftxt=${text}`)).toBeLessThanOrEqual(255)
    expect(text).toMatch(/^(Wort )+Wort…$/)
  })

  test('is never longer than a record allows and never cuts a character, however long the description', () => {
    const segmenter = new Intl.Segmenter('de', { granularity: 'grapheme' })
    const graphemes = (s: string) => Array.from(segmenter.segment(s), ({ segment }) => segment)
    // Characters of one to eleven octets: a cut by octets or code units would split the longer ones.
    const characters = fc.constantFrom('a', 'ä', ' ', '字', 'e\u0301', '😀', '🇩🇪', '👩\u200d👩\u200d👧')
    fc.assert(
      fc.property(fc.array(characters, { maxLength: 300 }), (parts) => {
        const description = parts.join('')
        const whole = description.replace(/\s+/g, ' ').trim()
        const text = forSaleText(description)
        if (!whole) {
          expect(text).toBeNull()
          return
        }
        expect(octets(`v=FORSALE1;ftxt=${text}`)).toBeLessThanOrEqual(255)
        if (text === whole) return
        expect(text!.endsWith('…')).toBe(true)
        const kept = graphemes(text!.slice(0, -1))
        expect(kept).toEqual(graphemes(whole).slice(0, kept.length))
      }),
    )
  })
})

describe('zone-file text', () => {
  test('escapes quotes and backslashes and writes every other octet outside printable ASCII as \\DDD', () => {
    expect(zoneString('v=FORSALE1;ftxt=ä "x" \\ 😀\t')).toBe('"v=FORSALE1;ftxt=\\195\\164 \\"x\\" \\\\ \\240\\159\\152\\128\\009"')
  })

  test('round-trips: a zone line parsed back holds the record’s exact octets in one character-string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const [record] = parseZoneTxt(zoneLine('example.de', text))
        expect(record).toEqual({ owner: '_for-sale.example.de.', ttl: 3600, strings: [Buffer.from(text, 'utf8')] })
      }),
    )
  })
})

describe('a published record read by the RFC', () => {
  test('a bare version tag is valid (for sale, ask) and a TXT without it is no _for-sale record', () => {
    expect(readForSaleTxt(txt('v=FORSALE1;'))).toEqual({ kind: 'for-sale', text: 'v=FORSALE1;', tag: null, value: '', problems: [] })
    expect(problemsOf('google-site-verification=abc')).toBeNull()
    expect(problemsOf('v=FORSALE1;fval=USD750.50')).toEqual([])
    expect(problemsOf('v=FORSALE1;furi=mailto:verkauf@example.org')).toEqual([])
  })

  test.each([
    [['v=FORSALE1;furi=https://example.net/forsale;fval=EUR1000'], /more than one tag-value pair/],
    [['V=FORSALE1;fval=EUR1'], /version tag is not exactly/],
    [['v=forsale1;fval=EUR1'], /version tag is not exactly/],
    [['v=FORSALE1;FVAL=EUR1'], /no known content tag/],
    [['v=FORSALE1;foo=bar'], /no known content tag/],
    [['v=FORSALE1;fcod='], /value is empty/],
    [['v=FORSALE1;fval=4900 EUR'], /not a currency code and an amount/],
    [['v=FORSALE1;fval=EUR4.900,00'], /not a currency code and an amount/],
    [['v=FORSALE1;furi=https://a.example/ https://b.example/'], /not one URI/],
    [['v=FORSALE1;ftxt=', 'Teil zwei'], /split into 2 character-strings/],
    [['v=FORSALE1;ftxt=' + 'x'.repeat(200), 'y'.repeat(100)], /it is 316 octets long/],
  ])('%j breaks a rule', (strings, rule) => {
    expect(problemsOf(...strings)?.join('; ')).toMatch(rule)
  })
})

describe('the domains the records are made for', () => {
  test('are the exact names shown, with their status; wildcards and unlisted names are skipped with the reason', () => {
    const { domains, skipped } = listing({
      default: { status: 'sold' },
      domains: {
        'münchen.de': { price: 5, status: 'available' },
        'old.de': { price: 9 },
        'res.de': { status: 'reserved' },
        '*.parked.de': {},
        'hidden.de': { listed: false },
      },
    })
    expect(domains.map(({ domain, ascii, status, records }) => ({ domain, ascii, status, records: records.length }))).toEqual([
      { domain: 'münchen.de', ascii: 'xn--mnchen-3ya.de', status: 'available', records: 2 },
      { domain: 'old.de', ascii: 'old.de', status: 'sold', records: 0 },
      { domain: 'res.de', ascii: 'res.de', status: 'reserved', records: 1 },
    ])
    expect(skipped).toEqual([
      { domain: '*.parked.de', reason: expect.stringContaining('wildcard') },
      { domain: 'hidden.de', reason: expect.stringContaining('listed: false') },
    ])
  })
})

describe('check judges what is published', () => {
  const [example, sold] = listing({ domains: { 'example.de': { price: 4900 }, 'sold.de': { status: 'sold', price: 1 } } }).domains as [
    ForSaleDomain,
    ForSaleDomain,
  ]
  const judge = (domain: ForSaleDomain, ...records: string[]) =>
    judgeRecords(
      domain,
      records.map((record) => txt(record)),
    )

  test('its own records are in order, with ftxt of the owner’s choosing and extra TXT beside them', () => {
    expect(judge(example, ...example.records, 'v=FORSALE1;ftxt=Anders formuliert', 'v=FORSALE1;furi=mailto:a@example.org', 'other=1')).toEqual([])
    expect(judge(sold)).toEqual([])
  })

  test('missing, stale, left over and malformed records are named', () => {
    expect(judge(example)).toEqual([{ state: 'missing', detail: 'no _for-sale record' }])
    expect(judge(example, 'v=FORSALE1;furi=https://example.de/', 'v=FORSALE1;fval=EUR3900')).toEqual([
      { state: 'stale', detail: 'fval: DNS has EUR3900, the file says EUR4900' },
    ])
    expect(judge(example, 'v=FORSALE1;furi=https://elsewhere.example/', 'v=FORSALE1;fval=EUR4900')).toEqual([
      { state: 'stale', detail: "furi: DNS has https://elsewhere.example/, the file's page is https://example.de/" },
    ])
    expect(judge(sold, 'v=FORSALE1;fval=EUR1', 'v=FORSALE1;')).toEqual([{ state: 'left over', detail: 'sold, but 2 _for-sale records remain' }])
    expect(judge(example, 'V=FORSALE1;fval=EUR4900')).toEqual([
      { state: 'malformed', detail: expect.stringContaining('"V=FORSALE1;fval=EUR4900": the version tag') },
      { state: 'missing', detail: 'no valid _for-sale record' },
    ])
  })
})
