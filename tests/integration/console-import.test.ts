// "Domains importieren" in the console, against the real server process: the preview (a dry run), "Übernehmen"
// writing the domains file that the server then serves, and the attacks: no session, another site, no console
// header, an oversized list, a domains file changed since the preview, and a list with errors.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ImportReport } from '../../src/shared/import-api.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { startApp } from '../helpers/app.ts'
import { consoleClient } from '../helpers/console.ts'
import { getPage, rawRequest } from '../helpers/contact.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import')
const list = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')
const DOMAINS = 'unknownHosts: not-found\ndomains:\n  beispiel.de:\n    price: 4000\n    description: Kurz\n'

let server: ServerProcess
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-import-'))
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

async function preview(text: string, prune = false): Promise<ImportReport> {
  const response = await post('/api/import/preview', { text, format: 'csv', prune })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as ImportReport
}

describe('in order', () => {
  test('the page is there for a signed-in owner, with the domains file named', async () => {
    const page = await client.call('/domains-importieren', { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(domainsFile)
  })

  test('the preview shows the changes and writes nothing', async () => {
    const report = await preview(list('inwx-de.csv'))
    expect(report).toMatchObject({ written: false, rows: 5, counts: { errors: 0, added: 4, changed: 1, removed: 0 } })
    expect(report.changed).toEqual([
      { name: 'beispiel.de', before: { price: 4000, minOffer: null, currency: 'EUR' }, after: { price: 4900, minOffer: 1500, currency: 'EUR' } },
    ])
    expect(report.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  })

  test('"Übernehmen" refuses a list with errors, and a domains file that changed since the preview', async () => {
    const bad = await preview(list('problems.csv'))
    expect(bad.counts.errors).toBe(11)
    expect(await answer(await post('/api/import/apply', { text: list('problems.csv'), format: 'csv', prune: false, fingerprint: bad.fingerprint }))).toEqual({
      status: 422,
      body: { error: 'Die Liste hat Fehler; es wurde nichts geschrieben.' },
    })
    const stale = '0'.repeat(64)
    expect(await answer(await post('/api/import/apply', { text: list('inwx-de.csv'), format: 'csv', prune: false, fingerprint: stale }))).toEqual({
      status: 409,
      body: { error: 'Die Domains-Datei wurde seit der Vorschau geändert. Bitte die Vorschau neu laden.' },
    })
    expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  })

  test('"Übernehmen" writes the file as the CLI does, and the server shows the new names with their prices', async () => {
    const { fingerprint } = await preview(list('inwx-de.csv'))
    const response = await post('/api/import/apply', { text: list('inwx-de.csv'), format: 'csv', prune: false, fingerprint })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ written: true, counts: { added: 4, changed: 1 } })
    expect(fs.readFileSync(domainsFile, 'utf8')).toContain('  beispiel.de:\n    price: 4900\n    description: Kurz\n    minOffer: 1500\n')
    await expect.poll(async () => (await getPage(server.url, 'xn--bcher-kva.de')).status).toBe(200)
    expect((await getPage(server.url, 'xn--bcher-kva.de')).html).toMatch(/Preis: 2\.500\s€/u)
    expect(server.output.filter((line) => line.includes('domains imported in the console'))).toEqual([expect.stringContaining('"added":4')])
  })

  test('a second import while one runs is refused, not queued', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `name-${i}.de;${i}`).join('\n')
    const both = await Promise.all([0, 1].map(() => post('/api/import/preview', { text: `Domain;Preis\n${rows}\n`, format: 'csv', prune: false })))
    expect(both.map((response) => response.status).sort()).toEqual([200, 409])
  })
})

