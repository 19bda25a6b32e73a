// Floods, foreign sites and hostile Host headers: the server refuses them cleanly and keeps serving everybody else.
// What the app answers is asked in process (inject); Host headers that no HTTP client would send, and what Node's
// HTTP parser makes of them, go as bytes on a socket to an app listening on a port.
import net from 'node:net'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { buildTestApp, startApp, type InProcessApp, type TestApp } from '../helpers/app.ts'
import { VISITOR as validFields, fetchForm as fetchFormOf, postContact, submitInquiry } from '../helpers/contact.ts'

let app: InProcessApp | undefined
let shared: Promise<InProcessApp> | undefined
afterEach(async () => {
  if (app && app !== (await shared)) await app.close()
  app = undefined
})
afterAll(async () => (await shared)?.close())

/**
 * One app, without a rate limit, for the tests whose requests are refused and store nothing (each built app costs a
 * store of its own, on PostgreSQL a schema and its migrations); the others build their own.
 */
const sharedApp = () => (shared ??= buildTestApp())

/** The helpers of helpers/contact.ts, sent through the app's inject. */
const fetchForm = (url: string) => fetchFormOf(url, undefined, {}, app!.fetch)
const post = (url: string, body: unknown, headers: Record<string, string> = {}, path = '/api/contact') => postContact(url, body, headers, path, app!.fetch)
// Each visitor asks something of their own: pages served in the same second share a token, and the same token and
// content again is a repeat of a taken submission (decision 055), which a limit answers as before.
let visitors = 0
const submitValid = (url: string, headers: Record<string, string> = {}) => submitInquiry(url, { message: `Anfrage ${++visitors}` }, headers, app!.fetch)

/** A request written byte by byte on a socket, so that Host headers no HTTP client would send arrive as they are. */
function rawGet(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1')
    })
    let raw = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (raw += chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0)
      resolve({ status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) })
    })
  })
}

