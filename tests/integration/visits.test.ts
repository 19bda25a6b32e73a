// Who counts as a visitor of a page, through the whole app (decision 049): the client's address, or the address the
// owner's proxy names (TRUST_PROXY), never what the client says about itself. Answered in process; the counts are
// written when the app closes, and read from its store as the Übersicht reads them.
import fs from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import { domainsConfigOf } from '../../src/server/sites/domains-document.ts'
import { visitorStats } from '../../src/server/visits/report.ts'
import { buildTestApp, tempDataDir } from '../helpers/app.ts'
import { browserHeaders } from '../helpers/contact.ts'
import { databaseUrlFor } from '../helpers/postgres.ts'
import { openTestStore } from '../helpers/store.ts'

let dataDir: string | undefined
afterEach(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  dataDir = undefined
})

const domains = { current: () => domainsConfigOf({ domains: { 'example.de': { price: 60000 } } }), fromFile: false }

/** Loads example.de's page once per entry of `clients` (an address and the browser it claims), then what the Übersicht would show. */
async function visitorsAfter(env: Record<string, string>, clients: { address: string; n: number }[]) {
  dataDir = tempDataDir()
  const app = await buildTestApp({ ...env, DATA_DIR: dataDir })
  for (const { address, n } of clients) {
    // Behind a proxy the socket is the proxy's (loopback), and the client is the address it forwards.
    const via = env.TRUST_PROXY ? { headers: { ...browserHeaders(n), 'x-forwarded-for': address } } : { headers: browserHeaders(n), remoteAddress: address }
    expect((await app.requestAs('example.de', `${app.url}/`, via)).status).toBe(200)
  }
  await app.close()
  const store = await openTestStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  const stats = await visitorStats({ store, domains }, { days: 1 })
  return { visitors: stats.names.find((name) => name.domainAscii === 'example.de')?.visitors, hints: stats.hints.map((hint) => hint.kind) }
}

/** 300 loads from `address`, each with another User-Agent, and one from 198.51.100.2. */
const rotating = (address: string) => [...Array.from({ length: 300 }, (_, n) => ({ address, n })), { address: '198.51.100.2', n: 0 }]

test('300 loads from one address with 300 User-Agents are one visitor, another address another, and the Übersicht hints at nothing', async () => {
  expect(await visitorsAfter({}, rotating('203.0.113.7'))).toEqual({ visitors: 2, hints: [] })
})

test('one IPv6 network of RATE_LIMIT_IPV6_PREFIX is one visitor, whatever address in it and User-Agent it sends', async () => {
  const clients = Array.from({ length: 300 }, (_, n) => ({ address: `2001:db8:5:7::${(n + 1).toString(16)}`, n }))
  expect(await visitorsAfter({ RATE_LIMIT_IPV6_PREFIX: '64' }, [...clients, { address: '2001:db8:5:8::1', n: 0 }])).toEqual({ visitors: 2, hints: [] })
})

test("behind TRUST_PROXY the proxy's client address is the visitor: one per address whatever User-Agent it sends", async () => {
  expect(await visitorsAfter({ TRUST_PROXY: '1' }, rotating('203.0.113.7'))).toEqual({ visitors: 2, hints: [] })
})
