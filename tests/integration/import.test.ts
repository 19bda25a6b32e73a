// `npx domain-lander import` as the owner runs it: real-world-shaped registrar exports (tests/fixtures/import) into a
// real domains file, the changes shown, nothing written on an error or a dry run, and a running server that shows
// the imported names by itself.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { runCli, runCliProcess } from '../helpers/cli.ts'
import { getPage } from '../helpers/contact.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import')
const fixture = (name: string) => path.join(FIXTURES, name)
const DOMAINS = `# Portfolio
unknownHosts: not-found
default:
  currency: EUR
domains:
  beispiel.de:
    price: 4000 # alter Preis
    description: Kurz und einprägsam.
    mailTo: beispiel@example.org
  "*.parked.de": {}
  alt.de:
    price: 100
`
// Raw ESC, C0 (but a line break), C1, DEL, bidi controls, Unicode line separators.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

let dir: string
let domainsFile: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-import-'))
  domainsFile = path.join(dir, 'domains.yaml')
  fs.writeFileSync(domainsFile, DOMAINS)
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** `domain-lander import ...args` against the test's domains file. */
const cliImport = (...args: string[]) => runCli(dir, { DOMAINS_FILE: domainsFile }, 'import', ...args)

describe('a German export (BOM, CRLF, ";", "4.900,00 €", quoted fields, empty lines, extra columns)', () => {
  test('--dry-run shows every change against the domains file and writes nothing', async () => {
    const run = await cliImport(fixture('inwx-de.csv'), '--dry-run')
    expect(run.code, run.err).toBe(0)
    const lines = run.out.trim().split('\n')
    expect(lines[0]).toBe(
      `Read 5 rows of ${fixture('inwx-de.csv')} (CSV, separator ";"): "Domain" -> domain, "Preis" -> price, "Mindestgebot" -> minimum offer, "Währung" -> currency; ignored: "Registrar", "Ablaufdatum", "Notiz"`,
    )
    expect(lines[1]).toBe(`Changes to ${domainsFile}:`)
    expect(lines[2]).toMatch(/^Change\s+Domain\s+Price\s+Min\. offer\s+Currency$/)
    expect(lines.slice(4).map((line) => line.split(/\s{2,}/))).toEqual([
      ['added', 'münchen-beispiel.de', '12000', '-', 'EUR'],
      ['added', 'bücher.de', '2500', '500', 'EUR'],
      ['added', 'ohne-preis.de', '-', '-', 'EUR'],
      ['added', 'dollar-name.com', '1200', '-', 'USD'],
      ['changed', 'beispiel.de', '4000 -> 4900', '- -> 1500', 'EUR'],
      ['4 added, 1 changed, 0 removed, 0 unchanged.'],
      ['Dry run: nothing written.'],
    ])
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  })

  test('without --dry-run the file is written: comments, order and the other keys stay', async () => {
    expect((await cliImport(fixture('inwx-de.csv'))).out).toContain(`Written to ${domainsFile}; a running server reloads it by itself.`)
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(`# Portfolio
unknownHosts: not-found
default:
  currency: EUR
domains:
  beispiel.de:
    price: 4900 # alter Preis
    description: Kurz und einprägsam.
    mailTo: beispiel@example.org
    minOffer: 1500
  "*.parked.de": {}
  alt.de:
    price: 100
  münchen-beispiel.de:
    price: 12000
  bücher.de:
    price: 2500
    minOffer: 500
  ohne-preis.de: {}
  dollar-name.com:
    price: 1200
    currency: USD
`)
    // The same list again changes nothing.
    expect((await cliImport(fixture('inwx-de.csv'))).out).toContain('0 added, 0 changed, 0 removed, 5 unchanged.\nNothing to change.')
  })
})

test('an English export ("," and "$5,900.00") and --prune: names not in the list go, the wildcard stays', async () => {
  const run = await cliImport(fixture('godaddy-en.csv'), '--prune')
  expect(run.code, run.err).toBe(0)
  expect(run.out).toMatch(/removed\s+beispiel\.de\s+4000\s+-\s+EUR/)
  expect(run.out).toContain('4 added, 0 changed, 2 removed, 0 unchanged.')
  const written = fs.readFileSync(domainsFile, 'utf8')
  expect(written).toContain('  "*.parked.de": {}\n')
  expect(written).not.toContain('alt.de')
  expect(written).toContain('  example.com:\n    price: 5900\n    minOffer: 1000\n    currency: USD\n')
  // "EXAMPLE.ORG." with a trailing dot, in any case.
  expect(written).toContain('  example.org:\n    price: 1250\n    minOffer: 250\n    currency: USD\n')
})

