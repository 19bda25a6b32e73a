// The server's DNS worker against a DNS server that stalls (tests/helpers/drip.ts: one byte every 100 ms, forever, in
// front of a real Knot DNS), on the store of the test project: an exchange ends by its deadline, however the server
// drips, and the next zone's update goes through; a stop does not wait for the exchange in flight; drain sends what
// is due without the worker's timers.
import pino from 'pino'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startDripServer, type DripServer } from '../../../tests/helpers/drip.ts'
import { startKnot, type KnotServer } from '../../../tests/helpers/knot.ts'
import { openTestStore } from '../../../tests/helpers/store.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { DnsUpdateConfig } from './publish.ts'
import { createDnsWorker } from './worker.ts'

let knot: KnotServer
beforeAll(async () => {
  knot = await startKnot({ zones: { 'eins.test': '@ A 192.0.2.1\n', 'zwei.test': '@ A 192.0.2.2\n' } })
})
afterAll(() => knot?.close())

const FILE = domainsConfigOf({ domains: { 'eins.test': { price: 100 }, 'zwei.test': { price: 200 } } })

function worker(store: Awaited<ReturnType<typeof openTestStore>>, server: Pick<DripServer, 'host' | 'port'>, sendTimeoutMs?: number, file = FILE) {
  const settings: DnsUpdateConfig = {
    host: server.host,
    port: server.port,
    zones: ['eins.test', 'zwei.test'],
    key: { name: knot.keyName, secret: Buffer.from(knot.secret, 'base64') },
  }
  return createDnsWorker({
    store,
    settings,
    domains: () => file,
    sold: new Set<string>(),
    log: pino({ level: 'silent' }),
    owner: 'worker-test',
    leaseMs: 120_000,
    ...(sendTimeoutMs !== undefined && { sendTimeoutMs }),
  })
}

test('an exchange with a server that drips ends by its deadline, and the next zone’s update goes through', async () => {
  const store = await openTestStore()
  // The first exchange (eins.test's, queued first) stalls; the later ones reach Knot.
  const drip = await startDripServer({ stall: 1, forwardTo: { host: knot.host, port: knot.port } })
  const dns = worker(store, drip, 300)
  try {
    dns.start()
    await expect.poll(() => knot.txt('_for-sale.zwei.test')).toEqual(['"v=FORSALE1;furi=https://zwei.test/"', '"v=FORSALE1;fval=EUR200"'])
    // Cut off at its deadline, not kept open by the bytes that kept coming; counted as an attempt, to be retried.
    await expect.poll(() => drip.closedAfterMs.length).toBe(1)
    expect(drip.closedAfterMs[0]).toBeLessThan(3000)
    // Retried with the outbox's backoff, through to Knot this time.
    await expect.poll(() => knot.txt('_for-sale.eins.test')).toEqual(['"v=FORSALE1;furi=https://eins.test/"', '"v=FORSALE1;fval=EUR100"'])
    await expect.poll(() => store.listDnsUpdates(['pending', 'failed'])).toEqual([])
  } finally {
    await dns.stop()
    await drip.close()
  }
})

test('stopping the worker cuts the exchange in flight off instead of waiting for it', async () => {
  const store = await openTestStore()
  const drip = await startDripServer()
  // The deadline is far off: only the stop can end the exchange in time.
  const dns = worker(store, drip, 60_000)
  dns.start()
  await expect.poll(() => drip.open).toBe(1)
  const stopping = Date.now()
  await dns.stop()
  expect(Date.now() - stopping).toBeLessThan(2000)
  // Closed by the worker, not left to the server.
  await expect.poll(() => drip.open).toBe(0)
  await drip.close()
  // Not sent: still pending, with why, for the next start.
  expect(await store.listDnsUpdates(['pending'])).toEqual(
    expect.arrayContaining([expect.objectContaining({ zone: 'eins.test', attempts: 1, lastError: 'cut off: the server is shutting down' })]),
  )
})

test('drain queues what changed and sends the updates due now, before start and without its timers', async () => {
  const store = await openTestStore()
  // New prices, so that Knot's records show this worker's updates and not the earlier tests'.
  const file = domainsConfigOf({ domains: { 'eins.test': { price: 300 }, 'zwei.test': { price: 400 } } })
  const dns = worker(store, knot, undefined, file)
  try {
    await dns.drain()
    expect(await knot.txt('_for-sale.eins.test')).toEqual(['"v=FORSALE1;furi=https://eins.test/"', '"v=FORSALE1;fval=EUR300"'])
    expect(await knot.txt('_for-sale.zwei.test')).toEqual(['"v=FORSALE1;furi=https://zwei.test/"', '"v=FORSALE1;fval=EUR400"'])
    expect(await store.listDnsUpdates(['pending', 'failed'])).toEqual([])
  } finally {
    await dns.stop()
  }
})
