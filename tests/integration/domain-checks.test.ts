// The daily checks against the outside world played on loopback: a real DNS server (addresses, aliases, _for-sale
// records), a real RDAP server (the registry), and a server answering /tls-check, with a fixed clock.
import { Resolver } from 'node:dns/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createChecker, type CheckOptions } from '../../src/server/domain-checks/check.ts'
import { fetchBootstrap, readBootstrap, shippedBootstrap, rdapServersFor, type RdapBootstrap } from '../../src/server/domain-checks/rdap.ts'
import type { ForSaleDomain } from '../../src/server/dns/for-sale.ts'
import type { DomainCheck } from '../../src/shared/domain-checks.ts'
import { startDnsServer, type DnsServer, type TargetRecord, type ZoneRecord } from '../helpers/dns.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'

const NOW = Date.parse('2026-11-26T08:00:00Z')
const DAY = 86_400_000
const SERVER_ADDRESSES = ['192.0.2.10', '2001:db8::10', 'lander.example.net']

const txt = (owner: string, text: string): ZoneRecord => ({ owner, ttl: 3600, strings: [Buffer.from(text, 'utf8')] })
const target = (owner: string, type: TargetRecord['type'], data: string): TargetRecord => ({ owner, ttl: 3600, type, data })
const listed = (ascii: string, price = 4900): ForSaleDomain => ({
  domain: ascii,
  ascii,
  status: 'available',
  expected: { furi: `https://${ascii}/`, fval: `EUR${price}` },
  records: [`v=FORSALE1;furi=https://${ascii}/`, `v=FORSALE1;fval=EUR${price}`],
})
const published = (ascii: string, price = 4900) => [
  txt(`_for-sale.${ascii}`, `v=FORSALE1;furi=https://${ascii}/`),
  txt(`_for-sale.${ascii}`, `v=FORSALE1;fval=EUR${price}`),
]
const rdapAnswer = (ascii: string, expiresAt: string) =>
  JSON.stringify({
    objectClassName: 'domain',
    ldhName: ascii,
    events: [
      { eventAction: 'registration', eventDate: '2004-01-01T00:00:00Z' },
      { eventAction: 'expiration', eventDate: expiresAt },
    ],
  })

let dns: DnsServer
let rdap: Receiver
let lander: http.Server
let landerPort: number
let bootstrap: RdapBootstrap

beforeAll(async () => {
  // A domain-lander that lists tls.test (and only that) at a loopback address that is not in SERVER_ADDRESSES.
  lander = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const ok = url.pathname === '/tls-check' && url.searchParams.get('domain') === 'tls.test'
    res.writeHead(ok ? 200 : 404).end(ok ? 'ok' : 'unknown domain')
  })
  await new Promise<void>((resolve) => lander.listen(0, '127.0.0.1', resolve))
  landerPort = (lander.address() as AddressInfo).port
  dns = await startDnsServer([
    target('hier.test', 'A', '192.0.2.10'),
    ...published('hier.test'),
    target('v6.test', 'AAAA', '2001:db8:0:0:0:0:0:10'),
    ...published('v6.test'),
    target('alias.test', 'CNAME', 'lander.example.net'),
    ...published('alias.test'),
    target('tls.test', 'A', '127.0.0.1'),
    ...published('tls.test'),
    target('anderswo.test', 'A', '198.51.100.7'),
    ...published('anderswo.test'),
    target('fehlt.test', 'A', '192.0.2.10'),
    target('veraltet.test', 'A', '192.0.2.10'),
    ...published('veraltet.test', 3900),
    target('bald.test', 'A', '192.0.2.10'),
    ...published('bald.test'),
    target('langsam.test', 'A', '192.0.2.10'),
    target('riesig.test', 'A', '192.0.2.10'),
    target('markup.test', 'A', '192.0.2.10'),
    txt('_for-sale.markup.test', 'v=FORSALE1;fval=<img src=x onerror=alert(1)>\x1b[2J\u202e'),
    target('ohne.rdap', 'A', '192.0.2.10'),
  ])
  rdap = await startReceiver()
  rdap.answer = (request) => {
    const name = decodeURIComponent(request.url.replace(/^\/domain\//, ''))
    if (name === 'langsam.test') return 'hold'
    if (name === 'riesig.test') return { status: 200, body: `{"events":[${'{"eventAction":"x","eventDate":"y"},'.repeat(40_000)}{}]}` }
    if (name === 'markup.test')
      return { status: 200, body: JSON.stringify({ events: [{ eventAction: 'expiration', eventDate: '<script>alert(1)</script>' }] }) }
    if (name === 'bald.test') return { status: 200, body: rdapAnswer(name, new Date(NOW + 10 * DAY).toISOString()) }
    if (name === 'nirgends.test') return { status: 404, body: '{}' }
    return { status: 200, headers: { 'content-type': 'application/rdap+json' }, body: rdapAnswer(name, '2027-06-01T00:00:00Z') }
  }
  bootstrap = readBootstrap({ publication: '2026-11-01T00:00:00Z', services: [[['test'], [`${rdap.url.replace(/\/$/, '')}/`]]] })!
})
afterAll(async () => {
  await dns?.close()
  await rdap?.close()
  await new Promise((resolve) => lander?.close(resolve))
})

