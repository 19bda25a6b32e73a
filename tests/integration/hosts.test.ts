// What the server does with the names it is asked for: which get a certificate (/tls-check), which get the page,
// where the www redirect goes, and how a name that could pass for another is shown. Answered by the app in process
// (a visitor from another machine is an address inject() gives the request); requests no HTTP client sends
// (absolute-form targets), restarts, clusters, the log and the visits a stopped server wrote by the real server process.
import fs from 'node:fs'
import { afterEach, describe, expect, test } from 'vitest'
import { buildTestApp, tempDataDir, type InProcessApp } from '../helpers/app.ts'
import { VISITOR, browserHeaders, fetchForm, getPage as getPageOverSocket, rawRequest, requestAs as requestOverSocket, timesShown } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'
import { databaseUrlFor } from '../helpers/postgres.ts'
import { openTestStore } from '../helpers/store.ts'

let app: InProcessApp | undefined
let server: ServerProcess | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await app?.close()
  if (server) {
    await server.stop()
    server.cleanup()
  }
  await smtp?.close()
  app = server = smtp = undefined
  removeTestFiles()
})

const DOMAINS = `
unknownHosts: not-found
www: redirect
domains:
  example.de: {}
  "*.example-parked.de": {}
`

/** The status a server process's /tls-check answers for `domain`, each ask on a connection of its own (so any worker may answer). */
async function tlsCheck(port: number, domain: string): Promise<number> {
  return (await rawRequest(port, `GET /tls-check?domain=${encodeURIComponent(domain)} HTTP/1.1\r\nHost: 127.0.0.1`)).status
}

/** The status the in-process app's /tls-check answers for `domain`. */
async function tlsAnswer(domain: string): Promise<number> {
  return (await app!.fetch(`${app!.url}/tls-check?domain=${encodeURIComponent(domain)}`)).status
}

const getPage = (url: string, host: string) => app!.requestAs(host, `${url}/`)
const requestAs: InProcessApp['requestAs'] = (...args) => app!.requestAs(...args)

describe('certificates for names under a wildcard', () => {
  test('a wildcard approves names one label below it, never deeper names or the bare name', async () => {
    app = await buildTestApp({ DOMAINS_FILE: writeTestFile(DOMAINS) })
    const label = (c: string) => c.repeat(60)
    expect(await tlsAnswer('shop.example-parked.de')).toBe(200)
    expect(await tlsAnswer('a.b.c.d.e.f.example-parked.de')).toBe(404)
    expect(await tlsAnswer(`${label('a')}.${label('b')}.${label('c')}.example-parked.de`)).toBe(404)
    expect(await tlsAnswer('example-parked.de')).toBe(404)
    expect((await getPage(app.url, 'shop.example-parked.de')).status).toBe(200)
    expect((await getPage(app.url, 'a.b.example-parked.de')).status).toBe(404)
  })

  test('new names are approved up to TLS_WILDCARD_DAILY_LIMIT a day, each counted once, also after a restart; a refusal is logged once', async () => {
    // One DATA_DIR for both starts (on PostgreSQL: one schema), removed at the end.
    const dataDir = tempDataDir()
    const env = { DOMAINS_FILE: writeTestFile(DOMAINS), TLS_WILDCARD_DAILY_LIMIT: '3', DATA_DIR: dataDir }
    server = await startServerProcess(env)
    for (const name of ['n1', 'n1', 'n2', 'n3', 'n2']) expect(await tlsCheck(server.port, `${name}.example-parked.de`)).toBe(200)
    for (const name of ['n4', 'n4', 'n4', 'n5']) expect(await tlsCheck(server.port, `${name}.example-parked.de`)).toBe(404)
    // Names listed exactly are not limited.
    expect(await tlsCheck(server.port, 'example.de')).toBe(200)
    expect(await tlsCheck(server.port, 'www.example.de')).toBe(200)
    // n5 was refused after every n4: once its line is there, all of n4's would be.
    const refusals = (name: string) => server!.output.filter((line) => line.includes(`"name":"${name}.example-parked.de"`))
    await expect.poll(() => refusals('n5')).toHaveLength(1)
    expect(refusals('n4')).toHaveLength(1)
    expect(refusals('n4')[0]).toContain('daily limit')

    expect(await server.stop()).toBe(0)
    server = await startServerProcess(env)
    server.cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true })
    expect(await tlsCheck(server.port, 'n1.example-parked.de')).toBe(200)
    expect(await tlsCheck(server.port, 'n6.example-parked.de')).toBe(404)
  })

  test('the daily limit holds for all the processes of a cluster together', async () => {
    server = await startServerProcess({ DOMAINS_FILE: writeTestFile(DOMAINS), TLS_WILDCARD_DAILY_LIMIT: '3', WORKERS: '2' })
    const answers = []
    for (let i = 0; i < 8; i++) answers.push(await tlsCheck(server.port, `c${i}.example-parked.de`))
    expect(answers.filter((status) => status === 200)).toHaveLength(3)
    expect(answers.filter((status) => status === 404)).toHaveLength(5)
  })
})

