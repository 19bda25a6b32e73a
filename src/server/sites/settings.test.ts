import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import tr46 from 'tr46'
import { domainsConfigOf } from './domains-document.ts'
import { asciiName, domainsFileSchema, formatPrice } from './settings.ts'

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
  expect(wrong.error?.issues[0]).toMatchObject({ path: ['domains', 'x.de', 'notify'], message: expect.stringContaining('entry 2, "telegram+https://api.telegram.org/…" needs ?chat_id=') })
})

describe('names without tr46', () => {
  const UTS46 = { checkHyphens: true, checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true }
  const viaTr46 = (name: string) => tr46.toASCII(name.toLowerCase(), UTS46) || null

  test('a plain name, a Unicode name, punycode and names that are not domains come out as tr46 has them', () => {
    const names = ['example.de', 'Example.DE', 'a-b.c-d.de', 'münchen.de', 'xn--mnchen-3ya.de', 'xn--zz.de', 'ab--cd.de', '-a.de', 'a-.de', 'a..de', 'a.de.', '.de', 'a_b.de', 'a b.de', '1.2.3.4', `${'a'.repeat(63)}.de`, `${'a'.repeat(64)}.de`, `${'abcdefgh.'.repeat(28)}de`]
    expect(names.map(asciiName)).toEqual(names.map(viaTr46))
  })

  test('any name of letters, digits, hyphens and dots gets the same answer as from tr46', () => {
    const name = fc.stringMatching(/^[a-zA-Z0-9.-]{1,80}$/)
    fc.assert(fc.property(name, (text) => asciiName(text) === viaTr46(text)), { numRuns: 2000 })
  })
})
