import fs from 'node:fs'
import { afterEach, describe, expect, test } from 'vitest'
import { largeDomainsLines, removeTestFiles, writeTestFile } from '../../../tests/helpers/domains.ts'
import { loadDomainsFile, MAX_FILE_MIB, readDomainsFile } from './domains-file.ts'

afterEach(removeTestFiles)

/** A file of `count` entries (largeDomainsLines), changed by `change`. */
function large(format: 'json' | 'yaml', count: number, change: (lines: string[]) => void = () => {}) {
  const lines = largeDomainsLines(format, count)
  change(lines)
  return writeTestFile(`${lines.join('\n')}\n`, `domains.${format}`)
}

/** The message of the DomainsFileError that loading `file` throws. */
function refusal(file: string): string {
  try {
    loadDomainsFile(file)
  } catch (error) {
    expect((error as Error).name).toBe('DomainsFileError')
    return (error as Error).message
  }
  throw new Error('the file was accepted')
}

describe('a broken edit of a large file names the line', () => {
  test('a syntax error in JSON', () => {
    // Line 50,003 of 100,005: the comma after an entry is missing.
    const file = large('json', 100_000, (lines) => (lines[50_002] = lines[50_002]!.replace(/,$/, '')))
    expect(refusal(file)).toMatch(new RegExp(`^${file}: line 50004: Expected ',' or '}' after property value`))
  })

  test('a syntax error in JSON next to a notification address names its line, not the text around it', () => {
    const file = writeTestFile('{"domains": {\n  "a.de": { "notify": telegram+https://api.telegram.org/bot123:GEHEIM?chat_id=1 }\n}}\n', 'domains.json')
    const message = refusal(file)
    expect(message).toMatch(new RegExp(`^${file}: line 2: Unexpected token`))
    expect(message).not.toMatch(/GEHEIM|telegram|is not valid JSON/)
  })

  test('a syntax error in YAML', () => {
    const file = large('yaml', 100_000, (lines) => (lines[150_001] = '    price: [1, 2'))
    expect(refusal(file)).toMatch(new RegExp(`^${file}: line 150003, column \\d+: `))
  })

  test('a duplicate key in YAML', () => {
    const file = large('yaml', 1000, (lines) => lines.push('  name-3.de:', '    price: 1'))
    expect(refusal(file)).toMatch(new RegExp(`^${file}: line 3003, column 3: duplicated mapping key`))
  })

  test('a wrong value in JSON and in YAML', () => {
    const json = large('json', 100_000, (lines) => (lines[70_002] = lines[70_002]!.replace('"price": 70000', '"price": -1')))
    expect(refusal(json)).toBe(`${json} is not a valid domains file:\n  line 70003: domains.name-70000.de.price: Too small: expected number to be >=0`)
    const yaml = large('yaml', 100_000, (lines) => (lines[3 * 70_000 + 4] = '    minOffer: viel'))
    expect(refusal(yaml)).toBe(
      `${yaml} is not a valid domains file:\n  line 210005: domains.name-70000.de.minOffer: Invalid input: expected number, received string`,
    )
  })

  test('an unknown key, a name that is not one and the same domain twice, each with its line', () => {
    const file = large('yaml', 1000, (lines) => {
      lines[4] = '    prize: 1'
      lines.push('  "not a domain": {}', '  NAME-7.DE: {}', 'extra: 1')
    })
    expect(refusal(file).split('\n')).toEqual([
      `${file} is not a valid domains file:`,
      '  line 3005: extra: Unrecognized key: "extra"',
      '  line 5: domains.name-0.de.prize: Unrecognized key: "prize"',
      '  line 3003: domains.not a domain: "not a domain" is not a domain name or a wildcard like *.example.de',
      '  line 3004: domains.NAME-7.DE: names the same domain as "name-7.de" (name-7.de)',
    ])
  })

  test('a file broken throughout lists twenty problems and counts the rest', () => {
    const file = large('yaml', 1000, (lines) => lines.forEach((line, i) => (lines[i] = line.replace('minOffer', 'minimum'))))
    const message = refusal(file).split('\n')
    expect(message).toHaveLength(22)
    expect(message.at(-1)).toBe('  … and 980 more')
  })

  test('control characters in a key are shown escaped, not passed to the terminal', () => {
    const file = writeTestFile('{"domains": {"\\u001b[2Jevil.de": {}}}', 'domains.json')
    const message = refusal(file)
    expect(message).toContain('domains.\\x1b[2Jevil.de')
    expect(message).not.toContain('\u001b')
  })
})

