// The _for-sale records written to a real authoritative server (Knot DNS on loopback) by RFC 2136 update with a TSIG
// key: `dns publish`, then the server keeping them in step (a new price, a sale, a name removed, the DNS server down
// and up again, shown in the Postausgang), on SQLite and on PostgreSQL. Nothing but those records ever changes.
import fs from 'node:fs'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { removeTestFiles, replaceFile, writeTestFile } from '../helpers/domains.ts'
import { startKnot, type KnotServer } from '../helpers/knot.ts'
import { databaseUrlFor, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { newInquiry } from '../helpers/store.ts'
import { openStore } from '../../src/server/store/index.ts'
import type { OutboxPage } from '../../src/shared/console-api.ts'

const ZONES = {
  'beispiel.test': `@ A 192.0.2.1
www A 192.0.2.2
shop A 192.0.2.3
@ MX 10 mail.beispiel.test.
@ TXT "v=spf1 -all"
_dmarc TXT "v=DMARC1; p=reject"
_for-sale.www TXT "v=FORSALE1;fcod=von-hand"
`,
  'zweite.test': `@ A 192.0.2.9
`,
}

const domainsFile = (price: number, shop = true) => `
domains:
  beispiel.test:
    price: ${price}
${shop ? '  shop.beispiel.test:\n    price: 900\n' : ''}  zweite.test:
    price: 1500
  versteckt.beispiel.test:
    listed: false
  fremd.example:
    price: 100
`

const FURI = (name: string) => `"v=FORSALE1;furi=https://${name}/"`

let knot: KnotServer
let dataDir: string
let file: string
let env: Record<string, string>
let server: ServerProcess | undefined
/** Every record of both zones but the _for-sale records of the names in the file, as first loaded. */
let untouched: string[]

const OUR_NAMES = /^_for-sale\.(beispiel\.test|shop\.beispiel\.test|zweite\.test|versteckt\.beispiel\.test)\. /
const others = () => [...knot.zone('beispiel.test'), ...knot.zone('zweite.test')].filter((line) => !OUR_NAMES.test(line))

beforeAll(async () => {
  // The key scoped as docs/dns.md advises: what the server sends must pass it.
  knot = await startKnot({ zones: ZONES, updateOwners: ['_for-sale', '_for-sale.shop', '_for-sale.versteckt'] })
  untouched = others()
  dataDir = tempDataDir()
  file = writeTestFile(domainsFile(4900))
  env = {
    DOMAINS_FILE: file,
    DNS_UPDATE_SERVER: `${knot.host}:${knot.port}`,
    DNS_UPDATE_ZONES: 'beispiel.test,zweite.test',
    DNS_UPDATE_KEY_NAME: 'lander-key',
    DNS_UPDATE_KEY_SECRET: knot.secret,
    ...(await storeEnv(dataDir)),
  }
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await knot?.close()
  removeTestFiles()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

test('dns publish --dry-run shows the updates in nsupdate’s words and sends nothing', async () => {
  const before = knot.zone('beispiel.test')
  const { code, out } = await runCli(dataDir, env, 'dns', 'publish', '--dry-run')
  expect(code).toBe(0)
  expect(out.trim().split('\n')).toEqual([
    'zone beispiel.test.',
    'update delete _for-sale.beispiel.test. TXT',
    `update add _for-sale.beispiel.test. 3600 TXT ${FURI('beispiel.test')}`,
    'update add _for-sale.beispiel.test. 3600 TXT "v=FORSALE1;fval=EUR4900"',
    'update delete _for-sale.shop.beispiel.test. TXT',
    `update add _for-sale.shop.beispiel.test. 3600 TXT ${FURI('shop.beispiel.test')}`,
    'update add _for-sale.shop.beispiel.test. 3600 TXT "v=FORSALE1;fval=EUR900"',
    'update delete _for-sale.versteckt.beispiel.test. TXT',
    'send',
    'zone zweite.test.',
    'update delete _for-sale.zweite.test. TXT',
    `update add _for-sale.zweite.test. 3600 TXT ${FURI('zweite.test')}`,
    'update add _for-sale.zweite.test. 3600 TXT "v=FORSALE1;fval=EUR1500"',
    'send',
    'skipped fremd.example: in none of DNS_UPDATE_ZONES',
  ])
  expect(knot.zone('beispiel.test')).toEqual(before)
})

test('a wrong key is refused, and nothing changes', async () => {
  const before = [...knot.zone('beispiel.test'), ...knot.zone('zweite.test')]
  const { code, out } = await runCli(dataDir, { ...env, DNS_UPDATE_KEY_SECRET: Buffer.alloc(32, 1).toString('base64') }, 'dns', 'publish')
  expect(code).toBe(1)
  expect(out).toContain('beispiel.test: not updated: the DNS server answered NOTAUTH (BADSIG)')
  expect(out).toContain('zweite.test: not updated: the DNS server answered NOTAUTH (BADSIG)')
  expect([...knot.zone('beispiel.test'), ...knot.zone('zweite.test')]).toEqual(before)
})

test('dns publish writes each zone’s records with one update; dns check finds them in order; nothing else changes', async () => {
  const { code, out } = await runCli(dataDir, env, 'dns', 'publish')
  expect(code).toBe(0)
  expect(out).toContain('beispiel.test: updated (4 records for 3 names)')
  expect(out).toContain('zweite.test: updated (2 records for 1 name)')
  expect(knot.txt('_for-sale.beispiel.test')).toEqual([FURI('beispiel.test'), '"v=FORSALE1;fval=EUR4900"'])
  expect(knot.txt('_for-sale.shop.beispiel.test')).toEqual([FURI('shop.beispiel.test'), '"v=FORSALE1;fval=EUR900"'])
  expect(knot.txt('_for-sale.versteckt.beispiel.test')).toEqual([])
  expect(others()).toEqual(untouched)
  const check = await runCli(dataDir, env, 'dns', 'check', '--resolver', `${knot.host}:${knot.port}`, '--domain', 'beispiel.test')
  expect(check.out).toContain('All 1 domains are in order.')
})

test('the server keeps the records in step: a new price, a sale, a name removed; never anything else', async () => {
  server = await startServerProcess({ ...env, DATA_DIR: dataDir })
  // What dns publish wrote is what the server finds in force: it queues nothing for it.
  replaceFile(file, domainsFile(3900))
  await expect.poll(() => knot.txt('_for-sale.beispiel.test')).toEqual([FURI('beispiel.test'), '"v=FORSALE1;fval=EUR3900"'])
  expect(knot.txt('_for-sale.shop.beispiel.test')).toEqual([FURI('shop.beispiel.test'), '"v=FORSALE1;fval=EUR900"'])

  // Sold through a deal (in the store, as another process would): the records go.
  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  try {
    const saved = await store.saveInquiry(newInquiry({ domain: 'zweite.test', offer: { amount: 1500, currency: 'EUR' } }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const now = Date.now()
    const accepted = await store.accept(saved.id, {
      body: 'Angenommen',
      to: 'erika@example.de',
      replyTo: 'owner@example.org',
      now,
      amount: 1500,
      deal: { linkHash: 'dns-publish-hash', linkSealed: 'v1.x', amount: 150_000, currency: 'EUR', paymentDueAt: now + 86_400_000, transferDays: 5 },
    })
    const dealId = (accepted as { dealId: number }).dealId
    expect((await store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'paid', now, paidAt: now })).status).toBe('done')
    expect((await store.changeDeal(dealId, { from: ['paid'], to: 'completed', now, completedAt: now })).status).toBe('done')
  } finally {
    await store.close()
  }
  await expect.poll(() => knot.txt('_for-sale.zweite.test')).toEqual([])

  // Removed from the file: its records go too.
  replaceFile(file, domainsFile(3900, false))
  await expect.poll(() => knot.txt('_for-sale.shop.beispiel.test')).toEqual([])
  expect(knot.txt('_for-sale.beispiel.test')).toEqual([FURI('beispiel.test'), '"v=FORSALE1;fval=EUR3900"'])
  expect(others()).toEqual(untouched)
})

test('with the DNS server down the update waits in the Postausgang and goes out once it is back', async () => {
  const { call, setPassword, signIn } = consoleClient(server!)
  expect((await setPassword()).code).toBe(0)
  const { cookie } = await signIn()
  const dnsRows = async () => ((await (await call('/api/outbox', { cookie })).json()) as OutboxPage).items.filter((row) => row.kind === 'dns')

  await knot.stop()
  try {
    replaceFile(file, domainsFile(2900, false))
    await expect.poll(dnsRows).toEqual([
      expect.objectContaining({
        inquiryId: null,
        domain: 'beispiel.test',
        target: `${knot.host}:${knot.port}`,
        status: 'pending',
        lastError: 'the DNS server cannot be reached (ECONNREFUSED)',
      }),
    ])
    const [row] = await dnsRows()
    // The console's rules hold for it as for mail: a session, and the console's own page.
    expect((await call(`/api/outbox/dns/${row!.id}/resend`, { method: 'POST' })).status).toBe(401)
    expect((await call(`/api/outbox/dns/${row!.id}/resend`, { method: 'POST', cookie, headers: { origin: 'https://evil.example' } })).status).toBe(403)
    // "Erneut senden" with a session from the console's own page: queued again.
    expect((await call(`/api/outbox/dns/${row!.id}/resend`, { method: 'POST', cookie })).status).toBe(200)
  } finally {
    await knot.start()
  }
  await expect.poll(() => knot.txt('_for-sale.beispiel.test'), { timeout: 25_000 }).toEqual([FURI('beispiel.test'), '"v=FORSALE1;fval=EUR2900"'])
  await expect.poll(dnsRows).toEqual([])
  expect(others()).toEqual(untouched)
  expect(server!.output.join('\n')).not.toContain(knot.secret)
})
