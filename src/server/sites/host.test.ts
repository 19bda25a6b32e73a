import fc from 'fast-check'
import tr46 from 'tr46'
import { describe, expect, test } from 'vitest'
import { displayHost, isDomainName, parseHost } from './host.ts'

describe('parseHost', () => {
  test('the port is stripped and the name lower-cased', () => {
    expect(parseHost('Example.DE:3000')).toEqual({ ascii: 'example.de', display: 'example.de' })
  })

  test('punycode is shown in Unicode', () => {
    expect(parseHost('xn--mnchen-3ya.de')).toEqual({ ascii: 'xn--mnchen-3ya.de', display: 'münchen.de' })
  })

  test('a Unicode host is accepted and kept in both forms', () => {
    expect(parseHost('MÜNCHEN.de')).toEqual({ ascii: 'xn--mnchen-3ya.de', display: 'münchen.de' })
  })

  test('a trailing dot is dropped', () => {
    expect(parseHost('example.de.')?.ascii).toBe('example.de')
  })

  test('localhost and IPv4 addresses are parsed, but are not domain names', () => {
    expect(parseHost('localhost:3000')?.ascii).toBe('localhost')
    expect(parseHost('127.0.0.1:3000')?.ascii).toBe('127.0.0.1')
    expect(isDomainName('localhost')).toBe(false)
    expect(isDomainName('127.0.0.1')).toBe(false)
  })

  test('a mixed-script label is kept as punycode in the parsed host', () => {
    expect(parseHost('xn--pple-43d.com')).toEqual({ ascii: 'xn--pple-43d.com', display: 'xn--pple-43d.com' })
    expect(parseHost('\u0430pple.com')).toEqual({ ascii: 'xn--pple-43d.com', display: 'xn--pple-43d.com' })
  })

  test.each([
    ['nothing', undefined],
    ['an empty header', ''],
    ['markup', 'a<script>.de'],
    ['a space', 'exa mple.de'],
    ['a control character', 'example.de\u0000'],
    ['a quote', 'ex"ample.de'],
    ['an underscore', 'under_score.de'],
    ['a leading hyphen', '-example.de'],
    ['a label over 63 characters', `${'a'.repeat(64)}.de`],
    ['a name over 253 characters', `${'abcdefghi.'.repeat(26)}de`],
    ['a huge header', 'a'.repeat(5000)],
    ['an IPv6 literal', '[::1]:3000'],
    ['a port that is not a number', 'example.de:http'],
    ['broken punycode', 'xn--zz.de'],
    ['empty labels', 'example..de'],
  ])('%s is refused', (_what, header) => {
    expect(parseHost(header)).toBeNull()
  })
})

describe('isDomainName', () => {
  test.each(['example.de', 'xn--mnchen-3ya.de', 'a.b.example.de', '1.2.3.example', '123.example.de', '0x7f.example'])('%s is a domain name', (name) => {
    expect(isDomainName(name)).toBe(true)
  })

  test.each([
    ['a single label', 'localhost'],
    ['a single label that is a word', 'intranet'],
    ['an IPv4 address', '127.0.0.1'],
    ['a link-local address', '169.254.169.254'],
    ['an address as one number', '2130706433'],
    ['a shortened address', '127.1'],
    ['a hex address', '0x7f.1'],
    ['a hex last label', '127.0.0.0x1'],
    ['an octal address', '0177.0.0.1'],
    ['an all-numeric name that is no address', '999.999.999.999'],
    ['a name under .localhost', 'shop.localhost'],
  ])('%s is not a domain name', (_what, name) => {
    expect(isDomainName(name)).toBe(false)
  })
})

describe('displayHost', () => {
  test.each([
    ['German umlauts', 'xn--mnchen-3ya.de', 'münchen.de'],
    ['a single-script Latin name', 'xn--bcher-kva.de', 'bücher.de'],
    ['a Cyrillic name under a Cyrillic top-level domain', 'xn--e1afmkfd.xn--p1ai', 'пример.рф'],
    ['a Cyrillic name under .com whose letters do not all look Latin', 'xn--e1afmkfd.com', 'пример.com'],
    ['a Greek name', 'xn--hxajbheg2az3al.xn--jxalpdlp', 'παράδειγμα.δοκιμή'],
    ['Japanese: Latin, Han, Hiragana and Katakana in one label', `${toAscii('abc日本語ひらがなカタカナ')}.jp`, 'abc日本語ひらがなカタカナ.jp'],
    ['Korean: Latin, Han and Hangul in one label', `${toAscii('abc한국韓國')}.kr`, 'abc한국韓國.kr'],
    ['Chinese: Latin, Han and Bopomofo in one label', `${toAscii('abc中文ㄅ')}.cn`, 'abc中文ㄅ.cn'],
    ['digits and hyphens with Cyrillic', `${toAscii('пример-24')}.com`, 'пример-24.com'],
    ['labels of different scripts in one name', `${toAscii('пример')}.${toAscii('münchen')}.de`, 'пример.münchen.de'],
    ['a Latin-looking Cyrillic name under a Cyrillic country domain', `${toAscii('аррӏе')}.ru`, 'аррӏе.ru'],
  ])('%s is shown in Unicode', (_what, ascii, shown) => {
    expect(displayHost(ascii)).toBe(shown)
  })

  test.each([
    ['Latin with one Cyrillic letter', 'xn--pple-43d.com'],
    ['Latin with a Greek omicron', toAscii('gοogle.com')],
    ['Cyrillic with Greek', toAscii('прιмер.com')],
    ['Hiragana with Hangul', toAscii('ひらがな한국.jp')],
    ['Latin with Armenian', toAscii('օogle.com')],
    ['a script not recommended for identifiers (Cherokee)', toAscii('ᎠᎡ.com')],
    ['a Cyrillic label of Latin-looking letters under .com', toAscii('аррӏе.com')],
  ])('%s stays punycode', (_what, ascii) => {
    expect(ascii).toMatch(/^xn--/)
    expect(displayHost(ascii)).toBe(ascii)
  })

  test('only the mixed label stays punycode; the others are shown in Unicode', () => {
    expect(displayHost(`xn--pple-43d.${toAscii('münchen')}.de`)).toBe('xn--pple-43d.münchen.de')
  })
})

function toAscii(name: string): string {
  const host = parseHost(name)
  if (!host) throw new Error(`not a host name: ${name}`)
  return host.ascii
}

test('a host of letters, digits, hyphens and dots is parsed as tr46 has it, also where tr46 is not asked', () => {
  const viaTr46 = (host: string) => {
    const name = host.toLowerCase().replace(/\.$/, '')
    const ascii = name && tr46.toASCII(name, { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true })
    return ascii && ascii.length <= 253 && ascii.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) ? ascii : null
  }
  fc.assert(
    fc.property(fc.stringMatching(/^[a-zA-Z0-9.-]{1,80}$/), (host) => (parseHost(host)?.ascii ?? null) === viaTr46(host)),
    { numRuns: 2000 },
  )
})
