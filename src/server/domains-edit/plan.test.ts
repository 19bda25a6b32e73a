import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import yaml from 'js-yaml'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { commitReplacement } from '../import/replace-file.ts'
import { YAML_OPTIONS } from '../sites/domains-file.ts'
import { planDomainEdits, scaledPrice, type EditJob } from './plan.ts'

const BEFORE = `# Meine Domains
unknownHosts: page
default:
  currency: EUR

domains:
  # Die beste
  beispiel.de:
    price: 4000 # alter Preis
    description: Kurz
  zweite.de: {price: 1999, status: reserved}
  ohne-preis.de: {}
  "*.wild.de":
    price: 10
# Ende
`

let dir: string
let file: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domains-edit-'))
  file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, BEFORE)
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const job = (fields: Partial<EditJob>): EditJob => ({ domainsFile: file, edits: [], mode: 'prepare', memoryMiB: 384, ...fields })

async function write(fields: Partial<EditJob>) {
  const { report, replacement } = await planDomainEdits(job(fields))
  if (replacement) commitReplacement(replacement)
  return report
}

const read = () => yaml.load(fs.readFileSync(file, 'utf8'), YAML_OPTIONS) as { domains: Record<string, Record<string, unknown>> }

describe('an edit of one name', () => {
  test("rewrites only that name's lines: comments, order and every other line stay byte for byte", async () => {
    const report = await write({ edits: [{ op: 'set', name: 'Beispiel.DE', changes: { price: 5900, status: 'reserved', listed: false } }] })
    expect(report.problems).toEqual([])
    expect(report.changes).toEqual([
      {
        name: 'beispiel.de',
        kind: 'changed',
        before: { price: 4000, priceType: null, minOffer: null, currency: null, status: null, language: null, listed: null, description: 'Kurz' },
        after: { price: 5900, priceType: null, minOffer: null, currency: null, status: 'reserved', language: null, listed: false, description: 'Kurz' },
      },
    ])
    expect(report.resolved).toEqual([{ op: 'set', name: 'beispiel.de', changes: { price: 5900, status: 'reserved', listed: false } }])
    expect(fs.readFileSync(file, 'utf8')).toBe(
      BEFORE.replace(
        '    price: 4000 # alter Preis\n    description: Kurz\n',
        '    price: 5900 # alter Preis\n    description: Kurz\n    status: reserved\n    listed: false\n',
      ),
    )
  })

  test('an empty value removes the key; what the file has already changes nothing and writes nothing', async () => {
    const same = await planDomainEdits(job({ edits: [{ op: 'set', name: 'beispiel.de', changes: { price: 4000 } }] }))
    expect([same.report.changes, same.replacement]).toEqual([[], undefined])
    await write({ edits: [{ op: 'set', name: 'zweite.de', changes: { status: null } }] })
    expect(read().domains['zweite.de']).toEqual({ price: 1999 })
  })

  test('a hostile description is written as a string and reads back as exactly that string', async () => {
    const hostile = '<script>alert(1)</script> # kein Kommentar: "x" \'y\' \u001b[31m rot\nzweite Zeile {a: b}'
    await write({ edits: [{ op: 'set', name: 'beispiel.de', changes: { description: hostile } }] })
    expect(read().domains['beispiel.de']!.description).toBe(hostile)
    expect(fs.readFileSync(file, 'utf8')).toContain('# Ende\n')
  })
})