function options(overrides: Partial<CheckOptions> = {}): CheckOptions {
  const resolver = new Resolver({ timeout: 1000, tries: 1 })
  resolver.setServers([dns.address])
  return {
    resolver,
    serverAddresses: SERVER_ADDRESSES,
    http: { scheme: 'http', port: landerPort, timeoutMs: 2000 },
    bootstrap: () => bootstrap,
    rdapTimeoutMs: 1500,
    concurrency: 4,
    now: () => NOW,
    allowLoopback: true,
    ...overrides,
  }
}

const checkAll = async (names: ForSaleDomain[], overrides: Partial<CheckOptions> = {}, previous = new Map<string, DomainCheck>()) => {
  const checks = await createChecker(options(overrides)).check(names, previous)
  return new Map(checks.map((check) => [check.domain, check]))
}

describe('where a name points', () => {
  test('an address or alias among SERVER_ADDRESSES, or an answer to our /tls-check, is "here"; another address is not', async () => {
    const checks = await checkAll(['hier.test', 'v6.test', 'alias.test', 'tls.test', 'anderswo.test', 'gibtsnicht.test'].map((name) => listed(name)))
    expect(checks.get('hier.test')).toMatchObject({ pointing: 'here', pointingDetail: '192.0.2.10' })
    expect(checks.get('v6.test')).toMatchObject({ pointing: 'here' })
    expect(checks.get('alias.test')).toMatchObject({ pointing: 'here', pointingDetail: 'CNAME lander.example.net' })
    expect(checks.get('tls.test')).toMatchObject({ pointing: 'here', pointingDetail: '127.0.0.1 (antwortet auf /tls-check)' })
    expect(checks.get('anderswo.test')).toMatchObject({ pointing: 'elsewhere', pointingDetail: '198.51.100.7' })
    expect(checks.get('gibtsnicht.test')).toMatchObject({ pointing: 'elsewhere', pointingDetail: 'keine Adresse im DNS' })
  })

  test('/tls-check is not asked at a private or loopback address outside the tests, so a name cannot point the server into its own network', async () => {
    const before = await new Promise<number>((resolve) => lander.getConnections((_e, count) => resolve(count)))
    const checks = await checkAll([listed('tls.test')], { allowLoopback: false })
    expect(checks.get('tls.test')).toMatchObject({ pointing: 'elsewhere', pointingDetail: '127.0.0.1' })
    expect(await new Promise<number>((resolve) => lander.getConnections((_e, count) => resolve(count)))).toBe(before)
  })

  test('over https, an answer "ok" from a server whose certificate is not valid for the name does not count', async () => {
    const impostor = await startReceiver({ tlsName: 'tls.test' })
    try {
      const port = Number(new URL(impostor.url).port)
      const checks = await checkAll([listed('tls.test')], { http: { scheme: 'https', port, timeoutMs: 2000 } })
      expect(checks.get('tls.test')).toMatchObject({ pointing: 'elsewhere' })
      // It was asked (the connection was made), but its self-signed certificate was refused before any request.
      expect(impostor.requests).toEqual([])
    } finally {
      await impostor.close()
    }
  })

  test('a DNS server that does not answer leaves the target unknown, and the name is still in the results', async () => {
    const resolver = new Resolver({ timeout: 300, tries: 1 })
    resolver.setServers(['127.0.0.1:9'])
    const checks = await checkAll([listed('hier.test')], { resolver })
    expect(checks.get('hier.test')).toMatchObject({ pointing: 'unknown', records: 'unknown' })
  })
})

