// `dns` and `dns check` as the owner runs them: the records printed for a zone, served back by a real DNS server on
// 127.0.0.1 together with stale, left-over and malformed ones, and checked through it.
import fs from 'node:fs'
import { Resolver } from 'node:dns/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { parseZoneTxt, startDnsServer, type DnsServer, type ZoneRecord } from '../helpers/dns.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

const DOMAINS = `
default:
  currency: EUR
domains:
  example.de:
    price: 4900
    description: 'Kurz, "einprägsam" \\ seit 2004 😀'
  münchen.de:
    price: 12000
    currency: USD
  stale.de:
    price: 4900
  missing.de:
    price: 100
  broken.de: {}
  leftover.de:
    status: sold
    price: 100
  sold.de:
    status: sold
  "*.parked.de": {}
`

let dataDir: string
let env: Record<string, string>
let server: DnsServer
let zone: ZoneRecord[]
const cli = (...args: string[]) => runCli(dataDir, env, ...args)
/** `dns check`, against the DNS server this process runs. */
const check = (...args: string[]) => runCli(dataDir, env, 'dns', 'check', ...args)
const record = (owner: string, ...strings: string[]): ZoneRecord => ({ owner, ttl: 3600, strings: strings.map((s) => Buffer.from(s, 'utf8')) })

