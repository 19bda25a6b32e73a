// The console's page "Domains" and `domains set|add|remove` against the real server process: the list (searchable,
// paged), a preview that writes nothing, "Speichern" writing the file with the import's line editor and the server
// serving the change, and the attacks: no session, another site, no console header, an edit racing a change of the
// file (409), hostile names and descriptions, and a malformed request. Without DOMAINS_FILE the page makes a file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DomainsEditReport, DomainsListPage } from '../../src/shared/domains-api.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { getPage } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const names = Array.from({ length: 250 }, (_, i) => `  name-${String(i).padStart(3, '0')}.de: {price: ${1000 + i}}\n`).join('')
const DOMAINS = `# Von Hand gepflegt
unknownHosts: not-found
domains:
  beispiel.de:
    price: 4000 # alter Preis
    description: Kurz
${names}  "*.wild.de": {}
# Ende
`

let server: ServerProcess
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-domains-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(domainsFile, DOMAINS)
  server = await startServerProcess({ DOMAINS_FILE: domainsFile })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  fs.rmSync(dir, { recursive: true, force: true })
})

const post = (pathName: string, body: unknown, headers: Record<string, string> = {}) => client.call(pathName, { method: 'POST', body, cookie, headers })
const answer = async (response: Response) => ({ status: response.status, body: await response.json() })
const list = async (query: string) => (await (await client.call(`/api/domains?${query}`, { cookie })).json()) as DomainsListPage

async function preview(edits: unknown): Promise<DomainsEditReport> {
  const response = await post('/api/domains/preview', { edits })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as DomainsEditReport
}

