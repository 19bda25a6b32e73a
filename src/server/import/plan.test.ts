import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { runImport, type ImportJob, type ImportStep } from './plan.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/import')
const BEFORE = 'default:\n  currency: EUR\ndomains:\n  beispiel.de:\n    price: 4000 # alter Preis\n    description: Kurz\n'

let dir: string
let file: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-plan-'))
  file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, BEFORE)
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const job = (fields: Partial<ImportJob> = {}): ImportJob => ({
  text: fs.readFileSync(path.join(FIXTURES, 'inwx-de.csv'), 'utf8'),
  format: 'csv',
  domainsFile: file,
  prune: false,
  write: true,
  memoryMiB: 384,
  ...fields,
})

describe('a list without errors', () => {
  test('is merged and written, step by step, and the report says what changed', async () => {
    const steps: ImportStep[] = []
    const report = await runImport(job(), (step) => steps.push(step))
    expect(steps).toEqual(['list', 'lock', 'domains-file', 'rows', 'merge', 'check', 'write', 'load'])
    expect(report).toMatchObject({ written: true, rows: 5, separator: ';', counts: { errors: 0, warnings: 0, added: 4, changed: 1, removed: 0, unchanged: 0 } })
    expect(report.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    const written = fs.readFileSync(file, 'utf8')
    expect(written).toContain('  beispiel.de:\n    price: 4900 # alter Preis\n    description: Kurz\n    minOffer: 1500\n')
    expect(written).toContain('  münchen-beispiel.de:\n    price: 12000\n')
    expect(written).toContain('  bücher.de:\n    price: 2500\n    minOffer: 500\n')
    expect(written).toContain('  ohne-preis.de: {}\n')
    expect(written).toContain('  dollar-name.com:\n    price: 1200\n    currency: USD\n')
  })

  test('as a dry run writes nothing', async () => {
    const report = await runImport(job({ write: false }))
    expect(report.written).toBe(false)
    expect(report.counts.added).toBe(4)
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('that changes nothing writes nothing', async () => {
    const report = await runImport(job({ text: 'Domain;Preis\nbeispiel.de;4000\n' }))
    expect(report).toMatchObject({ written: false, counts: { unchanged: 1 } })
  })

  test('with a cut report keeps the whole counts', async () => {
    const report = await runImport(job({ write: false, listMax: 1 }))
    expect(report.added).toHaveLength(1)
    expect(report.counts.added).toBe(4)
  })
})

describe('nothing is written', () => {
  test('when a row has an error; the report lists every problem and still shows the changes', async () => {
    const report = await runImport(job({ text: fs.readFileSync(path.join(FIXTURES, 'problems.csv'), 'utf8') }))
    expect(report.written).toBe(false)
    expect(report.counts).toMatchObject({ errors: 11, warnings: 1, added: 2 })
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('when the domains file changed since the preview', async () => {
    const { fingerprint } = await runImport(job({ write: false }))
    fs.appendFileSync(file, '  andere.de: {}\n')
    const report = await runImport(job({ fingerprint }))
    expect(report.problems).toEqual([{ kind: 'changed' }])
    expect(report.written).toBe(false)
  })

  test('when the result would not be a valid domains file (the file was broken before)', async () => {
    const broken = 'domains:\n  alt.de:\n    price: viel\n'
    fs.writeFileSync(file, broken)
    const report = await runImport(job())
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.stringMatching(/^domains\.alt\.de\.price: /) }])
    expect(fs.readFileSync(file, 'utf8')).toBe(broken)
  })

  test('when the domains file has a currency the schema does not take (it is named, nothing breaks)', async () => {
    fs.writeFileSync(file, 'domains:\n  beispiel.de:\n    currency: euro\n')
    const report = await runImport(job({ text: 'Domain;Preis\nbeispiel.de;100 €\nneu.de;5\n' }))
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.stringMatching(/^domains\.beispiel\.de\.currency: /) }])
    expect(report.written).toBe(false)
  })

  test('when the domains file is no YAML', async () => {
    fs.writeFileSync(file, 'domains:\n  a.de: [\n')
    const report = await runImport(job())
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.any(String) }])
  })
})

test('a domains file that cannot be written stays as it was, and the report says why', async () => {
  const report = await runImport(job({ domainsFile: path.join(dir, 'fehlt', 'domains.yaml') }))
  expect(report.written).toBe(false)
  expect(report.problems).toEqual([{ kind: 'write', message: expect.stringContaining('ENOENT') }])
  expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
})

test('a domains file that does not exist yet is made', async () => {
  const json = path.join(dir, 'neu.json')
  const report = await runImport(job({ domainsFile: json, text: '[{"domain": "a.de", "price": 1}]', format: 'json' }))
  expect(report).toMatchObject({ written: true, fingerprint: '' })
  expect(JSON.parse(fs.readFileSync(json, 'utf8'))).toEqual({ domains: { 'a.de': { price: 1 } } })
})

