import fc from 'fast-check'
import tr46 from 'tr46'
import { describe, expect, test } from 'vitest'
import { domainsConfigOf } from './domains-document.ts'
import { asciiName, domainKey, domainsFileSchema, formatPrice, priceTermsOf, publicPrice } from './settings.ts'

const file = domainsConfigOf({
  unknownHosts: 'not-found',
  default: { currency: 'EUR', mailTo: 'verkauf@example.org' },
  domains: {
    'example.de': { price: 4900, minOffer: 1500 },
    'München.de': { price: 12000 },
    '*.parked.de': { description: 'Subdomains' },
    'deep.sub.parked.de': { price: 1 },
    '*.hidden.de': { listed: false },
    'plain.de': null,
  },
})

describe('the domains file', () => {
  test('names are keyed in their ASCII form, whatever the file wrote', () => {
    expect([...file.names()]).toContain('xn--mnchen-3ya.de')
  })

  test('an exact entry is merged over the defaults', () => {
    expect(file.resolve('example.de')).toEqual({
      known: true,
      settings: { currency: 'EUR', mailTo: 'verkauf@example.org', price: 4900, minOffer: 1500 },
    })
  })

  test('a wildcard covers exactly one label; an exact entry wins; the bare name and deeper names are not covered', () => {
    expect(file.resolve('shop.parked.de')).toEqual({
      known: true,
      wildcard: '*.parked.de',
      settings: { currency: 'EUR', mailTo: 'verkauf@example.org', description: 'Subdomains' },
    })
    expect(file.resolve('deep.sub.parked.de')).toEqual({ known: true, settings: expect.objectContaining({ price: 1 }) })
    expect(file.resolve('a.b.parked.de')).toBeNull()
    expect(file.resolve('a.b.c.d.e.f.parked.de')).toBeNull()
    expect(file.resolve('parked.de')).toBeNull()
  })

  test('an entry without settings is listed with the defaults', () => {
    expect(file.resolve('plain.de')?.settings).toEqual({ currency: 'EUR', mailTo: 'verkauf@example.org' })
  })

  test('unlisted and unknown hosts get nothing; with unknownHosts "page" unknown hosts get the defaults', () => {
    expect(file.resolve('x.hidden.de')).toBeNull()
    expect(file.resolve('other.de')).toBeNull()
    const open = domainsConfigOf({ default: { price: 99 } })
    expect(open.resolve('other.de')).toEqual({ known: false, settings: { price: 99 } })
  })

  test('confirm is off unless set; a domain overrides the default', () => {
    const confirming = domainsConfigOf({ default: { confirm: 'notice' }, domains: { 'a.de': {}, 'b.de': { confirm: 'verify' }, 'c.de': { confirm: 'off' } } })
    expect(['a.de', 'b.de', 'c.de'].map((name) => confirming.resolve(name)?.settings.confirm)).toEqual(['notice', 'verify', 'off'])
    expect(file.resolve('example.de')?.settings.confirm).toBeUndefined()
  })

  test.each([
    ['an unknown key', { domains: { 'example.de': { prize: 1 } } }],
    ['a bad domain name', { domains: { 'not a domain': {} } }],
    ['a negative price', { domains: { 'example.de': { price: -5 } } }],
    ['a price with cents', { domains: { 'example.de': { price: 49.99 } } }],
    ['a bad unknownHosts', { unknownHosts: 'maybe' }],
    ['a bad currency', { default: { currency: 'euro' } }],
    ['a bad recipient', { default: { mailTo: 'nobody' } }],
    ['a recipient with a U+2028 and a Bcc', { domains: { 'example.de': { mailTo: 'owner@example.org\u2028Bcc: x@evil.example' } } }],
    ['a list of recipients', { domains: { 'example.de': { mailTo: 'owner@example.org, x@evil.example' } } }],
    ['a list separated by ;', { default: { mailTo: 'owner@example.org;x@evil.example' } }],
    ['a group', { default: { mailTo: 'team: owner@example.org, x@evil.example;' } }],
    ['a recipient with a name', { default: { mailTo: 'Verkauf <verkauf@example.org>' } }],
    ['a bad link', { legal: { imprintUrl: 'javascript:alert(1)' } }],
    ['a confirm mode that does not exist', { default: { confirm: 'always' } }],
    ['a priceType that does not exist', { default: { priceType: 'auction' } }],
    ['a vat that does not exist', { domains: { 'example.de': { vat: '19%' } } }],
    ['a buyUrl over plain http', { domains: { 'example.de': { buyUrl: 'http://escrow.example/kaufen' } } }],
    ['a javascript: buyUrl', { domains: { 'example.de': { buyUrl: 'javascript:alert(1)' } } }],
    ['a data: buyUrl', { default: { buyUrl: 'data:text/html,<script>alert(1)</script>' } }],
    ['a buyUrl that is no URL', { domains: { 'example.de': { buyUrl: 'escrow.example/kaufen' } } }],
  ])('%s is refused', (_what, raw) => {
    expect(domainsFileSchema.safeParse(raw).success).toBe(false)
  })
})

