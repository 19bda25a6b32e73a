import { describe, expect, test } from 'vitest'
import { parseHost } from './host.ts'

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

  test('localhost and IPv4 addresses are names the page can show', () => {
    expect(parseHost('localhost:3000')?.display).toBe('localhost')
    expect(parseHost('127.0.0.1:3000')?.display).toBe('127.0.0.1')
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