describe('the _for-sale records', () => {
  test('present and current, missing, or outdated against what the domains file says', async () => {
    const checks = await checkAll([listed('hier.test'), listed('fehlt.test'), listed('veraltet.test')])
    expect(checks.get('hier.test')).toMatchObject({ records: 'ok', recordsDetail: '' })
    expect(checks.get('fehlt.test')).toMatchObject({ records: 'missing', recordsDetail: 'no _for-sale record' })
    expect(checks.get('veraltet.test')).toMatchObject({ records: 'stale', recordsDetail: 'fval: DNS has EUR3900, the file says EUR4900' })
  })

  test('markup and control characters in a published record are kept as visible text', async () => {
    const check = (await checkAll([listed('markup.test')])).get('markup.test')!
    expect(check.records).toBe('missing')
    expect(check.recordsDetail).toContain('<img src=x onerror=alert(1)>\\x1b[2J\\u202e')
    expect(check.recordsDetail).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/)
  })
})

describe('when a name expires', () => {
  test('RDAP gives the date, found through the bootstrap file', async () => {
    const checks = await checkAll([listed('hier.test'), listed('bald.test')])
    expect(checks.get('hier.test')).toMatchObject({ expiry: 'known', expiresAt: Date.parse('2027-06-01T00:00:00Z'), rdapCheckedAt: NOW })
    expect(checks.get('bald.test')).toMatchObject({ expiry: 'known', expiresAt: NOW + 10 * DAY })
    expect(rdap.requests.some((request) => request.url === '/domain/bald.test' && /rdap\+json/.test(String(request.headers.accept)))).toBe(true)
  })

  test('a slow RDAP server times out: the date is unknown, the last one known is kept, the name is not dropped', async () => {
    const previous = new Map([
      [
        'langsam.test',
        {
          domain: 'langsam.test',
          checkedAt: NOW - DAY,
          pointing: 'here',
          pointingDetail: '',
          records: 'ok',
          recordsDetail: '',
          expiry: 'known',
          expiresAt: NOW + 20 * DAY,
          expiryDetail: '',
          rdapCheckedAt: NOW - DAY,
        } satisfies DomainCheck,
      ],
    ])
    const started = Date.now()
    const checks = await checkAll([listed('langsam.test'), listed('hier.test')], { rdapTimeoutMs: 500 }, previous)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(checks.get('langsam.test')).toMatchObject({
      expiry: 'unknown',
      expiresAt: NOW + 20 * DAY,
      expiryDetail: expect.stringContaining('no answer in time'),
    })
    expect(checks.get('hier.test')).toMatchObject({ expiry: 'known' })
  })

  test('an RDAP server that is down leaves the date unknown', async () => {
    const down = readBootstrap({ publication: '2026-11-01T00:00:00Z', services: [[['test'], ['http://127.0.0.1:9/']]] })!
    const checks = await checkAll([listed('hier.test')], { bootstrap: () => down })
    expect(checks.get('hier.test')).toMatchObject({ expiry: 'unknown', expiresAt: null, expiryDetail: expect.stringContaining('cannot be reached') })
  })

  test('a huge answer is cut off and not read; markup in place of a date is not taken for one', async () => {
    const checks = await checkAll([listed('riesig.test'), listed('markup.test')])
    expect(checks.get('riesig.test')).toMatchObject({ expiry: 'unknown', expiryDetail: expect.stringContaining('abgeschnitten') })
    expect(checks.get('markup.test')).toMatchObject({ expiry: 'unknown', expiresAt: null, expiryDetail: expect.stringContaining('kein Ablaufdatum') })
  })

  test('a TLD without an RDAP server in the bootstrap file, and a name the registry does not know', async () => {
    const checks = await checkAll([listed('ohne.rdap'), listed('nirgends.test')])
    expect(checks.get('ohne.rdap')).toMatchObject({ expiry: 'none', expiresAt: null })
    expect(checks.get('nirgends.test')).toMatchObject({ expiry: 'unknown', expiryDetail: expect.stringContaining('404') })
  })

  test('RDAP is asked again only after a week, or daily when the date is near', async () => {
    const before = rdap.requests.length
    const known = (domain: string, expiresAt: number): DomainCheck => ({
      domain,
      checkedAt: NOW - DAY,
      pointing: 'here',
      pointingDetail: '',
      records: 'ok',
      recordsDetail: '',
      expiry: 'known',
      expiresAt,
      expiryDetail: 'RDAP',
      rdapCheckedAt: NOW - DAY,
    })
    const previous = new Map([
      ['hier.test', known('hier.test', NOW + 200 * DAY)],
      ['bald.test', known('bald.test', NOW + 10 * DAY)],
    ])
    const checks = await checkAll([listed('hier.test'), listed('bald.test')], {}, previous)
    expect(rdap.requests.slice(before).map((request) => request.url)).toEqual(['/domain/bald.test'])
    expect(checks.get('hier.test')).toMatchObject({ expiresAt: NOW + 200 * DAY, rdapCheckedAt: NOW - DAY, checkedAt: NOW })
  })

  test('no RDAP request goes to a private address, whatever the bootstrap file says', async () => {
    const before = rdap.requests.length
    const checks = await checkAll([listed('hier.test')], { allowLoopback: false })
    expect(checks.get('hier.test')).toMatchObject({ expiry: 'unknown', expiryDetail: expect.stringContaining('not a public address') })
    expect(rdap.requests.length).toBe(before)
  })
})

