import { describe, expect, test } from 'vitest'
import { domainsText } from './domains-text.ts'
import { readsAs, Unreadable, Unsupported, yamlLines } from './yaml-lines.ts'

const FILE = `# Meine Domains: alles zu verkaufen
unknownHosts: not-found
default:
  currency: EUR # Standard

domains:
  # Die besten
  beispiel.de:
    price: 4900    # alt
    description: "Kurz: und gut"
    notify:
      - https://hooks.example.org/a
  "münchen.de": { price: 12000, status: reserved }
  leer.de: {}

  # Bald weg
  alt.de:
    price: 100
  '*.parked.de': {}
legal:
  imprintUrl: https://example.org/impressum
`

describe('the YAML domains file edited line by line', () => {
  test('a changed name changes only its term lines; comments, blank lines, quoting and other keys stay byte for byte', () => {
    const file = yamlLines(FILE)
    file.change('beispiel.de', { price: 5200, minOffer: 1000 })
    expect(file.text()).toBe(
      FILE.replace('    price: 4900    # alt\n', '    price: 5200    # alt\n').replace(
        '      - https://hooks.example.org/a\n',
        '      - https://hooks.example.org/a\n    minOffer: 1000\n',
      ),
    )
  })

  test('a term set to null loses its line; an inline entry is written anew on its line, an empty one as a block', () => {
    const file = yamlLines(FILE)
    file.change('alt.de', { price: null })
    file.change('münchen.de', { price: 13000, currency: 'USD' })
    file.change('leer.de', { price: 10 })
    const text = file.text()
    expect(text).toContain('  alt.de: {}\n')
    expect(text).toContain('  "münchen.de": {price: 13000, status: reserved, currency: USD}\n')
    expect(text).toContain('  leer.de:\n    price: 10\n')
  })

  test('new names come at the end of domains, before the next key; a removed name takes only its own lines', () => {
    const file = yamlLines(FILE)
    file.add('neu.de', { price: 300, minOffer: null, currency: null })
    file.add('ohne-preis.de', { price: null })
    file.remove('alt.de')
    expect(file.text()).toBe(
      FILE.replace("  alt.de:\n    price: 100\n  '*.parked.de': {}\n", "  '*.parked.de': {}\n  neu.de:\n    price: 300\n  ohne-preis.de: {}\n"),
    )
  })

  test('a file without domains gets them at its end; CRLF stays CRLF', () => {
    const file = yamlLines('unknownHosts: page\r\n')
    file.add('a.de', { price: 1 })
    expect(file.text()).toBe('unknownHosts: page\r\ndomains:\r\n  a.de:\r\n    price: 1\r\n')
    const empty = yamlLines('domains: {}\n')
    empty.add('b.de', { price: 2 })
    expect(empty.text()).toBe('domains:\n  b.de:\n    price: 2\n')
  })

  test('shapes it does not take are said to be unsupported: a document marker, inline domains', () => {
    for (const text of ['---\ndomains: {}\n', 'domains: { a.de: {} }\n']) {
      expect(() => yamlLines(text), text).toThrow(Unsupported)
    }
    // A term written in a way it cannot edit: found out when the text is made.
    const quoted = yamlLines('domains:\n  a.de:\n    "price": 1\n')
    quoted.change('a.de', { price: 2 })
    expect(() => quoted.text()).toThrow(Unsupported)
  })

  test('a file the server cannot read either (js-yaml, as it reads it) is unreadable, with the line: several documents, tabs, a key twice, nesting over 100 deep', () => {
    const cases: [string, string][] = [
      ['---\ndomains: {}\n---\n', 'expected a single document in the stream, but found more'],
      ['domains:\n\ta.de: {}\n', 'line 2, column 1: tab characters must not be used in indentation'],
      ['domains:\n  a.de: {}\n  a.de: {}\n', 'line 3, column 3: duplicated mapping key'],
      // Five million levels: refused at the 101st (before, the Document API took minutes over it).
      [`domains:\n  a.de: {}\nx: ${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}\n`, 'line 3, column 103: nesting exceeded maxDepth (100)'],
    ]
    for (const [text, message] of cases) {
      expect(() => yamlLines(text), text.slice(0, 40)).toThrow(Unreadable)
      expect(() => yamlLines(text), text.slice(0, 40)).toThrow(message)
    }
  })

  test('what it writes is checked by reading it back', () => {
    expect(readsAs('domains:\n  a.de: {price: 1}\n', { domains: { 'a.de': { price: 1 } } })).toBe(true)
    expect(readsAs('domains:\n  a.de: {price: 2}\n', { domains: { 'a.de': { price: 1 } } })).toBe(false)
    expect(readsAs('domains: [', {})).toBe(false)
  })
})

describe('the import on a YAML file', () => {
  test('where the lines cannot be edited, the Document API makes the same edit and keeps the comments', () => {
    const source = 'domains:\n  a.de:\n    "price": 1 # eins\n  b.de: {}\n'
    const file = domainsText('domains.yaml', source)
    file.change('a.de', { price: 2 })
    file.add('c.de', { price: 3 })
    expect(file.value()).toEqual({ domains: { 'a.de': { price: 2 }, 'b.de': {}, 'c.de': { price: 3 } } })
    const text = file.text()
    expect(text).toContain('# eins')
    expect(readsAs(text, file.value())).toBe(true)
  })

  test('the lines edit gives the same document as the Document API', () => {
    const file = domainsText('domains.yaml', FILE)
    file.change('beispiel.de', { price: 1 })
    file.change('xn--mnchen-3ya.de', { currency: 'CHF' })
    file.remove('alt.de')
    file.add('neu.de', { price: 2 })
    expect(readsAs(file.text(), file.value())).toBe(true)
    expect(file.text()).toContain('# Die besten')
  })
})

describe('large imports', () => {
  test('80,000 new names are written, in order, each on its lines (one spread of them was beyond the call stack)', () => {
    const file = yamlLines('domains:\n  a.de: {}\n')
    for (let i = 0; i < 80_000; i++) file.add(`neu-${i}.de`, { price: i })
    const text = file.text()
    expect(text.startsWith('domains:\n  a.de: {}\n  neu-0.de:\n    price: 0\n')).toBe(true)
    expect(text.endsWith('  neu-79999.de:\n    price: 79999\n')).toBe(true)
    expect(text.split('\n')).toHaveLength(2 + 2 * 80_000 + 1)
  })

  test('into a file without domains the same', () => {
    const file = yamlLines('unknownHosts: page\n')
    for (let i = 0; i < 80_000; i++) file.add(`neu-${i}.de`, { price: i })
    const text = file.text()
    expect(text.startsWith('unknownHosts: page\ndomains:\n  neu-0.de:\n    price: 0\n')).toBe(true)
    expect(text.endsWith('  neu-79999.de:\n    price: 79999\n')).toBe(true)
    expect(text.split('\n')).toHaveLength(2 + 2 * 80_000 + 1)
  })

  test('an entry of 200,000 lines keeps them all when its price changes', () => {
    const notify = Array.from({ length: 200_000 }, (_, i) => `      - https://hooks.example.org/${i}\n`).join('')
    const file = yamlLines(`domains:\n  a.de:\n    price: 1\n    notify:\n${notify}`)
    file.change('a.de', { price: 2 })
    expect(file.text()).toBe(`domains:\n  a.de:\n    price: 2\n    notify:\n${notify}`)
  })
})