describe('several names, adding and removing', () => {
  test('a price change in % rounds to whole units, and a name without a price of its own is named, not changed', async () => {
    const report = await write({
      edits: [
        { op: 'scale', names: ['beispiel.de', 'zweite.de', 'ohne-preis.de'], percent: 10 },
        { op: 'set', name: 'zweite.de', changes: { status: 'available' } },
      ],
    })
    expect(report.problems).toEqual([{ kind: 'no-price', name: 'ohne-preis.de' }])
    expect(read().domains['beispiel.de']!.price).toBe(4400)
    expect(read().domains['zweite.de']).toEqual({ price: 2199, status: 'available' })
  })

  test('prices scale exactly in integers, rounding half up', () => {
    expect([scaledPrice(1999, 10), scaledPrice(1005, -50), scaledPrice(1, 50), scaledPrice(999_999_999, 0.01), scaledPrice(100, -99)]).toEqual([
      2199, 503, 2, 1_000_099_999, 1,
    ])
  })

  test('a name is added at the end of domains and removed with its own lines only', async () => {
    await write({
      edits: [
        { op: 'add', name: 'Bücher.de', changes: { price: 2500, description: 'Neu' } },
        { op: 'remove', name: 'ohne-preis.de' },
      ],
    })
    const text = fs.readFileSync(file, 'utf8')
    expect(text).toContain('  bücher.de:\n    price: 2500\n    description: Neu\n')
    expect(text).not.toContain('ohne-preis.de')
    expect(text).toContain('# Die beste\n')
  })

  test('unknown names, names there already, wildcards and non-names are problems, and nothing is prepared', async () => {
    const { report, replacement } = await planDomainEdits(
      job({
        edits: [
          { op: 'set', name: 'fehlt.de', changes: { price: 1 } },
          { op: 'add', name: 'beispiel.de', changes: {} },
          { op: 'remove', name: '*.wild.de' },
          { op: 'set', name: '<b>x</b>', changes: { price: 1 } },
        ],
      }),
    )
    expect(report.problems).toEqual([
      { kind: 'unknown', name: 'fehlt.de' },
      { kind: 'exists', name: 'beispiel.de' },
      { kind: 'wildcard', value: '*.wild.de' },
      { kind: 'name', value: '<b>x</b>' },
    ])
    expect(replacement).toBeUndefined()
    expect(fs.readFileSync(file, 'utf8')).toBe(BEFORE)
  })

  test('a name the file got by hand that the editor would refuse (localhost) can be removed, not set', async () => {
    fs.writeFileSync(file, BEFORE.replace('  ohne-preis.de: {}\n', '  ohne-preis.de: {}\n  localhost: {}\n'))
    expect((await write({ edits: [{ op: 'set', name: 'localhost', changes: { price: 1 } }] })).problems).toEqual([{ kind: 'name', value: 'localhost' }])
    expect((await write({ edits: [{ op: 'remove', name: 'localhost' }] })).changes.map((change) => [change.name, change.kind])).toEqual([
      ['localhost', 'removed'],
    ])
    expect(Object.keys(read().domains)).not.toContain('localhost')
  })

  test('a file changed since the preview is refused', async () => {
    const { report } = await planDomainEdits(job({ mode: 'preview', edits: [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }] }))
    fs.appendFileSync(file, '# von Hand\n')
    const stale = await planDomainEdits(job({ fingerprint: report.fingerprint, edits: [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }] }))
    expect(stale.report.problems).toEqual([{ kind: 'changed' }])
    expect(stale.replacement).toBeUndefined()
  })

  test('what the server would refuse is refused with its reason', async () => {
    const { report } = await planDomainEdits(job({ edits: [{ op: 'set', name: 'beispiel.de', changes: { currency: 'eur' } }] }))
    expect(report.problems).toEqual([{ kind: 'domains-file', message: expect.stringContaining('domains.beispiel.de.currency') }])
  })
})

describe('an edit passed on by another instance (lenient)', () => {
  test('applies twice without a change, adds as a set, and passes over names this file lacks', async () => {
    const edits = [
      { op: 'add' as const, name: 'beispiel.de', changes: { price: 7000 } },
      { op: 'set' as const, name: 'fehlt.de', changes: { price: 1 } },
      { op: 'remove' as const, name: 'auch-nicht.de' },
    ]
    const first = await write({ edits, lenient: true })
    expect(first.problems).toEqual([])
    expect(read().domains['beispiel.de']).toEqual({ price: 7000, description: 'Kurz' })
    const again = await planDomainEdits(job({ edits, lenient: true }))
    expect([again.report.changes, again.replacement]).toEqual([[], undefined])
  })
})

test('a JSON domains file is edited as JSON', async () => {
  const json = path.join(dir, 'domains.json')
  fs.writeFileSync(json, JSON.stringify({ domains: { 'a.de': { price: 100, mailTo: 'a@example.org' } } }))
  const { replacement } = await planDomainEdits(
    job({
      domainsFile: json,
      edits: [
        { op: 'set', name: 'a.de', changes: { listed: false } },
        { op: 'add', name: 'b.de', changes: {} },
      ],
    }),
  )
  commitReplacement(replacement!)
  expect(JSON.parse(fs.readFileSync(json, 'utf8'))).toEqual({ domains: { 'a.de': { price: 100, mailTo: 'a@example.org', listed: false }, 'b.de': {} } })
})

test('a domains file that does not exist yet is made by the first name added', async () => {
  fs.rmSync(file)
  await write({ edits: [{ op: 'add', name: 'erste.de', changes: { price: 10 } }] })
  expect(read().domains).toEqual({ 'erste.de': { price: 10 } })
})
