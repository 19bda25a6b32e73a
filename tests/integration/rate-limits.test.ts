// Rate limits as an attacker would test them: a burst of concurrent submissions, a forged X-Forwarded-For behind a
// proxy, and one IPv6 network posing as many clients. What the app answers is tested in process (the client's
// address is the X-Forwarded-For a test sends, believed by TRUST_PROXY, or inject's 127.0.0.1); a cluster of two
// workers that count on one store needs the real server process.
import { afterEach, describe, expect, test } from 'vitest'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { VISITOR, fetchForm, postContact, submitInquiry, type Fetch } from '../helpers/contact.ts'
import { queryStore } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

let server: ServerProcess | undefined
let inProcess: InProcessApp | undefined
afterEach(async () => {
  await server?.kill()
  server?.cleanup()
  await inProcess?.close()
  server = inProcess = undefined
})

/** The server a test talks to: the app in process (its `fetch` goes through inject), or a process (fetch()). */
type Target = { url: string; dataDir: string; fetch?: Fetch }

async function build(env: Record<string, string>) {
  inProcess = await buildTestApp(env)
  return inProcess
}

const readyWorkers = (s: ServerProcess) => s.output.filter((line) => line.includes('"msg":"domain-lander is ready')).length

/** `count` visits that each fetched the page first, all posting at the same moment. */
async function burst({ url, fetch: send = fetch }: Target, count: number): Promise<number[]> {
  const forms = await Promise.all(Array.from({ length: count }, () => fetchForm(url, undefined, {}, send)))
  const responses = await Promise.all(
    forms.map(({ token, hash }, i) => postContact(url, { ...VISITOR, message: `Nachricht ${i}`, token, hash }, {}, '/api/contact', send)),
  )
  return Promise.all(responses.map(async (response) => (await response.body?.cancel(), response.status)))
}

async function storedInquiries(target: Target): Promise<number> {
  const [row] = await queryStore<{ n: number | string }>(target.dataDir, 'SELECT COUNT(*) AS n FROM inquiries')
  return Number(row!.n)
}

/** `count` submissions, one after the other, each with the X-Forwarded-For the proxy in front would pass on. */
let visits = 0
async function statusesVia({ url, fetch: send }: Target, forwardedFor: (i: number) => string, count: number): Promise<number[]> {
  const statuses: number[] = []
  // Each with a message of its own: the same token and content again would be a repeat, answered as taken.
  for (let i = 0; i < count; i++) {
    statuses.push((await submitInquiry(url, { message: `Anfrage ${++visits}` }, { 'x-forwarded-for': forwardedFor(i) }, send)).status)
  }
  return statuses
}

const accepted = (statuses: number[]) => statuses.filter((status) => status === 200).length

describe('a burst of concurrent submissions', () => {
  test('100 concurrent submissions from one address with CONTACT_RATE_LIMIT=10 get at most 10 answers 200', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '10' })
    const statuses = await burst(app, 100)
    expect(accepted(statuses)).toBeLessThanOrEqual(10)
    expect(accepted(statuses)).toBeGreaterThanOrEqual(1)
    // The rest are refused; a store too busy to count in time says "try again" (503), never anything else.
    expect(statuses.filter((status) => ![200, 429, 503].includes(status))).toEqual([])
    expect(await storedInquiries(app)).toBe(accepted(statuses))
  }, 60_000)

  test('two workers on one store also give at most 10 answers 200 to a burst of 100', async () => {
    server = await startServerProcess({ WORKERS: '2', CONTACT_RATE_LIMIT: '10' })
    await expect.poll(() => readyWorkers(server!), { timeout: 20_000 }).toBe(2)
    const statuses = await burst(server, 100)
    expect(accepted(statuses)).toBeLessThanOrEqual(10)
    expect(accepted(statuses)).toBeGreaterThanOrEqual(1)
    expect(statuses.filter((status) => ![200, 429, 503].includes(status))).toEqual([])
    expect(await storedInquiries(server)).toBe(accepted(statuses))
  }, 60_000)

  test('a submission that stores nothing gives its count back', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '2' })
    const { url, fetch: send } = app
    const first = await submitInquiry(url, {}, {}, send)
    expect(first.status).toBe(200)
    // The same token and content again (its answer got lost) stores nothing, so it uses up nothing. Each later
    // inquiry says something else: pages served in the same second share a token (decision 055).
    expect((await postContact(url, first.sent, {}, '/api/contact', send)).status).toBe(200)
    expect((await submitInquiry(url, { message: 'Die zweite Anfrage' }, {}, send)).status).toBe(200)
    expect((await submitInquiry(url, { message: 'Die dritte Anfrage' }, {}, send)).status).toBe(429)
    // At the limit, the repeated submission still gets its 200; the same token with other content is an inquiry
    // of its own, refused like any other.
    expect((await postContact(url, first.sent, {}, '/api/contact', send)).status).toBe(200)
    const { token, hash } = first.sent
    expect((await postContact(url, { ...VISITOR, message: 'Etwas anderes', token, hash }, {}, '/api/contact', send)).status).toBe(429)
    expect(await storedInquiries(app)).toBe(2)
  }, 60_000)
})

