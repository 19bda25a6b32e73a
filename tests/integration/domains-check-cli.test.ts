// `domains check` as the owner runs it, against a real DNS server on 127.0.0.1 playing the outside world: a table (or
// JSON) of where each listed name points and whether its _for-sale records are in step; kept in the store when there
// is one. RDAP is not reachable here (the shipped bootstrap file names no server for .test): the expiry says so.
import fs from 'node:fs'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openStore } from '../../src/server/store/index.ts'
import { tempDataDir } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { startDnsServer, type DnsServer } from '../helpers/dns.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { storeEnv } from '../helpers/postgres.ts'

const DOMAINS = `
domains:
  hier.test:
    price: 4900
  anderswo.test:
    price: 4900
  fehlt.test:
    price: 100
  verkauft.test:
    status: sold
`

let server: DnsServer
let dataDir: string
const txt = (owner: string, text: string) => ({ owner, ttl: 3600, strings: [Buffer.from(text, 'utf8')] })

beforeAll(async () => {
  dataDir = tempDataDir()
  server = await startDnsServer([
    { owner: 'hier.test', ttl: 60, type: 'A', data: '192.0.2.10' },
    txt('_for-sale.hier.test', 'v=FORSALE1;furi=https://hier.test/'),
    txt('_for-sale.hier.test', 'v=FORSALE1;fval=EUR4900'),
    { owner: 'anderswo.test', ttl: 60, type: 'A', data: '198.51.100.7' },
    txt('_for-sale.anderswo.test', 'v=FORSALE1;furi=https://anderswo.test/'),
    // Terminal escapes in a published record reach the owner's terminal only as visible text.
    txt('_for-sale.anderswo.test', 'v=FORSALE1;fval=EUR\x1b]52;c;aGk=\x07'),
    { owner: 'fehlt.test', ttl: 60, type: 'CNAME', data: 'lander.example.net' },
  ])
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const env = async () => ({ DOMAINS_FILE: writeTestFile(DOMAINS), SERVER_ADDRESSES: '192.0.2.10,lander.example.net', ...(await storeEnv(dataDir)) })

test("prints each listed name's state and exits 1 when one needs attention; sold names are not checked", async () => {
  const { code, out } = await runCli(dataDir, await env(), 'domains', 'check', '--resolver', server.address)
  expect(code).toBe(1)
  const lines = out.split('\n')
  expect(lines[0]).toMatch(/^Domain\s+Points\s+Records\s+Expires\s+Detail$/)
  expect(lines.find((line) => line.startsWith('hier.test'))).toMatch(/^hier\.test\s+here\s+ok\s+none\s+Die Registry hat keinen RDAP-Server/)
  expect(lines.find((line) => line.startsWith('anderswo.test'))).toMatch(/^anderswo\.test\s+elsewhere\s+malformed\s+none\s+198\.51\.100\.7; /)
  expect(lines.find((line) => line.startsWith('fehlt.test'))).toMatch(/^fehlt\.test\s+here\s+missing\s+/)
  expect(out).not.toContain('verkauft.test')
  expect(out).toContain('\\x1b]52;c;aGk=\\x07')
  expect(out).not.toMatch(/[\x07\x1b]/)
  expect(out).toContain('2 of 3 domains need attention.')
})

test('--json gives the same as data; with a store the results are kept there for the console', async () => {
  const store = await openStore({ dataDir, databaseUrl: (await storeEnv(dataDir)).DATABASE_URL })
  await store.close()
  const { code, out } = await runCli(dataDir, await env(), 'domains', 'check', '--json', '--resolver', server.address)
  expect(code).toBe(1)
  const { checks } = JSON.parse(out) as { checks: { domain: string; pointing: string; records: string; expiry: string; needsAttention: boolean }[] }
  expect(checks.map(({ domain, pointing, records, expiry, needsAttention }) => [domain, pointing, records, expiry, needsAttention])).toEqual([
    ['hier.test', 'here', 'ok', 'none', false],
    ['anderswo.test', 'elsewhere', 'malformed', 'none', true],
    ['fehlt.test', 'here', 'missing', 'none', true],
  ])
  const reopened = await openStore({ dataDir, databaseUrl: (await storeEnv(dataDir)).DATABASE_URL })
  try {
    expect((await reopened.domainChecks()).map((check) => check.domain)).toEqual(['anderswo.test', 'fehlt.test', 'hier.test'])
  } finally {
    await reopened.close()
  }
})

test('a wrong --resolver or a second argument is a usage mistake (exit 2)', async () => {
  expect((await runCli(dataDir, await env(), 'domains', 'check', '--resolver', 'dns.example')).code).toBe(2)
  expect((await runCli(dataDir, await env(), 'domains', 'check', 'hier.test')).code).toBe(2)
})
