// The daily checks as the server runs them, on each store, against the outside world on loopback (a DNS server, an
// RDAP server) with a fixed clock: results stored, and the owner's webhook, a real HTTP server, told once per change
// of state, signed, not on every check.
import { createHmac } from 'node:crypto'
import { Resolver } from 'node:dns/promises'
import pino from 'pino'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CheckOptions } from '../../src/server/domain-checks/check.ts'
import { bootstrapHolder, domainCheckJob, runDomainChecks } from '../../src/server/domain-checks/job.ts'
import { createScheduler } from '../../src/server/scheduler/scheduler.ts'
import { createNoticeSender } from '../../src/server/domain-checks/notices.ts'
import { retryDelay } from '../../src/server/mail/outbox.ts'
import { readBootstrap, type RdapBootstrap } from '../../src/server/domain-checks/rdap.ts'
import type { ForSaleDomain } from '../../src/server/dns/for-sale.ts'
import { startDnsServer, type DnsServer } from '../helpers/dns.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'
import { openTestStore } from '../helpers/store.ts'

const NOW = Date.parse('2026-11-26T08:00:00Z')
const DAY = 86_400_000
const SECRET = 'ein-geheimnis-fuer-die-webhooks-der-tests-32'

const listed = (ascii: string): ForSaleDomain => ({
  domain: ascii,
  ascii,
  status: 'available',
  expected: { furi: `https://${ascii}/`, fval: null },
  records: [`v=FORSALE1;furi=https://${ascii}/`],
})
const furi = (ascii: string) => ({ owner: `_for-sale.${ascii}`, ttl: 3600, strings: [Buffer.from(`v=FORSALE1;furi=https://${ascii}/`)] })

let dns: DnsServer
let rdap: Receiver
let hook: Receiver
let bootstrap: RdapBootstrap

beforeAll(async () => {
  dns = await startDnsServer([
    { owner: 'hier.test', ttl: 60, type: 'A', data: '192.0.2.10' },
    furi('hier.test'),
    { owner: 'anderswo.test', ttl: 60, type: 'A', data: '198.51.100.7' },
    furi('anderswo.test'),
    { owner: 'bald.test', ttl: 60, type: 'A', data: '192.0.2.10' },
    furi('bald.test'),
  ])
  rdap = await startReceiver()
  rdap.answer = (request) => {
    // IANA's newer bootstrap file, as the job fetches it: this server is the registry of .test.
    if (request.url === '/dns.json') return { status: 200, body: JSON.stringify({ publication: '2026-11-20T00:00:00Z', services: [[['test'], [rdap.url]]] }) }
    const name = request.url.replace('/domain/', '')
    const expires = name === 'bald.test' ? new Date(NOW + 10 * DAY).toISOString() : '2027-09-01T00:00:00Z'
    return { status: 200, body: JSON.stringify({ events: [{ eventAction: 'expiration', eventDate: expires }] }) }
  }
  hook = await startReceiver()
  bootstrap = readBootstrap({ publication: '2026-11-01T00:00:00Z', services: [[['test'], [rdap.url]]] })!
})
afterAll(async () => {
  await dns?.close()
  await rdap?.close()
  await hook?.close()
})

function checks(): Omit<CheckOptions, 'bootstrap' | 'now'> {
  const resolver = new Resolver({ timeout: 1000, tries: 1 })
  resolver.setServers([dns.address])
  return { resolver, serverAddresses: ['192.0.2.10'], http: null, rdapTimeoutMs: 2000, concurrency: 4, allowLoopback: true }
}