beforeAll(async () => {
  dataDir = tempDataDir()
  env = { DOMAINS_FILE: writeTestFile(DOMAINS) }
  const printed = await cli('dns', '--format', 'zone')
  expect(printed.code).toBe(0)
  zone = parseZoneTxt(printed.out)
  const published = zone
    .filter(({ owner }) => owner !== '_for-sale.missing.de.')
    .map((r) => (r.owner === '_for-sale.stale.de.' && r.strings[0]!.toString().includes('fval=') ? record(r.owner, 'v=FORSALE1;fval=EUR3900') : r))
  server = await startDnsServer([
    ...published,
    record('_for-sale.leftover.de.', 'v=FORSALE1;fval=EUR100'),
    // Two pairs in one record, and a fval with a terminal escape sequence in it: both break the RFC.
    record('_for-sale.broken.de.', 'v=FORSALE1;furi=https://broken.de/;fval=EUR1'),
    record('_for-sale.broken.de.', 'v=FORSALE1;fval=EUR\x1b[2J\x9b31m'),
  ])
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('dns', () => {
  test('prints one record per pair for every name not sold, in zone-file form with punycode owner names', () => {
    const owners = [...new Set(zone.map(({ owner }) => owner))]
    expect(owners).toEqual(['_for-sale.example.de.', '_for-sale.xn--mnchen-3ya.de.', '_for-sale.stale.de.', '_for-sale.missing.de.', '_for-sale.broken.de.'])
    expect(zone.every(({ ttl, strings }) => ttl === 3600 && strings.length === 1 && strings[0]!.length <= 255)).toBe(true)
    const example = zone.filter(({ owner }) => owner === '_for-sale.example.de.').map(({ strings }) => strings[0]!.toString('utf8'))
    expect(example).toEqual(['v=FORSALE1;furi=https://example.de/', 'v=FORSALE1;fval=EUR4900', 'v=FORSALE1;ftxt=Kurz, "einprägsam" \\ seit 2004 😀'])
  })

  test('says in comments what it skipped: sold names and wildcards', async () => {
    const { out } = await cli('dns')
    expect(out).toContain('; skipped leftover.de: sold')
    expect(out).toContain('; skipped sold.de: sold')
    expect(out).toContain('; skipped *.parked.de: a wildcard entry')
    expect(out).not.toMatch(/_for-sale\.(leftover|sold)\.de/)
  })

  test('--format json gives the same records as data, and --domain one name', async () => {
    const { code, out } = await cli('dns', '--format', 'json', '--domain', 'münchen.de')
    expect(code).toBe(0)
    expect(JSON.parse(out)).toEqual({
      domains: [
        {
          domain: 'münchen.de',
          owner: '_for-sale.xn--mnchen-3ya.de.',
          ttl: 3600,
          status: 'available',
          records: ['v=FORSALE1;furi=https://xn--mnchen-3ya.de/', 'v=FORSALE1;fval=USD12000'],
        },
      ],
      skipped: [],
    })
  })

  test('the records served from the printed zone come back through DNS exactly as --format json has them', async () => {
    const resolver = new Resolver()
    resolver.setServers([server.address])
    const { domains } = JSON.parse((await cli('dns', '--format', 'json', '--domain', 'example.de')).out) as { domains: { records: string[] }[] }
    const answer = await resolver.resolveTxt('_for-sale.example.de')
    expect(answer.map((strings) => Buffer.from(strings.join(''), 'latin1').toString('utf8')).sort()).toEqual([...domains[0]!.records].sort())
  })

  test('mistakes get exit code 2 and a message', async () => {
    expect(await runCli(dataDir, {}, 'dns')).toMatchObject({ code: 2, err: expect.stringContaining('dns needs DOMAINS_FILE') })
    expect(await cli('dns', '--format', 'csv')).toMatchObject({ code: 2, err: expect.stringContaining('--format is zone or json') })
    expect(await cli('dns', '--domain', 'other.de')).toMatchObject({ code: 2, err: expect.stringContaining('other.de is not in DOMAINS_FILE') })
    expect(await cli('dns', 'check', '--resolver', 'dns.example')).toMatchObject({ code: 2, err: expect.stringContaining('--resolver takes IP or IP:PORT') })
    expect(await cli('dns', 'frobnicate')).toMatchObject({ code: 2, err: expect.stringContaining('unknown dns command') })
  })
})

describe('dns check', () => {
  test('reports each domain: ok, missing, stale, left over, malformed; exit code 1', async () => {
    const { code, out } = await check('--resolver', server.address)
    expect(code).toBe(1)
    const rows = out.split('\n').map((line) => line.split(/\s{2,}/))
    const state = (domain: string) => rows.filter((row) => row[0] === domain).map((row) => row.slice(1).join(' | '))
    expect(state('example.de')).toEqual(['ok'])
    expect(state('münchen.de')).toEqual(['ok'])
    expect(state('stale.de')).toEqual(['stale | fval: DNS has EUR3900, the file says EUR4900'])
    expect(state('missing.de')).toEqual(['missing | no _for-sale record'])
    expect(state('leftover.de')).toEqual(['left over | sold, but 1 _for-sale record remains'])
    expect(state('sold.de')).toEqual(['ok | sold, no records'])
    expect(state('broken.de')).toEqual([
      'malformed | "v=FORSALE1;furi=https://broken.de/;fval=EUR1": it holds more than one tag-value pair (one per record)',
      expect.stringMatching(/^malformed \| "v=FORSALE1;fval=EUR\\x1b\[2J\\x9b31m": its fval= is not/),
    ])
    expect(out).toContain('skipped *.parked.de: a wildcard entry')
    expect(out).toContain('4 of 7 domains need attention.')
  })

  test('shows no control character that came from the network', async () => {
    const { out } = await check('--resolver', server.address, '--domain', 'broken.de')
    expect(out).toContain('\\x1b[2J')
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
  })

  test('exit code 0 when the records are in order, and --json gives the report as data', async () => {
    expect(await check('--resolver', server.address, '--domain', 'münchen.de')).toMatchObject({
      code: 0,
      out: expect.stringContaining('All 1 domains are in order.'),
    })
    const { code, out } = await check('--resolver', server.address, '--json')
    expect(code).toBe(1)
    const report = JSON.parse(out) as { domains: { domain: string; ok: boolean; findings: { state: string }[] }[] }
    expect(Object.fromEntries(report.domains.map((d) => [d.domain, d.ok ? 'ok' : d.findings.map((f) => f.state).join(',')]))).toEqual({
      'example.de': 'ok',
      'münchen.de': 'ok',
      'stale.de': 'stale',
      'missing.de': 'missing',
      'broken.de': 'malformed,malformed',
      'leftover.de': 'left over',
      'sold.de': 'ok',
    })
  })

  test('a resolver that does not answer is an error for every domain, exit code 1', async () => {
    const closed = await startDnsServer([])
    await closed.close()
    const { code, out } = await check('--resolver', closed.address, '--domain', 'example.de')
    expect(code).toBe(1)
    expect(out).toMatch(/example\.de\s+error\s+lookup failed \(E[A-Z]+\)/)
  })
})