test('a list with errors names every one with its line, writes nothing and exits 1', async () => {
  const run = await cliImport(fixture('problems.csv'))
  expect(run.code).toBe(1)
  expect(run.out).toContain('Problems (11 errors, 1 warning):')
  for (const problem of [
    'line 3: "nicht gültig.de" is not a domain name',
    'line 4: "<img src=x onerror=alert(1)>.de" is not a domain name',
    'line 5: "\\x1b]0;pwned\\x07evil.de" is not a domain name',
    'line 6: "*.wildcard.de" is a wildcard',
    'line 7: price "4.900,50 €" has cents; amounts in the domains file are whole',
    'line 8: price "viel" is not an amount',
    'line 9: "Euro" is not a currency code',
    'line 10: price "$100" is not in EUR',
    'line 11: no domain name',
    'line 13: münchen.de again (first on line 12), with the same terms (warning)',
    'line 14: gut.de again (first on line 2), with other terms',
    'line 15: "localhost" is not a domain name',
  ]) {
    expect(run.out).toContain(problem)
  }
  expect(run.out).toContain('Nothing written: 11 errors.')
  // What the file had reaches the terminal as text.
  expect(run.out).not.toMatch(RAW)
  expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
})

test('JSON: --format json (or a .json name), --json prints the whole report', async () => {
  const run = await cliImport(fixture('portfolio.json'), '--json', '--dry-run')
  expect(run.code).toBe(1)
  const report = JSON.parse(run.out)
  expect(report).toMatchObject({ format: 'json', rows: 4, written: false, counts: { errors: 1, added: 3 } })
  expect(report.problems).toEqual([{ kind: 'amount', line: 4, field: 'price', value: '99.5', reason: 'cents', currency: '' }])
  const list = path.join(dir, 'liste.txt')
  fs.writeFileSync(list, '["json-name.de"]')
  expect((await cliImport(list, '--format', 'json')).code).toBe(0)
  expect(fs.readFileSync(domainsFile, 'utf8')).toContain('  json-name.de: {}\n')
})

test('into a JSON domains file: written with 2-space indentation', async () => {
  const json = path.join(dir, 'domains.json')
  fs.writeFileSync(json, '{"domains":{"beispiel.de":{"price":1,"description":"Kurz"}}}')
  const run = await runCli(dir, { DOMAINS_FILE: json }, 'import', fixture('godaddy-en.csv'))
  expect(run.code, run.err).toBe(0)
  const written = fs.readFileSync(json, 'utf8')
  expect(written.startsWith('{\n  "domains": {\n    "beispiel.de": {\n      "price": 1,\n      "description": "Kurz"\n    },\n')).toBe(true)
  expect(Object.keys(JSON.parse(written).domains)).toEqual(['beispiel.de', 'example.com', 'shop-example.net', 'example.org', 'bücher-example.com'])
})

test('a domains file that cannot be written stays as it was: the reason, exit 1', async () => {
  const missing = path.join(dir, 'fehlt', 'domains.yaml')
  const run = await runCli(dir, { DOMAINS_FILE: missing }, 'import', fixture('godaddy-en.csv'))
  expect(run.code).toBe(1)
  expect(run.out).toContain('DOMAINS_FILE cannot be written (it stays as it was): ENOENT')
  expect(run.out).toContain('Nothing written: 1 error.')
})

test('mistakes get exit code 2 and say what is wrong', async () => {
  expect(await runCli(dir, {}, 'import', fixture('inwx-de.csv'))).toMatchObject({ code: 2, err: expect.stringContaining('import needs DOMAINS_FILE') })
  expect(await cliImport()).toMatchObject({ code: 2, err: expect.stringContaining('import takes one file') })
  expect(await cliImport(fixture('inwx-de.csv'), fixture('godaddy-en.csv'))).toMatchObject({ code: 2, err: expect.stringContaining('import takes one file') })
  expect(await cliImport(path.join(dir, 'fehlt.csv'))).toMatchObject({ code: 2, err: expect.stringContaining('cannot read') })
  expect(await cliImport(fixture('inwx-de.csv'), '--format', 'xml')).toMatchObject({ code: 2, err: expect.stringContaining('--format is csv or json') })
  expect((await runCli(dir, {}, 'help')).out).toContain('import   FILE [--format csv|json] [--dry-run] [--prune]')
})

test('on a terminal, standard error shows each step as it starts; --json and a pipe show none', async () => {
  const run = async (stderrIsTTY: boolean, ...args: string[]) => {
    const err: string[] = []
    const env = { DATA_DIR: dir, DOMAINS_FILE: domainsFile }
    const code = await main(['import', fixture('inwx-de.csv'), ...args], { env, print: () => {}, printError: (text) => err.push(text), stderrIsTTY })
    return { code, err }
  }
  const shown = await run(true)
  expect(shown.code).toBe(0)
  expect(shown.err.map((line) => /^domain-lander: (.+) … \(\d+\.\d s\)$/.exec(line)?.[1])).toEqual([
    'reading the list',
    'waiting for any other import writing the domains file',
    'reading the domains file',
    'checking every row',
    'merging',
    'validating the result',
    'writing the domains file',
    'loading the result as the server would',
  ])
  expect((await run(true, '--json', '--dry-run')).err).toEqual([])
  expect((await run(false, '--dry-run')).err).toEqual([])
})

