// Edits of the domains file across instances (decision 044), on the store of the test project (SQLite, or a real
// PostgreSQL): two domains files stand for two machines, two stores opened on one config for their servers.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { describe, expect, onTestFinished, test } from 'vitest'
import { openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { planDomainEdits } from './plan.ts'
import { catchUp, readApplied, saveDomainEdits, type EditJournal } from './save.ts'
import { domainsSyncFor, storeJournal } from './sync.ts'

const FILE = 'domains:\n  beispiel.de:\n    price: 4000 # Preis\n  zweite.de: {}\n'

function machine(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `domains-${name}-`))
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }))
  const domainsFile = path.join(dir, 'domains.yaml')
  fs.writeFileSync(domainsFile, FILE)
  return domainsFile
}

let lastConfig: Awaited<ReturnType<typeof testStoreConfig>>
const config = () => lastConfig

async function twoInstances() {
  const config = (lastConfig = await testStoreConfig('domain-edits-'))
  const stores = [await openTestStore(config), await openTestStore(config)] as const
  const files = [machine('a'), machine('b')] as const
  const options = (i: 0 | 1, journal: EditJournal = storeJournal(stores[i])) => ({ domainsFile: files[i], memoryMiB: 384, plan: planDomainEdits, journal })
  return { stores, files, options }
}

const text = (file: string) => fs.readFileSync(file, 'utf8')

describe('an edit made on one instance', () => {
  test("is recorded as the next number and taken into the other instance's file, once", async () => {
    const { files, options } = await twoInstances()
    const report = await saveDomainEdits(options(0), [{ op: 'set', name: 'beispiel.de', changes: { price: 5900, status: 'reserved' } }])
    expect(report.written).toBe(true)
    expect(readApplied(files[0])).toBe(1)
    const expected = 'domains:\n  beispiel.de:\n    price: 5900 # Preis\n    status: reserved\n  zweite.de: {}\n'
    expect(text(files[0])).toBe(expected)
    expect(text(files[1])).toBe(FILE)

    expect(await catchUp(options(1))).toBe(1)
    expect([text(files[1]), readApplied(files[1])]).toEqual([expected, 1])
    expect(await catchUp(options(1))).toBe(0)
    expect(await catchUp(options(0))).toBe(0)
  })

  test('makes a preview on another instance stale: its "Speichern" is refused there, after taking the edit in', async () => {
    const { files, options } = await twoInstances()
    const preview = await planDomainEdits({
      domainsFile: files[1],
      edits: [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }],
      mode: 'preview',
      memoryMiB: 384,
    })
    await saveDomainEdits(options(0), [{ op: 'remove', name: 'zweite.de' }])
    const stale = await saveDomainEdits(options(1), [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }], preview.report.fingerprint)
    expect(stale.problems).toEqual([{ kind: 'changed' }])
    expect(text(files[1])).not.toContain('zweite.de')
    expect(text(files[1])).toContain('price: 4000')
  })

  test('that loses the race for its number to another instance is refused, its file untouched, and takes the other in', async () => {
    const { stores, files, options } = await twoInstances()
    const real = storeJournal(stores[0])
    let raced = false
    // The other instance records its edit just after this one has looked for edits it lacks.
    const racing: EditJournal = {
      ...real,
      async after(version) {
        const rows = await real.after(version)
        if (!raced) {
          raced = true
          expect(await stores[1].recordDomainEdit(version + 1, JSON.stringify([{ op: 'set', name: 'zweite.de', changes: { price: 300 } }]), Date.now())).toBe(
            true,
          )
        }
        return rows
      },
    }
    const lost = await saveDomainEdits(options(0, racing), [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }])
    expect([lost.written, lost.problems]).toEqual([false, [{ kind: 'changed' }]])
    expect(text(files[0])).toBe(FILE)
    expect(fs.readdirSync(path.dirname(files[0])).filter((name) => name.includes('.tmp.'))).toEqual([])
    expect(await catchUp(options(0))).toBe(1)
    expect(text(files[0])).toContain('  zweite.de:\n    price: 300\n')
  })
})

