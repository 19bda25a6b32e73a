import { describe, expect, test } from 'vitest'
import { domainsText } from './domains-text.ts'
import { readsAs, Unsupported, yamlLines } from './yaml-lines.ts'

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
    expect(file.text()).toBe(FILE.replace('    price: 4900    # alt\n', '    price: 5200    # alt\n').replace('      - https://hooks.example.org/a\n', '      - https://hooks.example.org/a\n    minOffer: 1000\n'))
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

  test('shapes it does not take are said to be unsupported: several documents, inline domains, tabs, duplicate keys', () => {
    for (const text of ['---\ndomains: {}\n---\n', 'domains: { a.de: {} }\n', 'domains:\n\ta.de: {}\n', 'domains:\n  a.de: {}\n  a.de: {}\n']) {
      expect(() => yamlLines(text), text).toThrow(Unsupported)
    }
    // A term written in a way it cannot edit: found out when the text is made.
    const quoted = yamlLines('domains:\n  a.de:\n    "price": 1\n')
    quoted.change('a.de', { price: 2 })
    expect(() => quoted.text()).toThrow(Unsupported)
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