describe('in order', () => {
  test('the page lists the names of the file, a hundred at a time, searchable; wildcards are left to the file', async () => {
    const page = await client.call('/domains', { cookie })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('name-098.de')
    expect(html).not.toContain('name-099.de')
    const first = await list('')
    expect([first.total, first.items.length, first.items[0]]).toEqual([
      251,
      100,
      expect.objectContaining({ name: 'beispiel.de', price: 4000, status: 'available', listed: true, description: 'Kurz' }),
    ])
    expect((await list('offset=200')).items.map((row) => row.name)).toEqual(Array.from({ length: 51 }, (_, i) => `name-${199 + i}.de`))
    const found = await list('q=NAME-12')
    expect([found.total, found.items.map((row) => row.name)]).toEqual([10, Array.from({ length: 10 }, (_, i) => `name-12${i}.de`)])
  })

  test('the preview shows the change and writes nothing; "Speichern" writes only that name\'s lines and the page changes', async () => {
    const edits = [{ op: 'set', name: 'beispiel.de', changes: { price: 5900, status: 'reserved' } }]
    const report = await preview(edits)
    expect(report.changes).toEqual([
      expect.objectContaining({
        name: 'beispiel.de',
        kind: 'changed',
        before: expect.objectContaining({ price: 4000, status: null }),
        after: expect.objectContaining({ price: 5900, status: 'reserved' }),
      }),
    ])
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
    const saved = await post('/api/domains/apply', { edits, fingerprint: report.fingerprint })
    expect(saved.status, await saved.clone().text()).toBe(200)
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(
      DOMAINS.replace('    price: 4000 # alter Preis\n', '    price: 5900 # alter Preis\n').replace(
        '    description: Kurz\n',
        '    description: Kurz\n    status: reserved\n',
      ),
    )
    // In force at the answer: the list, and the public page.
    expect((await list('q=beispiel')).items[0]).toMatchObject({ price: 5900, status: 'reserved' })
    expect((await getPage(server.url, 'beispiel.de')).html).toMatch(/reserviert/i)
    expect(server.output.filter((line) => line.includes('domains edited in the console'))).toEqual([expect.stringContaining('"changed":1')])
  })

  test('several names at once: the price in %, listed; a name added and one removed', async () => {
    const edits = [
      { op: 'scale', names: ['name-000.de', 'name-001.de'], percent: -10 },
      { op: 'set', name: 'name-000.de', changes: { listed: false } },
      { op: 'set', name: 'name-001.de', changes: { listed: false } },
      { op: 'add', name: 'neu.de', changes: { price: 777 } },
      { op: 'remove', name: 'name-249.de' },
    ]
    const report = await preview(edits)
    expect(report.changes.map((change) => [change.name, change.kind, change.after?.price ?? null])).toEqual([
      ['name-000.de', 'changed', 900],
      ['name-001.de', 'changed', 901],
      ['neu.de', 'added', 777],
      ['name-249.de', 'removed', null],
    ])
    expect((await post('/api/domains/apply', { edits, fingerprint: report.fingerprint })).status).toBe(200)
    const text = fs.readFileSync(domainsFile, 'utf8')
    expect(text).toContain('  name-000.de: {price: 900, listed: false}\n')
    expect(text).toContain('  neu.de:\n    price: 777\n')
    expect(text).not.toContain('name-249.de')
    expect(text).toMatch(/^# Von Hand gepflegt\n/)
    expect(text).toMatch(/# Ende\n$/)
    expect((await getPage(server.url, 'neu.de')).status).toBe(200)
    expect((await getPage(server.url, 'name-000.de')).status).toBe(404)
  })

  test('the CLI edits the same way, and --dry-run writes nothing', async () => {
    const env = { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }
    const dry = await runCli(server.dataDir, env, 'domains', 'set', 'neu.de', 'price=5900', 'status=reserved', '--dry-run')
    expect([dry.code, dry.out]).toEqual([0, 'changed neu.de: price 777 -> 5900, status - -> "reserved"\nDry run: nothing written.\n'])
    expect(fs.readFileSync(domainsFile, 'utf8')).toContain('    price: 777\n')
    const set = await runCli(server.dataDir, env, 'domains', 'set', 'neu.de', 'price=5900', 'status=reserved')
    expect([set.code, set.err]).toEqual([0, ''])
    expect(fs.readFileSync(domainsFile, 'utf8')).toContain('  neu.de:\n    price: 5900\n    status: reserved\n')
    expect((await runCli(server.dataDir, env, 'domains', 'add', 'cli.de', 'price=100')).code).toBe(0)
    expect((await runCli(server.dataDir, env, 'domains', 'remove', 'cli.de')).code).toBe(0)
    expect(fs.readFileSync(domainsFile, 'utf8')).not.toContain('cli.de')
    const missing = await runCli(server.dataDir, env, 'domains', 'remove', 'fehlt.de')
    expect([missing.code, missing.out]).toEqual([1, 'fehlt.de is not in DOMAINS_FILE\nNothing written.\n'])
    const bad = await runCli(server.dataDir, env, 'domains', 'set', 'neu.de', 'colour=red')
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('unknown key "colour"')
    await expect.poll(async () => (await list('q=neu.de')).items[0]?.status).toBe('reserved')
    // Five runs of the CLI from the sources, each a second or more of start on a busy machine.
  }, 120_000)
})

describe('attacks', () => {
  const edits = [{ op: 'set', name: 'beispiel.de', changes: { price: 1 } }]

  test('without a session, every route of the page is refused', async () => {
    expect((await client.call('/domains')).status).toBe(303)
    expect(await answer(await client.call('/api/domains'))).toEqual({ status: 401, body: { error: 'Bitte anmelden.' } })
    for (const pathName of ['/api/domains/preview', '/api/domains/apply', '/api/domains/create']) {
      expect(await answer(await client.call(pathName, { method: 'POST', body: { edits, fingerprint: '', name: 'x.de' } }))).toEqual({
        status: 401,
        body: { error: 'Bitte anmelden.' },
      })
    }
  })

  test('from another site, or without the console header, nothing is changed on any route', async () => {
    const refused = { status: 403, body: { error: 'Anfragen von anderen Websites werden nicht angenommen.' } }
    const before = fs.readFileSync(domainsFile, 'utf8')
    for (const pathName of ['/api/domains/preview', '/api/domains/apply', '/api/domains/create']) {
      const body = { edits, fingerprint: '', name: 'x.de' }
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        expect(await answer(await post(pathName, body, headers))).toEqual(refused)
      }
      const withoutHeader = await fetch(`${client.admin}${pathName}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: client.admin, cookie },
        body: JSON.stringify(body),
      })
      expect(await answer(withoutHeader)).toEqual(refused)
    }
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(before)
  })

  test('an edit racing a change of the file is refused with 409 and writes nothing', async () => {
    const report = await preview(edits)
    // Someone edits the file by hand between the preview and "Speichern".
    fs.appendFileSync(domainsFile, '# von Hand\n')
    const changed = fs.readFileSync(domainsFile, 'utf8')
    expect(await answer(await post('/api/domains/apply', { edits, fingerprint: report.fingerprint }))).toEqual({
      status: 409,
      body: { error: 'Die Domains-Datei wurde seit der Vorschau geändert (hier oder auf einem anderen Server). Bitte die Vorschau neu laden.' },
    })
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(changed)
  })

  test('hostile names are problems named as data; a hostile description is stored and listed as that exact text', async () => {
    const report = await preview([
      { op: 'set', name: '<img src=x onerror=alert(1)>', changes: { price: 1 } },
      { op: 'add', name: '\u001b[31mrot.de', changes: {} },
    ])
    expect(report.problems).toEqual([
      { kind: 'name', value: '<img src=x onerror=alert(1)>' },
      { kind: 'name', value: '\u001b[31mrot.de' },
    ])
    const description = '<script>alert("x")</script> & \u202Egnp.exe # nicht kommentiert'
    const hostile = [{ op: 'set', name: 'beispiel.de', changes: { description } }]
    const { fingerprint } = await preview(hostile)
    expect((await post('/api/domains/apply', { edits: hostile, fingerprint })).status).toBe(200)
    expect((await list('q=beispiel')).items[0]!.description).toBe(description)
    const page = await (await client.call('/domains', { cookie })).text()
    expect(page).not.toContain('<script>alert')
    expect(page).toContain('&lt;script&gt;alert')
  })

  test('names the import refuses (localhost, addresses, a single label, a .localhost name) are refused here too, and the file keeps what it had', async () => {
    const before = fs.readFileSync(domainsFile, 'utf8')
    const refused = ['localhost', '127.0.0.1', '127.1', '0x7f000001', 'intranet', 'kasse.localhost', '[::1]']
    const edits = refused.map((name) => ({ op: 'add', name, changes: { price: 100 } }))
    expect((await preview(edits)).problems).toEqual(refused.map((value) => ({ kind: 'name', value })))
    const { fingerprint } = await preview([{ op: 'set', name: 'beispiel.de', changes: { price: 4100 } }])
    expect((await post('/api/domains/apply', { edits, fingerprint })).status).toBe(422)
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(before)
    expect((await list('q=local')).items).toEqual([])
    expect((await list('q=127.0')).items).toEqual([])
    // What the import takes, the editor takes: a name in Unicode, with the root's dot.
    expect((await preview([{ op: 'add', name: 'Kasse.Münster.de.', changes: {} }])).changes).toEqual([
      expect.objectContaining({ name: 'kasse.münster.de', kind: 'added' }),
    ])
  })

  test('a malformed or oversized edit is a 400 with the one error shape', async () => {
    const bad = { status: 400, body: { error: 'Die Änderung ist unvollständig oder ungültig.' } }
    for (const body of [
      {},
      { edits: [] },
      { edits: [{ op: 'drop', name: 'a.de' }] },
      { edits: [{ op: 'set', name: 'a.de', changes: { price: 1.5 } }] },
      { edits: [{ op: 'set', name: 'a.de', changes: { mailTo: 'x@example.org' } }] },
      { edits: [{ op: 'set', name: 'a.de', changes: { description: 'x'.repeat(501) } }] },
    ]) {
      expect(await answer(await post('/api/domains/preview', body))).toEqual(bad)
    }
    expect(await answer(await post('/api/domains/apply', { edits, fingerprint: 'nicht-hex' }))).toEqual(bad)
  })

  test('with a domains file, "anlegen" is refused', async () => {
    expect((await post('/api/domains/create', { name: 'x.de' })).status).toBe(409)
  })
})

test('without DOMAINS_FILE the page explains it and makes a file with the first name', async () => {
  const bare = await startServerProcess()
  try {
    const bareClient = consoleClient(bare)
    expect((await bareClient.setPassword()).code).toBe(0)
    const { cookie } = await bareClient.signIn()
    const html = await (await bareClient.call('/domains', { cookie })).text()
    expect(html).toContain('DOMAINS_FILE')
    expect(html).toContain(path.join(bare.dataDir, 'domains.yaml'))
    // Names the import refuses make no file either.
    for (const name of ['localhost', '127.0.0.1']) {
      expect((await bareClient.call('/api/domains/create', { method: 'POST', body: { name }, cookie })).status, name).toBe(400)
    }
    const created = await bareClient.call('/api/domains/create', { method: 'POST', body: { name: 'Erste.de' }, cookie })
    expect(await created.json()).toEqual({ file: path.join(bare.dataDir, 'domains.yaml') })
    expect(fs.readFileSync(path.join(bare.dataDir, 'domains.yaml'), 'utf8')).toContain('domains:\n  "erste.de": {}\n')
    expect((await bareClient.call('/api/domains/create', { method: 'POST', body: { name: 'zweite.de' }, cookie })).status).toBe(409)
    expect((await bareClient.call('/api/domains/create', { method: 'POST', body: { name: '<b>' }, cookie })).status).toBe(400)
    expect((await bareClient.call('/api/domains/preview', { method: 'POST', body: { edits: [{ op: 'remove', name: 'erste.de' }] }, cookie })).status).toBe(409)
  } finally {
    await bare.stop()
    bare.cleanup()
  }
})