test('a name pointing elsewhere and one expiring in 10 days are each notified once, signed, and stay in the list', async () => {
  const store = await openTestStore()
  const names = [listed('hier.test'), listed('anderswo.test'), listed('bald.test')]
  const run = (at: number) => runDomainChecks({ store, listed: names, checks: checks(), bootstrap: () => bootstrap, now: () => at, notify: () => [hook.url] })

  expect((await run(NOW)).changes).toBe(2)
  expect((await run(NOW + DAY)).changes).toBe(0)
  const sender = createNoticeSender({
    store,
    log: pino({ level: 'silent' }),
    owner: 'test',
    leaseMs: 30_000,
    secret: SECRET,
    consoleUrl: () => 'https://konsole.example',
  })
  sender.start()
  try {
    const received = await hook.waitFor(2)
    const bodies = received.map((request) => JSON.parse(request.body) as Record<string, unknown>).sort((a, b) => String(a.event).localeCompare(String(b.event)))
    expect(bodies).toEqual([
      {
        event: 'domain.expiring',
        delivery: expect.stringMatching(/^domain-\d+$/),
        domain: 'bald.test',
        domainUnicode: 'bald.test',
        time: new Date(NOW).toISOString(),
        expiresAt: new Date(NOW + 10 * DAY).toISOString(),
        console: 'https://konsole.example/domains',
      },
      {
        event: 'domain.unreachable',
        delivery: expect.stringMatching(/^domain-\d+$/),
        domain: 'anderswo.test',
        domainUnicode: 'anderswo.test',
        time: new Date(NOW).toISOString(),
        pointsTo: '198.51.100.7',
        expiresAt: '2027-09-01T00:00:00.000Z',
        console: 'https://konsole.example/domains',
      },
    ])
    for (const request of received) {
      const [t, v1] = String(request.headers['x-domain-lander-signature'])
        .split(',')
        .map((part) => part.split('=')[1])
      expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${request.body}`).digest('hex'))
      expect(request.headers['x-domain-lander-delivery']).toBe(JSON.parse(request.body).delivery)
    }
  } finally {
    await sender.stop()
  }
  // The third day: nothing new. The name pointing elsewhere is still in the store's list, with its state.
  expect((await run(NOW + 2 * DAY)).changes).toBe(0)
  expect((await store.domainChecks()).map((check) => [check.domain, check.pointing, check.expiresAt])).toEqual([
    ['anderswo.test', 'elsewhere', Date.parse('2027-09-01T00:00:00Z')],
    ['bald.test', 'here', NOW + 10 * DAY],
    ['hier.test', 'here', Date.parse('2027-09-01T00:00:00Z')],
  ])
  expect(await store.listDomainNotices(['pending', 'failed'])).toEqual([])
  expect(hook.requests).toHaveLength(2)
})

test('a receiver that is down gets the notification later, with the same delivery id', async () => {
  const store = await openTestStore()
  await runDomainChecks({ store, listed: [listed('anderswo.test')], checks: checks(), bootstrap: () => bootstrap, now: () => NOW, notify: () => [hook.url] })
  const before = hook.requests.length
  let refuse = true
  hook.answer = () => (refuse ? { status: 503, body: 'später' } : { status: 200, body: 'ok' })
  // On a clock the test holds, sent by drain: the first attempt, and no retry before the clock says it is due.
  let clock = () => NOW
  const sender = createNoticeSender({
    store,
    log: pino({ level: 'silent' }),
    owner: 'test',
    leaseMs: 30_000,
    secret: SECRET,
    consoleUrl: () => null,
    now: () => clock(),
  })
  try {
    await sender.drain()
    const [first] = hook.requests.slice(before)
    expect(first).toBeDefined()
    expect(await store.listDomainNotices(['pending'])).toEqual([expect.objectContaining({ lastError: 'HTTP 503 Service Unavailable', attempts: 1 })])
    refuse = false
    await sender.drain()
    expect(hook.requests).toHaveLength(before + 1)
    // The sender's own timer takes the retry: the clock runs on from half a second before it is due.
    const from = Date.now()
    clock = () => NOW + retryDelay(1) - 500 + (Date.now() - from)
    sender.start()
    const [, second] = (await hook.waitFor(before + 2)).slice(before)
    expect(JSON.parse(second!.body).delivery).toBe(JSON.parse(first!.body).delivery)
    // Marked sent once its answer is read, a moment after the receiver has it.
    await expect.poll(() => store.listDomainNotices(['pending'])).toEqual([])
  } finally {
    hook.answer = () => ({ status: 200, body: 'ok' })
    await sender.stop()
  }
})

test("the hourly job on the scheduler takes IANA's newer bootstrap file, checks a slice of the due names and sends what changed", async () => {
  const store = await openTestStore()
  const log = pino({ level: 'silent' })
  const names = [listed('hier.test'), listed('anderswo.test'), listed('bald.test')]
  const scheduler = createScheduler({ store, log, owner: 'test' })
  let queued = 0
  const bootstrap = bootstrapHolder({ url: new URL(`${rdap.url}/dns.json`), allowLoopback: true })
  scheduler.add(domainCheckJob({ store, listed: () => names, checks: checks(), bootstrap, notify: () => [], queued: () => queued++, log }))
  try {
    expect(await scheduler.runDue(NOW)).toEqual([{ job: 'domain-checks', period: new Date(NOW).toISOString(), result: 'done' }])
    // A 24th of 3 names, twice over: 2 this hour, the third in the next.
    expect(bootstrap.current().publication).toBe('2026-11-20T00:00:00Z')
    const checks = await store.domainChecks()
    expect(checks.map((check) => check.domain)).toEqual(['anderswo.test', 'hier.test'])
    // The run's clock starts at runDue's time and moves on in real time.
    for (const check of checks) expect(check).toMatchObject({ expiry: 'known', checkedAt: expect.toSatisfy((at: number) => at >= NOW && at < NOW + 60_000) })
    expect(queued).toBe(1)
  } finally {
    await scheduler.stop()
  }
})