describe('ALLOW_ANY_TLS', () => {
  test('approves domain names, never addresses, single labels or numbers', async () => {
    app = await buildTestApp({ ALLOW_ANY_TLS: 'true' })
    for (const name of ['example.de', 'www.example.de', 'xn--mnchen-3ya.de', '1.2.3.example']) {
      expect(await tlsAnswer(name), name).toBe(200)
    }
    const refused = [
      '127.0.0.1',
      '169.254.169.254',
      '10.0.0.1',
      'localhost',
      'shop.localhost',
      'intranet',
      '2130706433',
      '0x7f.1',
      '127.1',
      '0177.0.0.1',
      '999.999.999.999',
      '::1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      'fe80::1',
      '127.0.0.1:443',
    ]
    for (const name of refused) expect(await tlsAnswer(name), name).toBe(404)
  })
})

describe('addresses and single labels as the Host', () => {
  const HOSTS = ['999.999.999.999', '127.0.0.1:3000', '169.254.169.254', '2130706433', '0x7f.1', 'localhost:3000', 'intranet']

  test('get the neutral page, never the for-sale page, and a post for them is refused', async () => {
    app = await buildTestApp({ LOCAL_PREVIEW: 'false' })
    for (const host of HOSTS) {
      const page = await getPage(app.url, host)
      expect(page.status, host).toBe(200)
      // Once, as its heading: the original's sentence, not repeated under it.
      expect(timesShown(page.html, 'Diese Domain ist hier nicht verfügbar.'), host).toBe(1)
      expect(page.html).toContain('<h1>Diese Domain ist hier nicht verfügbar.</h1>')
      expect(page.html).not.toContain('zu verkaufen')
      expect(page.html).not.toContain('<form')
    }
    const post = await requestAs('999.999.999.999', `${app.url}/api/contact`, { method: 'POST', body: VISITOR })
    expect(post.status).toBe(404)
    // A name is still a name.
    expect((await getPage(app.url, 'example.de')).html).toContain('Die Domain example.de ist zu verkaufen.')
  })

  test('with a domains file that answers unknown hosts with 404, they get 404', async () => {
    app = await buildTestApp({ DOMAINS_FILE: writeTestFile(DOMAINS) })
    for (const host of HOSTS) expect((await getPage(app.url, host)).status, host).toBe(404)
  })

  test('a browser on this machine sees the page for localhost and 127.0.0.1 (LOCAL_PREVIEW), for no other address', async () => {
    app = await buildTestApp()
    expect((await getPage(app.url, 'localhost:3000')).html).toContain('Die Domain localhost ist zu verkaufen.')
    expect((await getPage(app.url, '127.0.0.1')).html).toContain('<form')
    expect((await getPage(app.url, '127.0.0.2')).html).not.toContain('<form')
  })

  test('with LOCAL_PREVIEW=false localhost gets the neutral page on this machine too', async () => {
    app = await buildTestApp({ LOCAL_PREVIEW: 'false' })
    expect((await getPage(app.url, 'localhost')).html).toContain('Diese Domain ist hier nicht verfügbar.')
  })

  test('a connection from another machine gets the neutral page for localhost', async () => {
    // inject() sets the socket's address: a visitor from elsewhere who sends Host: localhost.
    app = await buildTestApp()
    const answer = await requestAs('localhost', `${app.url}/`, { remoteAddress: '203.0.113.9' })
    expect(answer.html).toContain('Diese Domain ist hier nicht verfügbar.')
  })
})

