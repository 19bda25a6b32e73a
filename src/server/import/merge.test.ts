import { parse } from 'yaml'
import { describe, expect, test } from 'vitest'
import { domainsFileSchema } from '../sites/settings.ts'
import { domainsText, DomainsTextError } from './domains-text.ts'
import { mergeInto } from './merge.ts'
import { checkRows } from './rows.ts'
import { readSource } from './source.ts'

const YAML_FILE = `# Unser Portfolio
unknownHosts: not-found
default:
  currency: EUR # alles in Euro
  mailTo: verkauf@example.org
domains:
  # Die besten zuerst
  example.de:
    price: 4900
    minOffer: 1500
    description: "Kurz: einprägsam"
    mailTo: example@example.org
    status: reserved
  münchen.de: {}
  "*.parked.de":
    description: Jede Subdomain
  alt.de:
    price: 100 # wird entfernt, mit --prune
  dollar.com:
    currency: USD
    price: 900
`

/** Merges a CSV into a domains file; the new text and what changed. */
function merge(file: string, csv: string, { prune = false, name = 'domains.yaml' } = {}) {
  const text = domainsText(name, file)
  const { domains, problems } = checkRows(readSource(csv, 'csv'), (ascii) => {
    const currency = text.entries.get(ascii)?.currency
    return typeof currency === 'string' ? currency : text.defaultCurrency
  })
  expect(problems).toEqual([])
  const diff = mergeInto(text, domains, prune)
  return { diff, output: text.text(), value: domainsFileSchema.parse(text.value()) }
}

describe('the diff', () => {
  test('lists added and changed names with their terms before and after, and counts the unchanged', () => {
    const { diff } = merge(YAML_FILE, 'Domain;Preis;Mindestgebot\nexample.de;5.900;1.500\nneu.de;"2.000 €";\nxn--mnchen-3ya.de;;\ndollar.com;900;\n')
    expect(diff).toEqual({
      added: [{ name: 'neu.de', terms: { price: 2000, minOffer: null, currency: 'EUR' } }],
      changed: [{ name: 'example.de', before: { price: 4900, minOffer: 1500, currency: 'EUR' }, after: { price: 5900, minOffer: 1500, currency: 'EUR' } }],
      removed: [],
      // münchen.de had no terms and gets none; dollar.com keeps its price in its own currency.
      unchanged: 2,
    })
  })

  test('--prune removes the exact names the list does not have, never a wildcard', () => {
    const { diff, value } = merge(YAML_FILE, 'Domain\nexample.de\nmünchen.de\n', { prune: true })
    expect(diff.removed.map(({ name }) => name)).toEqual(['alt.de', 'dollar.com'])
    expect(Object.keys(value.domains)).toEqual(['example.de', 'xn--mnchen-3ya.de', '*.parked.de'])
  })

  test('without --prune nothing is removed', () => {
    expect(merge(YAML_FILE, 'Domain\nexample.de\n').diff.removed).toEqual([])
  })
})

describe('merging into YAML', () => {
  test('changes only price, minOffer and currency of a listed name; its other keys, the comments and the order stay', () => {
    const { output, value } = merge(YAML_FILE, 'Domain;Preis;Mindestgebot\nexample.de;5.900;\n')
    expect(value.domains['example.de']).toEqual({ price: 5900, description: 'Kurz: einprägsam', mailTo: 'example@example.org', status: 'reserved' })
    expect(output).toBe(YAML_FILE.replace('price: 4900\n    minOffer: 1500\n', 'price: 5900\n'))
  })

  test("a new name is added at the end with the imported terms; a currency like the default's is not written", () => {
    const { output } = merge(YAML_FILE, 'Domain;Preis;Währung\nneu.de;2.000;EUR\nbücher.de;300;USD\nohne.de;;\n')
    expect(output.endsWith('    price: 900\n  neu.de:\n    price: 2000\n  bücher.de:\n    price: 300\n    currency: USD\n  ohne.de: {}\n')).toBe(true)
  })

  test("a changed currency is written; changed back to the default's, the key goes", () => {
    const { value } = merge(YAML_FILE, 'Domain;Währung\nexample.de;CHF\ndollar.com;EUR\n')
    expect(value.domains['example.de']!.currency).toBe('CHF')
    expect(value.domains['dollar.com']).toEqual({ price: 900 })
  })

  test('an empty flow mapping becomes a block one; the indentation of the file is kept', () => {
    const { output } = merge('domains:\n    alt.de: {}\n', 'Domain;Preis\nalt.de;5\nneu.de;6\n')
    expect(output).toBe('domains:\n    alt.de:\n        price: 5\n    neu.de:\n        price: 6\n')
    expect(merge('domains: {}\n', 'Domain\nneu.de\n').output).toBe('domains:\n  neu.de: {}\n')
  })

  test('an empty or missing file becomes one with the names', () => {
    expect(merge('', 'Domain;Preis\nneu.de;1\n').output).toBe('domains:\n  neu.de:\n    price: 1\n')
    expect(merge('# nur ein Kommentar\nunknownHosts: page\n', 'Domain\nneu.de\n').output).toBe(
      '# nur ein Kommentar\nunknownHosts: page\ndomains:\n  neu.de: {}\n',
    )
  })

  test('a file that is not YAML, or whose domains are no mapping, is refused with the reason', () => {
    expect(() => domainsText('d.yaml', 'domains:\n  a.de: [\n')).toThrow(DomainsTextError)
    expect(() => domainsText('d.yaml', 'domains:\n  - a.de\n')).toThrow('"domains" is not a mapping of names')
    expect(() => domainsText('d.yaml', '- a\n')).toThrow('the top level is not a mapping')
  })
})

describe('merging into JSON', () => {
  const JSON_FILE = `${JSON.stringify({ default: { currency: 'EUR' }, domains: { 'example.de': { price: 4900, description: 'Kurz' }, 'münchen.de': null, '*.parked.de': {} } }, null, 4)}\n`

  test('keeps the other keys and the order, adds new names at the end, and writes 2-space indentation', () => {
    const { output, diff } = merge(JSON_FILE, 'Domain;Preis\nexample.de;5000\nxn--mnchen-3ya.de;10\nneu.de;1\n', { name: 'domains.json' })
    expect(diff.changed.map(({ name }) => name)).toEqual(['example.de', 'münchen.de'])
    expect(output).toBe(
      `${JSON.stringify({ default: { currency: 'EUR' }, domains: { 'example.de': { price: 5000, description: 'Kurz' }, 'münchen.de': { price: 10 }, '*.parked.de': {}, 'neu.de': { price: 1 } } }, null, 2)}\n`,
    )
  })

  test("a file that is not JSON is refused with the parser's reason", () => {
    expect(() => domainsText('d.json', '{"domains": ')).toThrow(DomainsTextError)
  })
})

test('what is written reads back as the same domains file', () => {
  const { output, value } = merge(YAML_FILE, 'Domain;Preis\nexample.de;1\nneu.de;2\n', { prune: true })
  expect(domainsFileSchema.parse(parse(output))).toEqual(value)
})