test('a refused recipient is named by its key, with what is wrong', () => {
  const result = domainsFileSchema.safeParse({ domains: { 'example.de': { mailTo: 'owner@example.org\u2028Bcc: x@evil.example' } } })
  expect(result.error?.issues).toEqual([
    expect.objectContaining({ path: ['domains', 'example.de', 'mailTo'], message: expect.stringMatching(/^must be exactly one plain e-mail address/) }),
  ])
})

test('prices are shown the German way', () => {
  expect(formatPrice(4900)).toBe('4.900\u00a0€')
  expect(formatPrice(1250000, 'EUR')).toBe('1.250.000\u00a0€')
  expect(formatPrice(990, 'USD')).toBe('990\u00a0$')
})

test('on English pages prices are shown as English readers write them', () => {
  expect(formatPrice(4900, 'EUR', 'en')).toBe('€4,900')
  expect(formatPrice(1250000, 'USD', 'en')).toBe('$1,250,000')
  expect(formatPrice(4900, 'CHF', 'en')).toBe('CHF\u00a04,900')
  expect(formatPrice(4900, 'EUR', 'de')).toBe('4.900\u00a0€')
})

test('language is one of the seven or auto, per domain and in default; languages lists what auto chooses among', () => {
  const parsed = domainsConfigOf({
    default: { language: 'auto', languages: ['de', 'en', 'fr'] },
    domains: { 'a.fr': { language: 'fr' }, 'b.pl': { languages: ['pl', 'de'] } },
  })
  expect(parsed.resolve('a.fr')?.settings.language).toBe('fr')
  expect(parsed.resolve('b.pl')?.settings).toMatchObject({ language: 'auto', languages: ['pl', 'de'] })
  for (const language of ['es', 'it', 'nl', 'pl']) expect(domainsFileSchema.safeParse({ domains: { 'a.com': { language } } }).success).toBe(true)
  for (const languages of [[], ['de', 'de'], ['xx'], ['FR'], 'fr']) {
    expect(domainsFileSchema.safeParse({ domains: { 'a.com': { language: 'auto', languages } } }).success, JSON.stringify(languages)).toBe(false)
  }
})

test('language is de, en or auto, per domain and in default', () => {
  const parsed = domainsConfigOf({ default: { language: 'auto' }, domains: { 'a.com': { language: 'en' }, 'b.de': null } })
  expect(parsed.resolve('a.com')?.settings.language).toBe('en')
  expect(parsed.resolve('b.de')?.settings.language).toBe('auto')
  expect(domainsFileSchema.safeParse({ domains: { 'a.com': { language: 'pt' } } }).success).toBe(false)
  expect(domainsFileSchema.safeParse({ domains: { 'a.com': { language: 'EN' } } }).success).toBe(false)
})

test('notify: a list or one entry; a domain’s list replaces the default’s, an empty one turns notifications off', () => {
  const notifying = domainsConfigOf({
    default: { notify: 'https://hooks.example.org/a' },
    domains: { 'eigen.de': { notify: ['ntfy+https://ntfy.sh/t', 'ntfy+https://ntfy.sh/t'] }, 'still.de': { notify: [] }, 'erbt.de': {} },
  })
  expect(notifying.resolve('eigen.de')?.settings.notify).toEqual(['ntfy+https://ntfy.sh/t'])
  expect(notifying.resolve('still.de')?.settings.notify).toEqual([])
  expect(notifying.resolve('erbt.de')?.settings.notify).toEqual(['https://hooks.example.org/a'])
  const wrong = domainsFileSchema.safeParse({ domains: { 'x.de': { notify: ['https://ok.example.org', 'telegram+https://api.telegram.org/bot1:GEHEIM'] } } })
  expect(wrong.success).toBe(false)
  expect(wrong.error?.issues[0]).toMatchObject({
    path: ['domains', 'x.de', 'notify'],
    message: expect.stringContaining('entry 2, "telegram+https://api.telegram.org/…" needs ?chat_id='),
  })
})