describe('the bootstrap file shipped with the project', () => {
  test("is IANA's: .com at Verisign, longest match first, https preferred", () => {
    const shipped = shippedBootstrap()
    expect(Date.parse(shipped.publication)).toBeGreaterThan(Date.parse('2026-01-01'))
    expect(rdapServersFor(shipped, 'beispiel.com')[0]?.href).toBe('https://rdap.verisign.com/com/v1/')
    expect(rdapServersFor(shipped, 'beispiel.de')).toEqual([])
    for (const [, urls] of shipped.servers) expect(urls[0]!.protocol === 'https:' || urls.every((url) => url.protocol === 'http:')).toBe(true)
  })
})

describe("IANA's newer bootstrap file", () => {
  test('replaces the one in use when it is newer and well-formed; an older, broken or huge one is ignored', async () => {
    const iana = await startReceiver()
    try {
      const current = shippedBootstrap()
      const newer = { description: 'x', publication: '2027-01-05T10:00:00Z', version: '1.0', services: [[['neu'], ['https://rdap.nic.neu/']]] }
      let body = JSON.stringify(newer)
      iana.answer = () => ({ status: 200, body })
      const fetched = await fetchBootstrap(new URL(iana.url), current, { timeoutMs: 2000, allowLoopback: true })
      expect(fetched?.publication).toBe('2027-01-05T10:00:00Z')
      expect(rdapServersFor(fetched!, 'name.neu')[0]?.href).toBe('https://rdap.nic.neu/')
      body = JSON.stringify({ ...newer, publication: '2020-01-01T00:00:00Z' })
      expect(await fetchBootstrap(new URL(iana.url), current, { timeoutMs: 2000, allowLoopback: true })).toBeNull()
      body = '{"services": "<script>"}'
      expect(await fetchBootstrap(new URL(iana.url), current, { timeoutMs: 2000, allowLoopback: true })).toBeNull()
      body = JSON.stringify({ ...newer, description: 'x'.repeat(2 * 1024 * 1024) })
      expect(await fetchBootstrap(new URL(iana.url), current, { timeoutMs: 2000, allowLoopback: true })).toBeNull()
      // Outside the tests, a loopback address is never asked.
      const before = iana.requests.length
      expect(await fetchBootstrap(new URL(iana.url), current, { timeoutMs: 2000 })).toBeNull()
      expect(iana.requests.length).toBe(before)
    } finally {
      await iana.close()
    }
  })
})