describe('attacks', () => {
  const body = { text: 'Domain\nneu.de\n', format: 'csv', prune: false, fingerprint: '' }

  test('without a session, every import route is refused', async () => {
    expect((await client.call('/domains-importieren')).status).toBe(303)
    for (const pathName of ['/api/import/preview', '/api/import/apply']) {
      expect(await answer(await client.call(pathName, { method: 'POST', body }))).toEqual({ status: 401, body: { error: 'Bitte anmelden.' } })
    }
  })

  test('from another site, or without the console header, nothing is imported', async () => {
    const refused = { status: 403, body: { error: 'Anfragen von anderen Websites werden nicht angenommen.' } }
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      expect(await answer(await post('/api/import/apply', body, headers))).toEqual(refused)
    }
    const withoutHeader = await fetch(`${client.admin}/api/import/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: client.admin, cookie },
      body: JSON.stringify(body),
    })
    expect(await answer(withoutHeader)).toEqual(refused)
    expect(fs.readFileSync(domainsFile, 'utf8')).not.toContain('neu.de')
  })

  test('a list over 10 MB is refused with its limit; a body over twice that before it is read', async () => {
    const big = `Domain\n${'a'.repeat(10 * 1024 * 1024)}\n`
    expect(await answer(await post('/api/import/preview', { ...body, text: big }))).toEqual({
      status: 413,
      body: { error: 'Die Datei ist größer als 10 MB. Größere Listen importiert npx domain-lander import auf dem Server.' },
    })
    // Refused by its Content-Length alone: the server answers before a byte of the body is read.
    const port = new URL(client.admin).port
    const huge = await rawRequest(
      Number(port),
      `POST /api/import/preview HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${client.admin}\r\n${CONSOLE_HEADER}: 1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: ${21 * 1024 * 1024}`,
    )
    expect([huge.status, JSON.parse(huge.body)]).toEqual([413, { error: 'Die Anfrage ist zu groß.' }])
  })

  test('a malformed request is a 400 with the one error shape', async () => {
    for (const bad of [{}, { text: 1, format: 'csv', prune: false }, { text: '', format: 'xml', prune: false }]) {
      expect(await answer(await post('/api/import/preview', bad))).toEqual({ status: 400, body: { error: 'Bitte eine CSV- oder JSON-Datei wählen.' } })
    }
  })

  test('names that are HTML or terminal escapes come back as data, named by their line', async () => {
    const report = await preview('Domain;Preis\n<script>alert(1)</script>.de;1\n"\u001b]0;pwned\u0007.de";2\n')
    expect(report.problems).toEqual([
      { kind: 'name', line: 2, value: '<script>alert(1)</script>.de' },
      { kind: 'name', line: 3, value: '\u001b]0;pwned\u0007.de' },
    ])
  })
})

test('without DOMAINS_FILE there is nothing to import into', async () => {
  const app = await startApp()
  try {
    const admin = app.app.admin!
    const store = await app.store()
    const { hashPassword } = await import('../../src/server/admin/password.ts')
    await store.setOwnerPassword(await hashPassword('Kanzlei-Rheinblick-2026'), Date.now())
    const signIn = await admin.inject({
      method: 'POST',
      url: '/api/session',
      headers: { [CONSOLE_HEADER]: '1' },
      payload: { password: 'Kanzlei-Rheinblick-2026' },
    })
    const session = signIn.headers['set-cookie']!.toString().split(';')[0]!
    const response = await admin.inject({
      method: 'POST',
      url: '/api/import/preview',
      headers: { [CONSOLE_HEADER]: '1', cookie: session },
      payload: { text: 'Domain\nneu.de\n', format: 'csv', prune: false },
    })
    expect([response.statusCode, response.json()]).toEqual([
      409,
      { error: 'Der Server hat keine Domains-Datei (DOMAINS_FILE): es gibt nichts, in das importiert werden kann.' },
    ])
  } finally {
    await app.close()
  }
})

describe('large and hostile lists (issue 12/19): refused with a reason, never a 500', () => {
  test('150,000 rows with errors: the preview names the first 500 with the whole count', async () => {
    const text = `Domain;Preis\n${Array.from({ length: 150_000 }, (_, i) => `kein name ${i};${i}`).join('\n')}\n`
    const report = await preview(text)
    expect(report.problems).toHaveLength(500)
    expect(report.problems[0]).toEqual({ kind: 'name', line: 2, value: 'kein name 0' })
    expect(report.counts.errors).toBe(150_000)
    const applied = await post('/api/import/apply', { text, format: 'csv', prune: false, fingerprint: report.fingerprint })
    expect(await answer(applied)).toEqual({ status: 422, body: { error: 'Die Liste hat Fehler; es wurde nichts geschrieben.' } })
  })

  test('a JSON list nested 5 million deep is unreadable, said so', async () => {
    const text = `[${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}]`
    const response = await post('/api/import/preview', { text, format: 'json', prune: false })
    expect(response.status).toBe(200)
    expect(((await response.json()) as ImportReport).problems).toEqual([
      { kind: 'syntax', line: null, message: 'lists and objects nested more than 100 levels deep' },
    ])
  })
})

describe('a result the server would not load', () => {
  // 31.99 MiB of comments (cheap to read and to load), then one name: a hundred more go over the 32 MiB limit.
  const BIG = `${`# ${'x'.repeat(1021)}\n`.repeat(32 * 1024 - 1)}domains:\n  a.de: {}\n`
  const bigDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-import-big-'))
  const bigFile = path.join(bigDir, 'domains.yaml')
  let big: ServerProcess
  let bigClient: ReturnType<typeof consoleClient>
  let bigCookie: string
  beforeAll(async () => {
    fs.writeFileSync(bigFile, BIG)
    big = await startServerProcess({ DOMAINS_FILE: bigFile })
    bigClient = consoleClient(big)
    expect((await bigClient.setPassword()).code).toBe(0)
    ;({ cookie: bigCookie } = await bigClient.signIn())
  })
  afterAll(async () => {
    await big?.stop()
    big?.cleanup()
    fs.rmSync(bigDir, { recursive: true, force: true })
  })

  test('is refused in the preview and by "Übernehmen", with the reason, and the file stays as it was', async () => {
    const text = `Domain;Preis\n${Array.from({ length: 100 }, (_, i) => `neu-${i}.de;${i}`).join('\n')}\n`
    const previewed = await bigClient.call('/api/import/preview', { method: 'POST', body: { text, format: 'csv', prune: false }, cookie: bigCookie })
    expect(previewed.status).toBe(200)
    const report = (await previewed.json()) as ImportReport
    const reason = `${bigFile} is 32.0 MiB; a domains file may have at most 32 MiB (see "Large portfolios" in docs/domains.md)`
    expect(report.problems).toEqual([{ kind: 'refused', message: reason }])
    expect(report.counts).toMatchObject({ errors: 1, added: 100 })
    const applied = await bigClient.call('/api/import/apply', {
      method: 'POST',
      body: { text, format: 'csv', prune: false, fingerprint: report.fingerprint },
      cookie: bigCookie,
    })
    expect(await answer(applied)).toEqual({
      status: 422,
      body: { error: `Der Server würde die Domains-Datei nach diesem Import nicht laden; es wurde nichts geschrieben. Grund: ${reason}` },
    })
    expect(fs.readFileSync(bigFile, 'utf8')).toBe(BIG)
    expect(fs.readdirSync(bigDir)).toEqual(['domains.yaml'])
    // The server still serves what it had.
    expect((await getPage(big.url, 'a.de')).status).toBe(200)
  })
})
