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
  ...fields,
})

describe('a list without errors', () => {
  test('is merged and written, step by step, and the report says what changed', () => {
    const steps: ImportStep[] = []
    const report = runImport(job(), (step) => steps.push(step))
    expect(steps).toEqual(['list', 'domains-file', 'rows', 'merge', 'check', 'write'])
    expect(report).toMatchObject({ written: true, rows: 5, separator: ';', counts: { errors: 0, warnings: 0, added: 4, changed: 1, removed: 0, unchanged: 0 } })
    expect(report.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    const written = fs.readFileSync(file, 'utf8')
    expect(written).toContain('  beispiel.de:\n    price: 4900 # alter Preis\n    description: Kurz\n    minOffer: 1500\n')
    expect(written).toContain('  münchen-beispiel.de:\n    price: 12000\n')
    expect(written).toContain('  bücher.de:\n    price: 2500\n    minOffer: 500\n')
    expect(written).toContain('  ohne-preis.de: {}\n')
    expect(written).toContain('  dollar-name.com:\n    price: 1200\n    currency: USD\n')
  })

  test('as a dry run writes nothing', () => {
    const report = runImport(job({ write: false }))
    expect(report.written).toBe(false)
    expect(report.counts.added).toBe(4)
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('that changes nothing writes nothing', () => {
    const report = runImport(job({ text: 'Domain;Preis\nbeispiel.de;4000\n' }))
    expect(report).toMatchObject({ written: false, counts: { unchanged: 1 } })
  })

  test('with a cut report keeps the whole counts', () => {
    const report = runImport(job({ write: false, listMax: 1 }))
    expect(report.added).toHaveLength(1)
    expect(report.counts.added).toBe(4)
  })
})

describe('nothing is written', () => {
  test('when a row has an error; the report lists every problem and still shows the changes', () => {
    const report = runImport(job({ text: fs.readFileSync(path.join(FIXTURES, 'problems.csv'), 'utf8') }))
    expect(report.written).toBe(false)
    expect(report.counts).toMatchObject({ errors: 11, warnings: 1, added: 2 })
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('when the domains file changed since the preview', () => {
    const { fingerprint } = runImport(job({ write: false }))
    fs.appendFileSync(file, '  andere.de: {}\n')
    const report = runImport(job({ fingerprint }))
    expect(report.problems).toEqual([{ kind: 'changed' }])
    expect(report.written).toBe(false)
  })

  test('when the result would not be a valid domains file (the file was broken before)', () => {
    const broken = 'domains:\n  alt.de:\n    price: viel\n'
    fs.writeFileSync(file, broken)
    const report = runImport(job())
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.stringMatching(/^domains\.alt\.de\.price: /) }])
    expect(fs.readFileSync(file, 'utf8')).toBe(broken)
  })

  test('when the domains file has a currency the schema does not take (it is named, nothing breaks)', () => {
    fs.writeFileSync(file, 'domains:\n  beispiel.de:\n    currency: euro\n')
    const report = runImport(job({ text: 'Domain;Preis\nbeispiel.de;100 €\nneu.de;5\n' }))
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.stringMatching(/^domains\.beispiel\.de\.currency: /) }])
    expect(report.written).toBe(false)
  })

  test('when the domains file is no YAML', () => {
    fs.writeFileSync(file, 'domains:\n  a.de: [\n')
    const report = runImport(job())
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.any(String) }])
  })
})

test('a domains file that cannot be written stays as it was, and the report says why', () => {
  const report = runImport(job({ domainsFile: path.join(dir, 'fehlt', 'domains.yaml') }))
  expect(report.written).toBe(false)
  expect(report.problems).toEqual([{ kind: 'write', message: expect.stringContaining('ENOENT') }])
  expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
})

test('a domains file that does not exist yet is made', () => {
  const json = path.join(dir, 'neu.json')
  const report = runImport(job({ domainsFile: json, text: '[{"domain": "a.de", "price": 1}]', format: 'json' }))
  expect(report).toMatchObject({ written: true, fingerprint: '' })
  expect(JSON.parse(fs.readFileSync(json, 'utf8'))).toEqual({ domains: { 'a.de': { price: 1 } } })
})
