import fc from 'fast-check'
import tr46 from 'tr46'
import { describe, expect, test } from 'vitest'
import { domainKeyOf, domainsFileSchema, formatPrice, resolveDomain } from './settings.ts'

const file = domainsFileSchema.parse({
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
    expect(Object.keys(file.domains)).toContain('xn--mnchen-3ya.de')
  })

  test('an exact entry is merged over the defaults', () => {
    expect(resolveDomain(file, 'example.de')).toEqual({
      known: true,
      settings: { currency: 'EUR', mailTo: 'verkauf@example.org', price: 4900, minOffer: 1500 },
    })
  })

  test('a wildcard covers exactly one label; an exact entry wins; the bare name and deeper names are not covered', () => {
    expect(resolveDomain(file, 'shop.parked.de')).toEqual({
      known: true,
      wildcard: '*.parked.de',
      settings: { currency: 'EUR', mailTo: 'verkauf@example.org', description: 'Subdomains' },
    })
    expect(resolveDomain(file, 'deep.sub.parked.de')).toEqual({ known: true, settings: expect.objectContaining({ price: 1 }) })
    expect(resolveDomain(file, 'a.b.parked.de')).toBeNull()
    expect(resolveDomain(file, 'a.b.c.d.e.f.parked.de')).toBeNull()
    expect(resolveDomain(file, 'parked.de')).toBeNull()
  })

  test('an entry without settings is listed with the defaults', () => {
    expect(resolveDomain(file, 'plain.de')?.settings).toEqual({ currency: 'EUR', mailTo: 'verkauf@example.org' })
  })

  test('unlisted and unknown hosts get nothing; with unknownHosts "page" unknown hosts get the defaults', () => {
    expect(resolveDomain(file, 'x.hidden.de')).toBeNull()
    expect(resolveDomain(file, 'other.de')).toBeNull()
    const open = domainsFileSchema.parse({ default: { price: 99 } })
    expect(resolveDomain(open, 'other.de')).toEqual({ known: false, settings: { price: 99 } })
  })

  test('confirm is off unless set; a domain overrides the default', () => {
    const confirming = domainsFileSchema.parse({ default: { confirm: 'notice' }, domains: { 'a.de': {}, 'b.de': { confirm: 'verify' }, 'c.de': { confirm: 'off' } } })
    expect(['a.de', 'b.de', 'c.de'].map((name) => resolveDomain(confirming, name)?.settings.confirm)).toEqual(['notice', 'verify', 'off'])
    expect(resolveDomain(file, 'example.de')?.settings.confirm).toBeUndefined()
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
  const notifying = domainsFileSchema.parse({
    default: { notify: 'https://hooks.example.org/a' },
    domains: { 'eigen.de': { notify: ['ntfy+https://ntfy.sh/t', 'ntfy+https://ntfy.sh/t'] }, 'still.de': { notify: [] }, 'erbt.de': {} },
  })
  expect(resolveDomain(notifying, 'eigen.de')?.settings.notify).toEqual(['ntfy+https://ntfy.sh/t'])
  expect(resolveDomain(notifying, 'still.de')?.settings.notify).toEqual([])
  expect(resolveDomain(notifying, 'erbt.de')?.settings.notify).toEqual(['https://hooks.example.org/a'])
  const wrong = domainsFileSchema.safeParse({ domains: { 'x.de': { notify: ['https://ok.example.org', 'telegram+https://api.telegram.org/bot1:GEHEIM'] } } })
  expect(wrong.success).toBe(false)
  expect(wrong.error?.issues[0]).toMatchObject({ path: ['domains', 'x.de', 'notify'], message: expect.stringContaining('entry 2, "telegram+https://api.telegram.org/…" needs ?chat_id=') })
})

describe('keys', () => {
  const UTS46 = { checkHyphens: true, checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true }

  test.each([
    ['Example.DE', 'example.de'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['*.Parked.de', '*.parked.de'],
    ['ab--cd.de', null],
    ['-a.de', null],
    ['a..de', null],
    [`${'a'.repeat(64)}.de`, null],
  ])('%j is the key %j', (key, ascii) => expect(domainKeyOf(key)).toBe(ascii))

  test('a plain name skips UTS #46 and gets exactly what it would have returned', () => {
    const chars = fc.constantFrom(...'abz09-.', 'x', 'n', 'ü', 'A')
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 80 }).map((list) => list.join('')), (name) => {
        expect(domainKeyOf(name)).toBe(tr46.toASCII(name.toLowerCase(), UTS46))
      }),
      { numRuns: 5000 },
    )
    // Lengths at the limits, where the shortcut checks them itself.
    for (const name of [`${'a'.repeat(63)}.de`, `${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(61), `${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(62)]) {
      expect(domainKeyOf(name)).toBe(tr46.toASCII(name, UTS46))
    }
  })
})