describe('rate limits', () => {
  test('more accepted submissions than CONTACT_RATE_LIMIT get 429 with Retry-After, spam counting too', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '2' })
    const spam = await fetchForm(app.url)
    expect((await post(app.url, { ...validFields, name58fnlsdbee: 'bot', ...spam })).status).toBe(200)
    expect((await submitValid(app.url)).status).toBe(200)
    const limited = await submitValid(app.url)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.json()).toEqual({ error: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.' })
  })

  test('invalid requests do not use up the accepted-submission limit but meet the wider limit on all POSTs', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '1' })
    const answers: number[] = []
    for (let i = 0; i < 10; i++) answers.push((await post(app.url, { broken: true })).status)
    expect(answers).toEqual(Array(10).fill(400))
    const cutOff = await submitValid(app.url)
    expect(cutOff.status).toBe(429)
    expect(cutOff.headers.get('retry-after')).toBeTruthy()
  })

  test('a visitor at the limit who repeats a submission that was taken gets the same 200, not 429', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '1' })
    const first = await submitValid(app.url)
    expect(first.status).toBe(200)
    expect((await submitValid(app.url)).status).toBe(429)
    const repeated = await post(app.url, first.sent)
    expect(repeated.status).toBe(200)
    expect((await repeated.json()).ok).toBe(true)
  })

  test('the wider limit counts /api/contact and /api/sendMail together', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '1' })
    const answers: number[] = []
    for (let i = 0; i < 11; i++) answers.push((await post(app.url, { broken: true }, {}, i % 2 ? '/api/sendMail' : '/api/contact')).status)
    expect(answers).toEqual([...Array(10).fill(400), 429])
  })

  test('other clients keep being served while one address floods the form', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '2', TRUST_PROXY: 'true' })
    const flooder = { 'x-forwarded-for': '203.0.113.7' }
    const statuses = []
    for (let i = 0; i < 5; i++) statuses.push((await submitValid(app.url, flooder)).status)
    expect(statuses).toEqual([200, 200, 429, 429, 429])
    expect((await submitValid(app.url, { 'x-forwarded-for': '198.51.100.23' })).status).toBe(200)
    expect((await app.fetch(`${app.url}/`)).status).toBe(200)
  })

  test('X-Forwarded-For is not believed without TRUST_PROXY', async () => {
    app = await buildTestApp({ CONTACT_RATE_LIMIT: '1' })
    expect((await submitValid(app.url, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200)
    expect((await submitValid(app.url, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(429)
  })
})

describe('cross-site requests', () => {
  test('a post whose Origin is another site gets 403 and no CORS headers', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    const response = await post(app.url, { ...validFields, token, hash }, { origin: 'https://evil.example' })
    expect(response.status).toBe(403)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a post that the browser marks cross-site gets 403', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    expect((await post(app.url, { ...validFields, token, hash }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
  })

  test('a post from the page itself (same origin) is accepted', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    const headers = { origin: app.url, 'sec-fetch-site': 'same-origin' }
    expect((await post(app.url, { ...validFields, token, hash }, headers)).status).toBe(200)
  })
})

describe('hostile Host headers', () => {
  // One listening app for the raw requests: they store nothing, and each is its own connection.
  let listening: TestApp
  beforeAll(async () => {
    listening = await startApp()
  })
  afterAll(() => listening.close())

  const hostile = [
    'bad host<script>alert(1)</script>',
    'exa"mple.de',
    'a'.repeat(300) + '.de',
    `${'a'.repeat(64)}.de`,
    '[::1]:80',
    '-leading.de',
    'under_score.de',
    'xn--zz.de',
    '..',
    'example.de:99999999',
  ]
  test.each(hostile)('the page for Host %j is a neutral 400 that does not show it', async (host) => {
    const { status, body } = await rawGet(listening.port, host)
    expect(status).toBe(400)
    expect(body).not.toContain(host)
    expect(body).toContain('Diese Adresse ist ungültig.')
  })

  test('a Host with control characters is refused by the HTTP parser with the same error body', async () => {
    const { status, body } = await rawGet(listening.port, 'example.de\u0001<b>')
    expect(status).toBe(400)
    expect(JSON.parse(body)).toEqual({ error: 'Ungültige Anfrage.' })
  })

  test('a unicode host is shown normalised, never raw; an IP literal host gets the neutral page, which does not show it', async () => {
    const unicode = await rawGet(listening.port, 'MÜNCHEN.de:8080')
    expect(unicode.status).toBe(200)
    expect(unicode.body).toContain('<h1 class="domain">münchen.de</h1>')
    const ip = await rawGet(listening.port, '192.0.2.1')
    expect(ip.status).toBe(200)
    expect(ip.body).toContain('Diese Domain ist hier nicht verfügbar.')
    expect(ip.body).not.toContain('192.0.2.1')
  })

  test('random Host headers never get a 5xx, and a refused one is never shown', async () => {
    const header = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6().map((ip) => `[${ip}]`),
      fc.tuple(fc.domain(), fc.nat({ max: 99999 })).map(([domain, port]) => `${domain}:${port}`),
      fc.nat({ max: 5000 }).map((n) => 'a'.repeat(n)),
    )
    await fc.assert(
      fc.asyncProperty(header, async (host) => {
        // Bytes outside Latin-1 cannot go into a header line at all; what a client could send is its UTF-8 bytes.
        const wire = Buffer.from(host, 'utf8')
          .toString('latin1')
          .replace(/[\r\n]/g, '')
        const { status, body } = await rawGet(listening.port, wire)
        expect([200, 400, 431]).toContain(status)
        if (status !== 200 && wire.trim().length > 8) expect(body).not.toContain(wire.trim())
      }),
      { numRuns: 200 },
    )
  })

  test('X-Forwarded-Host is ignored without TRUST_PROXY', async () => {
    app = await sharedApp()
    const response = await app.fetch(`${app.url}/`, { headers: { 'x-forwarded-host': 'evil.example' } })
    const html = await response.text()
    expect(html).not.toContain('evil.example')
    expect(html).toContain('<h1 class="domain">127.0.0.1</h1>')
  })
})

describe('e-mail addresses', () => {
  test('a 300 KB address is refused with 413 before anything parses it, a 250-character one with 400', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    const huge = await post(app.url, { ...validFields, themail3h6: `${'a'.repeat(300_000)}@example.de`, token, hash })
    expect(huge.status).toBe(413)
    const long = await post(app.url, { ...validFields, themail3h6: `${'a'.repeat(64)}.${'b'.repeat(200)}@example.de`, token, hash })
    expect(long.status).toBe(400)
    expect((await long.json()).fields).toHaveProperty('themail3h6')
  })

  test.each([
    '"quoted"@example.de',
    'a`b@example.de',
    'a(comment)@example.de',
    'group:a@example.de;',
    'a@example.de,b@example.de',
    'a\u0000b@example.de',
    'two@at@example.de',
    'Name <a@example.de>',
    'a@example.de\r\nBcc: victim@example.org',
  ])('%j is refused as an address', async (address) => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    const response = await post(app.url, { ...validFields, themail3h6: address, token, hash })
    expect(response.status).toBe(400)
  })
})
