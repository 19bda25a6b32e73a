// Edits of the domains file with three instances on one PostgreSQL database, each on a machine of its own (its own
// DATA_DIR and its own copy of the domains file): an edit made in the console of one, or with the CLI beside
// another, is in force on all three within seconds, without anyone copying a file; two edits made at the same moment
// on two instances are never both taken, and every file ends the same (decision 044). (Project "postgres" only.)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import type { DomainsEditReport } from '../../src/shared/domains-api.ts'
import { tempDataDir } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { getPage } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const DOMAINS = '# Eine Kopie je Maschine\nunknownHosts: not-found\ndomains:\n  geteilt.de:\n    price: 1000 # Startpreis\n  zweite.de: {price: 2000}\n'

let instances: ServerProcess[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const instance of instances) {
    await instance.stop()
    instance.cleanup()
  }
  instances = []
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function machine(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domains-instance-'))
  dirs.push(dir)
  const file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, DOMAINS)
  return file
}

test('an edit on one instance is in force on all three within seconds, and one from the CLI too', async () => {
  const shared = tempDataDir()
  const { DATABASE_URL } = await storeEnv(shared)
  const files = [machine(), machine(), machine()]
  instances = await Promise.all(files.map((file) => startServerProcess({ DATABASE_URL: DATABASE_URL!, DOMAINS_FILE: file })))
  const client = consoleClient(instances[0]!)
  expect((await client.setPassword(undefined, shared)).code).toBe(0)
  const { cookie } = await client.signIn()

  const edits = [{ op: 'set', name: 'geteilt.de', changes: { price: 5900, status: 'reserved' } }]
  const preview = (await (await client.call('/api/domains/preview', { method: 'POST', body: { edits }, cookie })).json()) as DomainsEditReport
  const saved = await client.call('/api/domains/apply', { method: 'POST', body: { edits, fingerprint: preview.fingerprint }, cookie })
  expect(saved.status, await saved.clone().text()).toBe(200)
  const started = Date.now()
  const edited = DOMAINS.replace('    price: 1000 # Startpreis\n', '    price: 5900 # Startpreis\n    status: reserved\n')
  for (const instance of instances) {
    await expect.poll(async () => (await getPage(instance.url, 'geteilt.de')).html, { timeout: 10_000, interval: 200 }).toMatch(/reserviert/)
  }
  // From the owner's "Gespeichert": a round of 2 s, the edit and the reload; on this shared 2-core machine a few seconds.
  expect((Date.now() - started) / 1000).toBeLessThan(8)
  for (const file of files) expect(fs.readFileSync(file, 'utf8')).toBe(edited)

  // The CLI beside the third instance, with its DATABASE_URL: the other two take it in.
  const cli = await runCli(tempDataDir(), { DATABASE_URL: DATABASE_URL!, DOMAINS_FILE: files[2]! }, 'domains', 'add', 'neu-per-cli.de', 'price=300')
  expect([cli.code, cli.err]).toEqual([0, ''])
  for (const instance of instances)
    await expect.poll(async () => (await getPage(instance.url, 'neu-per-cli.de')).status, { timeout: 10_000, interval: 200 }).toBe(200)
  for (const file of files) expect(fs.readFileSync(file, 'utf8')).toBe(`${edited}  neu-per-cli.de:\n    price: 300\n`)
}, 120_000)

test('two edits saved at the same moment on two instances: one is taken, the other refused (409), and all files end the same', async () => {
  const shared = tempDataDir()
  const { DATABASE_URL } = await storeEnv(shared)
  const files = [machine(), machine(), machine()]
  instances = await Promise.all(files.map((file) => startServerProcess({ DATABASE_URL: DATABASE_URL!, DOMAINS_FILE: file })))
  const clients = instances.slice(0, 2).map((instance) => consoleClient(instance))
  expect((await clients[0]!.setPassword(undefined, shared)).code).toBe(0)
  const cookies = await Promise.all(clients.map(async (client) => (await client.signIn()).cookie))
  const edits = [[{ op: 'set', name: 'zweite.de', changes: { price: 1111 } }], [{ op: 'set', name: 'zweite.de', changes: { price: 2222 } }]]
  const previews = await Promise.all(
    clients.map(
      async (client, i) =>
        (await (await client.call('/api/domains/preview', { method: 'POST', body: { edits: edits[i] }, cookie: cookies[i] })).json()) as DomainsEditReport,
    ),
  )
  const answers = await Promise.all(
    clients.map((client, i) =>
      client.call('/api/domains/apply', { method: 'POST', body: { edits: edits[i], fingerprint: previews[i]!.fingerprint }, cookie: cookies[i] }),
    ),
  )
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
  const price = answers[0]!.status === 200 ? 1111 : 2222
  const expected = DOMAINS.replace('zweite.de: {price: 2000}', `zweite.de: {price: ${price}}`)
  for (const file of files) await expect.poll(() => fs.readFileSync(file, 'utf8'), { timeout: 10_000, interval: 200 }).toBe(expected)
}, 120_000)