test('a name the import refuses is refused as one: localhost, an address, a single label; nothing is recorded, written or passed on', async () => {
  const { stores, files, options } = await twoInstances()
  const refused = ['localhost', '127.0.0.1', '10.0.0.1.', '2130706433', 'intranet', 'drucker.localhost']
  const report = await saveDomainEdits(options(0), [
    ...refused.map((name) => ({ op: 'add' as const, name, changes: { price: 100 } })),
    { op: 'add', name: 'neu.de', changes: {} },
  ])
  expect([report.written, report.problems]).toEqual([false, refused.map((value) => ({ kind: 'name', value }))])
  expect([text(files[0]), await stores[1].latestDomainEdit()]).toEqual([FILE, 0])
  expect(await catchUp(options(1))).toBe(0)
  // The good name alone goes through, and to the other instance.
  expect((await saveDomainEdits(options(0), [{ op: 'add', name: 'neu.de', changes: {} }])).written).toBe(true)
  expect(await catchUp(options(1))).toBe(1)
  expect(text(files[1])).toContain('neu.de')
})

test('only one of two records of the same number is kept', async () => {
  const config = await testStoreConfig('domain-edits-')
  const [a, b] = [await openTestStore(config), await openTestStore(config)]
  const results = await Promise.all([a.recordDomainEdit(1, '["a"]', 1), b.recordDomainEdit(1, '["b"]', 2)])
  expect(results.sort()).toEqual([false, true])
  expect(await a.latestDomainEdit()).toBe(1)
  expect((await b.domainEditsAfter(0)).map((row) => row.version)).toEqual([1])
  expect(await a.domainEditsAfter(1)).toEqual([])
})

describe('the journal of edits', () => {
  const DAY = 24 * 60 * 60 * 1000
  const T0 = Date.UTC(2026, 0, 1)

  test('lets go of the edits the file has taken in: at once on a store of one server, after 30 days on a shared one; the highest number stays', async () => {
    const { stores, files, options } = await twoInstances()
    let clock = T0
    const journal = storeJournal(stores[0], () => clock)
    const save = (price: number) => saveDomainEdits(options(0, journal), [{ op: 'set', name: 'beispiel.de', changes: { price } }])
    const kept = async () => (await stores[1].domainEditsAfter(0)).map((row) => row.version)
    expect((await save(100)).written).toBe(true)
    expect((await save(200)).written).toBe(true)
    const shared = stores[0].sharedByInstances
    expect(shared).toBe(config().databaseUrl !== undefined)
    // A shared store keeps them for the instances that have not taken them in yet.
    expect(await kept()).toEqual(shared ? [1, 2] : [2])
    clock = T0 + 31 * DAY
    expect((await save(300)).written).toBe(true)
    expect(await kept()).toEqual([3])
    // The numbers go on without a gap or a repeat.
    expect((await save(400)).written).toBe(true)
    expect(await stores[1].latestDomainEdit()).toBe(4)
    expect(readApplied(files[0])).toBe(4)

    // An instance that lacks pruned edits says so, and takes in the ones still there.
    const logged: string[] = []
    const log = { error: (_: object, message: string) => void logged.push(message), info: () => {} } as unknown as FastifyBaseLogger
    expect(await catchUp({ ...options(1), log })).toBe(shared ? 2 : 1)
    expect(readApplied(files[1])).toBe(4)
    expect(fs.readFileSync(files[1], 'utf8')).toContain('price: 400')
    expect(logged).toEqual([expect.stringContaining('no longer in the store')])
  })
})

test('only a store that other instances share is polled for their edits; one of this server alone is not', async () => {
  const { stores, files, options } = await twoInstances()
  const log = { info: () => {}, error: () => {} } as unknown as FastifyBaseLogger
  let reloads = 0
  const sync = domainsSyncFor(stores[1], { ...options(1), log, reload: async () => void reloads++ })
  if (!stores[1].sharedByInstances) {
    // SQLite: DATA_DIR is locked by one server; its own edits (console, CLI, the cluster's processes) are written
    // into its one file under the lock, and nobody else can add any.
    expect(sync).toBeNull()
    return
  }
  expect(sync).not.toBeNull()
  await saveDomainEdits(options(0), [{ op: 'remove', name: 'zweite.de' }])
  await sync!.round()
  expect(reloads).toBe(1)
  expect(fs.readFileSync(files[1], 'utf8')).not.toContain('zweite.de')
})