describe('previews under .localhost (LOCAL_PREVIEW)', () => {
  const LISTED = `
unknownHosts: not-found
www: redirect
domains:
  beispiel.de: { price: 4900 }
  example-shop.com: { price: 1200, currency: USD }
  versteckt.de: { listed: false }
  "*.example-parked.de": {}
`

  test('a browser on this machine sees each listed name at NAME.localhost and NAME.TLD.localhost, side by side, before any DNS', async () => {
    smtp = await startSmtpSink()
    const dataDir = tempDataDir()
    server = await startServerProcess({
      DOMAINS_FILE: writeTestFile(LISTED),
      SMTP_URL: smtp.url,
      MAIL_TO: 'owner@example.org',
      DATA_DIR: dataDir,
      MIN_FILL_SECONDS: '0',
    })
    server.cleanup = () => fs.rmSync(dataDir, { recursive: true, force: true })
    const beispiel = await getPageOverSocket(server.url, 'beispiel.localhost:3000')
    const shop = await getPageOverSocket(server.url, 'example-shop.localhost:3000')
    expect(beispiel.status).toBe(200)
    expect(beispiel.html).toContain('Die Domain beispiel.de ist zu verkaufen.')
    expect(shop.html).toContain('Die Domain example-shop.com ist zu verkaufen.')
    expect(shop.html).toContain('$')
    for (const host of ['beispiel.de.localhost:3000', 'www.beispiel.de.localhost', 'BEISPIEL.localhost.']) {
      const page = await getPageOverSocket(server.url, host)
      expect(page.status, host).toBe(200)
      expect(page.html, host).toContain('Die Domain beispiel.de ist zu verkaufen.')
    }
    expect((await getPageOverSocket(server.url, 'shop.example-parked.de.localhost')).html).toContain('Die Domain shop.example-parked.de ist zu verkaufen.')
    // Names the file does not show get what any unknown host gets.
    for (const host of ['unbekannt.localhost', 'unbekannt.de.localhost', 'versteckt.localhost', 'versteckt.de.localhost', 'a.b.example-parked.de.localhost']) {
      const page = await getPageOverSocket(server.url, host)
      expect(page.status, host).toBe(404)
      expect(page.html, host).not.toContain('<form')
    }
    // The form works through the preview, for the name it shows.
    const { token, hash } = await fetchForm(server.url, 'beispiel.localhost:3000')
    const post = await requestOverSocket('beispiel.localhost:3000', `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash } })
    expect(post.status).toBe(200)
    const [mail] = await smtp.waitFor(1)
    expect(mail!.parsed.subject).toBe('Anfrage zu beispiel.de')
    // The owner's look is no visit: of the visits (written when the server stops) only the real name's one counts.
    expect((await requestOverSocket('beispiel.de', `${server.url}/`, { headers: browserHeaders() })).status).toBe(200)
    expect(await server.stop()).toBe(0)
    const store = await openTestStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
    expect((await store.dailyStats({})).filter((row) => row.views > 0)).toMatchObject([{ domain: 'beispiel.de', views: 1 }])
    // Never a certificate for one.
    server = await startServerProcess({ DOMAINS_FILE: writeTestFile(LISTED) })
    expect(await tlsCheck(server.port, 'beispiel.localhost')).toBe(404)
    expect(await tlsCheck(server.port, 'beispiel.de.localhost')).toBe(404)
  })

  test('another machine, or LOCAL_PREVIEW=false, gets what unknown hosts get', async () => {
    app = await buildTestApp({ DOMAINS_FILE: writeTestFile(LISTED) })
    for (const host of ['beispiel.localhost', 'beispiel.de.localhost']) {
      const remote = await requestAs(host, `${app.url}/`, { remoteAddress: '203.0.113.9' })
      expect(remote.status, host).toBe(404)
      expect(remote.html, host).not.toContain('beispiel.de')
    }
    await app.close()
    app = await buildTestApp({ DOMAINS_FILE: writeTestFile(LISTED), LOCAL_PREVIEW: 'false' })
    for (const host of ['beispiel.localhost', 'beispiel.de.localhost']) {
      const page = await getPage(app.url, host)
      expect(page.status, host).toBe(404)
      expect(page.html, host).not.toContain('beispiel.de')
    }
  })
})

describe('the www redirect', () => {
  test('an absolute-form request is redirected to the bare host with the path only', async () => {
    server = await startServerProcess({ DOMAINS_FILE: writeTestFile(DOMAINS), TRUST_PROXY: 'true' })
    const absolute = await rawRequest(server.port, 'GET http://evil.example/?a=1 HTTP/1.1\r\nHost: www.example.de')
    expect(absolute.status).toBe(301)
    expect(absolute.headers.location).toBe('http://example.de/?a=1')
    const withPort = await rawRequest(server.port, 'GET http://evil.example:8080/ HTTP/1.1\r\nHost: www.example.de:8443')
    expect(withPort.headers.location).toBe('http://example.de:8443/')
    // Only http or https comes from X-Forwarded-Proto.
    const https = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: www.example.de\r\nX-Forwarded-Proto: https')
    expect(https.headers.location).toBe('https://example.de/')
    const odd = await rawRequest(server.port, 'GET / HTTP/1.1\r\nHost: www.example.de\r\nX-Forwarded-Proto: javascript')
    expect(odd.headers.location).toBe('http://example.de/')
  })

  test('HEAD answers like GET: 301 for a www host, 200 for the bare domain', async () => {
    app = await buildTestApp({ DOMAINS_FILE: writeTestFile(DOMAINS) })
    for (const host of ['www.example.de', 'example.de']) {
      const get = await requestAs(host, `${app.url}/?x=1`)
      const head = await requestAs(host, `${app.url}/?x=1`, { method: 'HEAD' })
      expect(head.status, host).toBe(get.status)
      expect(head.headers.location, host).toBe(get.headers.location)
      expect(head.html).toBe('')
    }
    expect((await requestAs('www.example.de', `${app.url}/`, { method: 'HEAD' })).status).toBe(301)
  })
})

describe('names that mix scripts', () => {
  test('a label that mixes scripts is shown as punycode on the page and in the mail; a single-script name in Unicode', async () => {
    smtp = await startSmtpSink()
    app = await buildTestApp({ SMTP_URL: smtp.url })
    const mixed = await getPage(app.url, 'xn--pple-43d.com')
    expect(mixed.html).toContain('<title>xn--pple-43d.com steht zum Verkauf</title>')
    expect(mixed.html).toContain('<h1 class="domain">xn--pple-43d.com</h1>')
    expect(mixed.html).toContain('Die Domain xn--pple-43d.com ist zu verkaufen.')
    expect(mixed.html).not.toContain('\u0430pple')

    const { token, hash } = await fetchForm(app.url, 'xn--pple-43d.com', {}, app.fetch)
    const post = await requestAs('xn--pple-43d.com', `${app.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash } })
    expect(post.status).toBe(200)
    const [mail] = await smtp.waitFor(1)
    expect(mail!.parsed.subject).toBe('Anfrage zu xn--pple-43d.com')
    expect(mail!.parsed.text).toContain('Domain: xn--pple-43d.com')
    expect(mail!.parsed.text).not.toContain('\u0430pple')

    const single = await getPage(app.url, 'xn--bcher-kva.de')
    expect(single.html).toContain('<h1 class="domain">bücher.de</h1>')
    expect(single.html).toContain('<title>bücher.de steht zum Verkauf</title>')
  })
})
