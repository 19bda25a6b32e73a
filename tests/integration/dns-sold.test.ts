// `dns` and `dns check` with a name sold through a deal (in the store, not in the domains file): it gets no records,
// and its published _for-sale record is reported as one to remove, on SQLite and on PostgreSQL.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { parseZoneTxt, startDnsServer, type DnsServer } from '../helpers/dns.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { databaseUrlFor, storeEnv } from '../helpers/postgres.ts'
import { newInquiry } from '../helpers/store.ts'
import { openStore } from '../../src/server/store/index.ts'

const DOMAINS = `
domains:
  verkauft.de:
    price: 4900
  frei.de:
    price: 900
`

let dataDir: string
let env: Record<string, string>
let server: DnsServer | undefined

beforeAll(async () => {
  dataDir = tempDataDir()
  env = { DOMAINS_FILE: writeTestFile(DOMAINS), ...(await storeEnv(dataDir)) }
  // Before any sale: both names get records; these are what the owner published.
  const before = await runCli(dataDir, env, 'dns', '--format', 'zone')
  expect(before.code).toBe(0)
  const zone = parseZoneTxt(before.out)
  expect(zone.map((record) => record.owner)).toContain('_for-sale.verkauft.de.')
  server = await startDnsServer(zone)

  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  const saved = await store.saveInquiry(newInquiry({ domain: 'verkauft.de', offer: { amount: 4900, currency: 'EUR' } }), { queue: false })
  if (saved.status !== 'created') throw new Error('not created')
  const accepted = await store.accept(saved.id, {
    body: 'Angenommen',
    to: 'erika@example.de',
    replyTo: 'owner@example.org',
    now: Date.now(),
    amount: 4900,
    deal: { linkHash: 'dns-sold-hash', linkSealed: 'v1.x', amount: 490_000, currency: 'EUR', paymentDueAt: Date.now() + 86_400_000, transferDays: 5 },
  })
  const dealId = (accepted as { dealId: number }).dealId
  expect((await store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'paid', now: Date.now(), paidAt: Date.now() })).status).toBe('done')
  expect((await store.changeDeal(dealId, { from: ['paid'], to: 'completed', now: Date.now(), completedAt: Date.now() })).status).toBe('done')
  await store.close()
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
})

test('dns leaves a name sold through a deal out and says so', async () => {
  const { code, out } = await runCli(dataDir, env, 'dns', '--format', 'json')
  expect(code).toBe(0)
  const listing = JSON.parse(out) as { domains: { domain: string }[]; skipped: { domain: string; reason: string }[] }
  expect(listing.domains.map(({ domain }) => domain)).toEqual(['frei.de'])
  expect(listing.skipped).toEqual([{ domain: 'verkauft.de', reason: 'sold: no records (remove any that are published)' }])
})

test('dns check reports the sold name’s published record as left over', async () => {
  const { code, out } = await runCli(dataDir, env, 'dns', 'check', '--resolver', server!.address)
  expect(code).toBe(1)
  const rows = out.split('\n').map((line) => line.split(/\s{2,}/))
  const state = (domain: string) => rows.filter((row) => row[0] === domain).map((row) => row.slice(1).join(' | '))
  expect(state('verkauft.de')).toEqual(['left over | sold, but 2 _for-sale records remain'])
  expect(state('frei.de')).toEqual(['ok'])
})