describe('with a running server', () => {
  let server: ServerProcess
  let serverDir: string
  let served: string
  beforeAll(async () => {
    serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-import-server-'))
    served = path.join(serverDir, 'domains.yaml')
    fs.writeFileSync(served, DOMAINS)
    server = await startServerProcess({ DOMAINS_FILE: served })
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
    fs.rmSync(serverDir, { recursive: true, force: true })
  })

  test('the server shows an imported name with its price, and a changed price, without being told', async () => {
    expect((await getPage(server.url, 'münchen-beispiel.de')).status).toBe(404)
    expect((await runCli(serverDir, { DOMAINS_FILE: served }, 'import', fixture('inwx-de.csv'))).code).toBe(0)
    await expect.poll(async () => (await getPage(server.url, 'xn--mnchen-beispiel-zvb.de')).status).toBe(200)
    expect((await getPage(server.url, 'münchen-beispiel.de')).html).toMatch(/Preis: 12\.000\s€/u)
    expect((await getPage(server.url, 'beispiel.de')).html).toMatch(/Preis: 4\.900\s€/u)
    expect(server.output.join('\n')).toContain('domains file reloaded')
  })
})

describe('large and hostile lists: every size works or is refused with one line, never a stack trace (issue 12/19)', () => {
  const names = (count: number, prefix = 'neu') => `Domain;Preis\n${Array.from({ length: count }, (_, i) => `${prefix}-${i}.de;${i}`).join('\n')}\n`
  const listFile = (text: string, name = 'liste.csv') => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, text)
    return file
  }
  const noStack = (run: { out: string; err: string }) => expect(`${run.out}\n${run.err}`).not.toMatch(/RangeError|Maximum call stack|\n\s+at /)

  test('a result over the 32 MiB the server loads is refused before writing, with its reason on one line (also --dry-run)', async () => {
    // 31.99 MiB of comments (cheap to read), then the names: a hundred more go over the limit.
    const big = `${`# ${'x'.repeat(1021)}\n`.repeat(32 * 1024 - 1)}domains:\n  a.de: {}\n`
    fs.writeFileSync(domainsFile, big)
    const list = listFile(names(100))
    for (const args of [[list], [list, '--dry-run']]) {
      const run = await cliImport(...args)
      expect(run.code).toBe(1)
      noStack(run)
      expect(run.out.split('\n').filter((line) => line.includes('would not load'))).toEqual([
        `  the server would not load DOMAINS_FILE after this import, so it stays as it was: ${domainsFile} is 32.0 MiB; a domains file may have at most 32 MiB (see "Large portfolios" in docs/domains.md)`,
      ])
      expect(run.out).toContain('Nothing written: 1 error.')
    }
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(big)
    expect(fs.readdirSync(dir).sort()).toEqual(['domains.yaml', 'liste.csv'])
  })

  test("80,000 new names go into a YAML file, and the server's loader takes it", async () => {
    const run = await cliImport(listFile(names(80_000)), '--json')
    expect(run.code, run.err).toBe(0)
    expect(JSON.parse(run.out)).toMatchObject({ written: true, problems: [], counts: { added: 80_000 } })
    const written = fs.readFileSync(domainsFile, 'utf8')
    expect(written.startsWith(DOMAINS)).toBe(true)
    expect(written.endsWith('  neu-79999.de:\n    price: 79999\n')).toBe(true)
    // About 20 s on a busy 2-core machine (the import, then the server's loader on the result): room, not a measure.
  }, 60_000)

  test('150,000 rows with errors: each named, exit 1, nothing written', async () => {
    const run = await cliImport(listFile(`Domain;Preis\n${Array.from({ length: 150_000 }, (_, i) => `kein name ${i};${i}`).join('\n')}\n`))
    expect(run.code).toBe(1)
    noStack(run)
    expect(run.out).toContain('Problems (150000 errors, 0 warnings):')
    expect(run.out).toContain('  line 150001: "kein name 149999" is not a domain name\n')
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  })

  test('--dry-run of 140,000 rows prints every change', async () => {
    // Into JSON, which the import and the server's loader read fastest: the size is the table's, not the file's.
    const json = path.join(dir, 'domains.json')
    fs.writeFileSync(json, '{"domains": {}}\n')
    // As a process: every line of a report of megabytes comes through the pipe before the process ends.
    const run = await runCliProcess(dir, { DOMAINS_FILE: json }, 'import', listFile(names(140_000)), '--dry-run')
    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/\nadded\s+neu-139999\.de\s+139999\s+-\s+EUR\n/)
    expect(run.out).toContain('140000 added, 0 changed, 0 removed, 0 unchanged.\nDry run: nothing written.')
    expect(fs.readFileSync(json, 'utf8')).toBe('{"domains": {}}\n')
    // About 15 s on a busy 2-core machine: room, not a measure.
  }, 60_000)

  test('a JSON list nested 5 million deep is refused on one line', async () => {
    const run = await cliImport(listFile(`[${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}]`, 'tief.json'))
    expect(run.code).toBe(1)
    noStack(run)
    expect(run.out).toContain('\n  the JSON cannot be read: lists and objects nested more than 100 levels deep\n')
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  })
})