describe('price terms', () => {
  test('a buyUrl over https is kept exactly as written, query and fragment included', () => {
    const url = 'https://escrow.example/kaufen?domain=example.de&ref=owner#start'
    const parsed = domainsConfigOf({ domains: { 'example.de': { buyUrl: url } } })
    expect(parsed.resolve('example.de')?.settings.buyUrl).toBe(url)
  })

  test.each(['javascript:alert(1)', 'http://escrow.example/kaufen', 'https://127.0.0.1/kaufen'])('a buyUrl %s is refused, named by its key', (buyUrl) => {
    const issues = domainsFileSchema.safeParse({ domains: { 'example.de': { buyUrl } } }).error?.issues ?? []
    expect(issues.length).toBeGreaterThan(0)
    for (const issue of issues) {
      expect(issue).toMatchObject({ path: ['domains', 'example.de', 'buyUrl'], message: expect.stringMatching(/^must be an https:\/\/ address/) })
    }
  })

  test('the amount, its terms and VAT as the page gets them, in the domain’s currency', () => {
    expect(priceTermsOf({ price: 4900 })).toEqual({ price: '4.900\u00a0€' })
    expect(priceTermsOf({ price: 4900, priceType: 'fixed', vat: 'included' })).toEqual({ price: '4.900\u00a0€', priceType: 'fixed', vat: 'included' })
    expect(priceTermsOf({ price: 12000, currency: 'USD', priceType: 'negotiable', vat: 'excluded' })).toEqual({
      price: '12.000\u00a0$',
      priceType: 'negotiable',
      vat: 'excluded',
    })
    // "none" says nothing about VAT; VAT without an amount neither.
    expect(priceTermsOf({ price: 4900, vat: 'none' })).toEqual({ price: '4.900\u00a0€' })
    expect(priceTermsOf({ priceType: 'fixed', vat: 'included' })).toEqual({ priceType: 'fixed' })
  })

  test('on request hides the amount and its VAT, though the file keeps a price for the owner', () => {
    const settings = { price: 4900, priceType: 'on-request', vat: 'included' } as const
    expect(publicPrice(settings)).toBeUndefined()
    expect(priceTermsOf(settings)).toEqual({ priceType: 'on-request' })
    expect(publicPrice({ price: 4900, priceType: 'negotiable' })).toBe(4900)
  })

  test('a sold name has no price terms to show, though its price stays public (its JSON-LD Offer, SoldOut)', () => {
    const settings = { price: 4900, priceType: 'fixed', vat: 'included', status: 'sold' } as const
    expect(priceTermsOf(settings)).toEqual({})
    expect(publicPrice(settings)).toBe(4900)
  })

  test('a domain’s priceType and vat override the default’s', () => {
    const parsed = domainsConfigOf({
      default: { priceType: 'fixed', vat: 'included' },
      domains: { 'example.de': { price: 1 }, 'anfrage.de': { price: 2, priceType: 'on-request', vat: 'none' } },
    })
    expect(parsed.resolve('example.de')?.settings).toMatchObject({ priceType: 'fixed', vat: 'included' })
    expect(parsed.resolve('anfrage.de')?.settings).toMatchObject({ priceType: 'on-request', vat: 'none' })
  })
})

describe('keys', () => {
  test.each([
    ['Example.DE', 'example.de'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['*.Parked.de', '*.parked.de'],
    ['ab--cd.de', null],
    ['-a.de', null],
    ['a..de', null],
    [`${'a'.repeat(64)}.de`, null],
  ])('%j is the key %j', (key, ascii) => expect(domainKey(key)).toBe(ascii))
})

describe('names without tr46', () => {
  const UTS46 = { checkHyphens: true, checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true }
  const viaTr46 = (name: string) => tr46.toASCII(name.toLowerCase(), UTS46) || null

  test('a plain name, a Unicode name, punycode and names that are not domains come out as tr46 has them', () => {
    const names = [
      'example.de',
      'Example.DE',
      'a-b.c-d.de',
      'münchen.de',
      'xn--mnchen-3ya.de',
      'xn--zz.de',
      'ab--cd.de',
      '-a.de',
      'a-.de',
      'a..de',
      'a.de.',
      '.de',
      'a_b.de',
      'a b.de',
      '1.2.3.4',
      `${'a'.repeat(63)}.de`,
      `${'a'.repeat(64)}.de`,
      `${'abcdefgh.'.repeat(28)}de`,
    ]
    expect(names.map(asciiName)).toEqual(names.map(viaTr46))
  })

  test('any name of letters, digits, hyphens and dots gets the same answer as from tr46', () => {
    const name = fc.stringMatching(/^[a-zA-Z0-9.-]{1,80}$/)
    fc.assert(
      fc.property(name, (text) => asciiName(text) === viaTr46(text)),
      { numRuns: 2000 },
    )
  })
})