// Long proofs (tens of megabytes, 150,000 rows): beside the whole suite and two CPU burners one took 45 s.
describe('what the server would refuse is refused before anything is written', { timeout: 120_000 }, () => {
  test("a result over the 32 MiB the server loads: the loader's reason, the file unchanged (a dry run says the same)", async () => {
    // 31.99 MiB of comments (cheap to read), then the names: a few more go over the limit.
    const comment = `# ${'x'.repeat(1021)}\n`
    const big = `${comment.repeat(32 * 1024 - 1)}domains:\n  a.de: {}\n`
    fs.writeFileSync(file, big)
    const text = `Domain;Preis\n${Array.from({ length: 100 }, (_, i) => `neu-${i}.de;${i}`).join('\n')}\n`
    for (const write of [true, false]) {
      const report = await runImport(job({ text, write }))
      expect(report.problems).toEqual([
        { kind: 'refused', message: expect.stringMatching(new RegExp(`^${file} is 32\\.0 MiB; a domains file may have at most 32 MiB`)) },
      ])
      expect(report).toMatchObject({ written: false, counts: { errors: 1, added: 100 } })
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(big)
    expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
  })

  test("a result whose load needs more than DOMAINS_FILE_MEMORY_MIB: refused with the loader's reason", async () => {
    const json = path.join(dir, 'domains.json')
    const domains = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`name-${i}.de`, { price: i }]))
    const before = `${JSON.stringify({ domains }, null, 2)}\n`
    fs.writeFileSync(json, before)
    const report = await runImport(job({ domainsFile: json, text: 'Domain;Preis\nneu.de;1\n', memoryMiB: 16 }))
    expect(report.problems).toEqual([
      { kind: 'refused', message: `${json}: loading it needs more than the 16 MiB of memory it may use (DOMAINS_FILE_MEMORY_MIB)` },
    ])
    expect(report.written).toBe(false)
    expect(fs.readFileSync(json, 'utf8')).toBe(before)
    expect(fs.readdirSync(dir).sort()).toEqual(['domains.json', 'domains.yaml'])
    // With the memory the server has, the same import is written.
    expect(await runImport(job({ domainsFile: json, text: 'Domain;Preis\nneu.de;1\n' }))).toMatchObject({ written: true, problems: [] })
  })
})

// Long proofs (tens of megabytes, 150,000 rows): beside the whole suite and two CPU burners one took 45 s.
describe('any size up to the limits works or is refused with its reason', { timeout: 120_000 }, () => {
  test('150,000 rows with errors: every one reported, nothing written', async () => {
    const text = `Domain;Preis\n${Array.from({ length: 150_000 }, (_, i) => `kein name ${i};${i}`).join('\n')}\n`
    const report = await runImport(job({ text }))
    expect(report.counts.errors).toBe(150_000)
    expect(report.problems.at(-1)).toEqual({ kind: 'name', line: 150_001, value: 'kein name 149999' })
    expect(await runImport(job({ text, listMax: 500 }))).toMatchObject({ problems: { length: 500 }, counts: { errors: 150_000 } })
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('a JSON list nested 5 million deep is unreadable, said so', async () => {
    const text = `[${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}]`
    const report = await runImport(job({ text, format: 'json' }))
    expect(report.problems).toEqual([{ kind: 'syntax', line: null, message: 'lists and objects nested more than 100 levels deep' }])
    expect(report.written).toBe(false)
  })

  test('a domains file nested 5 million deep is named as the reason (JSON and YAML)', async () => {
    const json = path.join(dir, 'domains.json')
    fs.writeFileSync(json, `{"domains":{},"x":${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}`)
    expect((await runImport(job({ domainsFile: json }))).problems).toEqual([
      { kind: 'domains-file', message: 'its lists and objects are nested more than 100 levels deep' },
    ])
    fs.writeFileSync(file, `domains: {}\nx: ${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}\n`)
    expect((await runImport(job())).problems).toEqual([{ kind: 'domains-file', message: 'line 2, column 103: nesting exceeded maxDepth (100)' }])
  })
})

describe('two writing imports at once', () => {
  const list = (names: string[]) => `Domain;Preis\n${names.map((name, i) => `${name};${i + 1}`).join('\n')}\n`

  test('from the same preview: one is written, the other told that the file changed; nothing is lost unseen', async () => {
    const { fingerprint } = await runImport(job({ write: false }))
    const [first, second] = await Promise.all([
      runImport(job({ text: list(['eins.de']), fingerprint })),
      runImport(job({ text: list(['zwei.de']), fingerprint })),
    ])
    const reports = [first!, second!]
    expect(reports.filter((report) => report.written)).toHaveLength(1)
    expect(reports.filter((report) => !report.written).map((report) => report.problems)).toEqual([[{ kind: 'changed' }]])
    const text = fs.readFileSync(file, 'utf8')
    expect(text.includes('eins.de')).toBe(first!.written)
    expect(text.includes('zwei.de')).toBe(second!.written)
  })

  test('without a preview (the CLI): one after the other, each reading what the other wrote', async () => {
    const names = ['a.de', 'b.de', 'c.de', 'd.de']
    const reports = await Promise.all(names.map((name) => runImport(job({ text: list([name]) }))))
    expect(reports.map((report) => report.written)).toEqual([true, true, true, true])
    const text = fs.readFileSync(file, 'utf8')
    for (const name of names) expect(text).toContain(`  ${name}:\n`)
    expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
  })

  test('one that cannot get the lock in time says who holds it', async () => {
    const { lockDomainsFile } = await import('./lock.ts')
    const unlock = await lockDomainsFile(file)
    try {
      const report = await runImport(job({ lockWaitMs: 200 }))
      expect(report.problems).toEqual([
        {
          kind: 'busy',
          message: expect.stringMatching(
            new RegExp(`^another import \\(process ${process.pid} on .+\\) is writing it and holds .+\\.domains\\.yaml\\.lock; try again`),
          ),
        },
      ])
      expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
    } finally {
      unlock()
    }
  })
})