describe('X-Forwarded-For behind a proxy', () => {
  // What reaches the server: the client's own (forged) header, then what each proxy appended.
  const setups = [
    { TRUST_PROXY: 'true', chain: (forged: string) => `${forged}, 203.0.113.7` },
    { TRUST_PROXY: '2', chain: (forged: string) => `${forged}, 203.0.113.7, 10.0.0.5` },
    { TRUST_PROXY: '127.0.0.1,10.0.0.0/8', chain: (forged: string) => `${forged}, 203.0.113.7, 10.0.0.5` },
  ]

  test.each(setups)(
    'with TRUST_PROXY=$TRUST_PROXY a client cannot rotate addresses by forging the header',
    async ({ TRUST_PROXY, chain }) => {
      const app = await build({ CONTACT_RATE_LIMIT: '2', TRUST_PROXY })
      const statuses = await statusesVia(app, (i) => chain(`198.51.100.${i + 1}`), 15)
      expect(statuses).toEqual([200, 200, ...Array(13).fill(429)])
    },
    60_000,
  )

  test.each(setups)(
    "with TRUST_PROXY=$TRUST_PROXY a client cannot spend another address's quota",
    async ({ TRUST_PROXY, chain }) => {
      const app = await build({ CONTACT_RATE_LIMIT: '2', TRUST_PROXY })
      const victim = '198.51.100.23'
      expect(await statusesVia(app, () => chain(victim), 3)).toEqual([200, 200, 429])
      // The victim's own requests arrive with only what the proxies appended.
      const asVictim = TRUST_PROXY === 'true' ? victim : `${victim}, 10.0.0.5`
      expect(await statusesVia(app, () => asVictim, 2)).toEqual([200, 200])
    },
    60_000,
  )
})

describe('IPv6 clients', () => {
  test('15 addresses of one /64 are one client, and another /64 is another client', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '2', TRUST_PROXY: 'true' })
    const statuses = await statusesVia(app, (i) => `2001:db8:1:2:${(i + 1).toString(16)}::${i + 7}`, 15)
    expect(statuses).toEqual([200, 200, ...Array(13).fill(429)])
    expect(await statusesVia(app, () => '2001:db8:1:3::1', 1)).toEqual([200])
  }, 60_000)

  test('RATE_LIMIT_IPV6_PREFIX sets how wide a network counts as one client', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '1', TRUST_PROXY: 'true', RATE_LIMIT_IPV6_PREFIX: '48' })
    expect(await statusesVia(app, (i) => `2001:db8:1:${i + 1}::1`, 3)).toEqual([200, 429, 429])
    expect(await statusesVia(app, () => '2001:db8:2::1', 1)).toEqual([200])
  }, 60_000)

  test('the limit on every POST counts one /64 as one client too', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '1', TRUST_PROXY: 'true' })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await postContact(app.url, { broken: true }, { 'x-forwarded-for': `2001:db8:5:6::${i + 1}` }, '/api/contact', app.fetch)).status)
    expect(statuses).toEqual([...Array(10).fill(400), 429])
  }, 60_000)

  test('an IPv4-mapped IPv6 address counts as the IPv4 address', async () => {
    const app = await build({ CONTACT_RATE_LIMIT: '2', TRUST_PROXY: 'true' })
    expect(await statusesVia(app, () => '::ffff:203.0.113.9', 2)).toEqual([200, 200])
    expect(await statusesVia(app, () => '203.0.113.9', 1)).toEqual([429])
  }, 60_000)
})