describe('what is read', () => {
  test(`a file over ${MAX_FILE_MIB} MiB is refused before it is read, with its size`, () => {
    const file = writeTestFile('domains: {}\n')
    fs.truncateSync(file, MAX_FILE_MIB * 2 ** 20 + 1)
    expect(refusal(file)).toBe(`${file} is 32.0 MiB; a domains file may have at most 32 MiB (see "Large portfolios" in docs/domains.md)`)
  })

  test('a byte order mark is allowed in JSON and YAML; an empty file has no domains', () => {
    expect([...readDomainsFile(writeTestFile('\uFEFF{"domains": {"a.de": {}}}', 'domains.json')).names()]).toEqual(['a.de'])
    expect([...readDomainsFile(writeTestFile('\uFEFFdomains:\n  a.de: {}\n')).names()]).toEqual(['a.de'])
    expect(readDomainsFile(writeTestFile('')).size).toBe(0)
  })

  test('YAML 1.2 as before: yes and dates stay text, so they are refused where a boolean or number belongs', () => {
    expect(refusal(writeTestFile('portfolio: yes\n'))).toContain('portfolio: Invalid input: expected boolean, received string')
    expect(readDomainsFile(writeTestFile('domains:\n  a.de:\n    description: 2024-01-01\n')).resolve('a.de')?.settings.description).toBe('2024-01-01')
  })

  test('a missing file is named', () => {
    expect(refusal('/nonexistent/domains.yaml')).toMatch(/^\/nonexistent\/domains\.yaml: ENOENT/)
  })
})

describe('payment (docs/deals.md)', () => {
  test('a domain’s bank transfer, payment link and escrow load, the IBAN in capitals without spaces', () => {
    const file = writeTestFile(`default:
  payment:
    bank: { holder: Jürgen Müller, iban: de89 3704 0044 0532 0130 00, bic: cobadeffxxx }
domains:
  beispiel.de:
    payment:
      seller: Beispiel GmbH
      link: "https://paypal.me/beispiel/{betrag}{waehrung}"
      escrow: { name: Treuhand AG, url: "https://treuhand.example/" }
`)
    const domains = readDomainsFile(file)
    expect(domains.default.payment).toEqual({ bank: { holder: 'Jürgen Müller', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } })
    // A domain's payment replaces the default's as a whole.
    expect(domains.resolve('beispiel.de')!.settings.payment).toEqual({
      seller: 'Beispiel GmbH',
      link: 'https://paypal.me/beispiel/{betrag}{waehrung}',
      escrow: { name: 'Treuhand AG', url: 'https://treuhand.example/' },
    })
  })

  test('an IBAN whose check digits do not match, a bad BIC, a plain-http link and an empty payment are refused with their line', () => {
    const file = writeTestFile(`domains:
  a.de:
    payment:
      bank: { holder: A, iban: DE89 3704 0044 0532 0130 01, bic: COBA }
  b.de:
    payment: { link: "http://pay.example/{betrag}" }
  c.de:
    payment: {}
`)
    expect(refusal(file).split('\n')).toEqual([
      `${file} is not a valid domains file:`,
      '  line 4: domains.a.de.payment.bank.iban: is not a valid IBAN: its check digits do not match (a typo?)',
      '  line 4: domains.a.de.payment.bank.bic: must be a BIC of 8 or 11 characters, such as COBADEFFXXX',
      '  line 6: domains.b.de.payment.link: must be an https:// address with a domain name, such as https://paypal.me/name/{betrag}{waehrung}',
      '  line 8: domains.c.de.payment: needs at least one of bank, link or escrow',
    ])
  })
})
