// How the daily checks are spread over the day: each run (hourly) takes a slice of the names that are due.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { expect, test } from 'vitest'
import type { DomainCheck } from '../../shared/domain-checks.ts'
import type { ForSaleDomain } from '../dns/for-sale.ts'
import type { Store } from '../store/types.ts'
import { bootstrapHolder, domainCheckJob, dueNames, hourlyLimit } from './job.ts'

const HOUR = 3_600_000
const NOW = Date.parse('2026-11-26T08:00:00Z')
const name = (ascii: string): ForSaleDomain => ({ domain: ascii, ascii, status: 'available', expected: { furi: `https://${ascii}/`, fval: null }, records: [] })
const checked = (domain: string, at: number) => [domain, { domain, checkedAt: at } as DomainCheck] as const

test('never checked names come first, then the oldest; a name checked less than 23 hours ago waits', () => {
  const listed = ['a.de', 'b.de', 'c.de', 'd.de'].map(name)
  const previous = new Map([checked('a.de', NOW - 22 * HOUR), checked('b.de', NOW - 30 * HOUR), checked('c.de', NOW - 23 * HOUR)])
  expect(dueNames(listed, previous, NOW, 10).map((d) => d.ascii)).toEqual(['d.de', 'b.de', 'c.de'])
  expect(dueNames(listed, previous, NOW, 2).map((d) => d.ascii)).toEqual(['d.de', 'b.de'])
})

test('a run takes a 24th of the portfolio, twice that to catch up: 100,000 names are 8,334 a run', () => {
  expect(hourlyLimit(0)).toBe(1)
  expect(hourlyLimit(10)).toBe(2)
  expect(hourlyLimit(100_000)).toBe(8_334)
})

test("with no name listed a run reaches nothing: not even IANA's bootstrap file is asked for", async () => {
  // A loopback stand-in for IANA that counts what it is asked.
  let asked = 0
  const iana = http.createServer((_request, response) => {
    asked++
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => iana.listen(0, '127.0.0.1', resolve))
  try {
    const url = new URL(`http://127.0.0.1:${(iana.address() as AddressInfo).port}/rdap/dns.json`)
    const log = pino({ level: 'silent' })
    const job = (listed: ForSaleDomain[]) =>
      domainCheckJob({
        // Never reached with nothing listed; the run with a name fails at it, after the bootstrap was asked for.
        store: {} as Store,
        listed: () => listed,
        checks: { dnsTimeoutMs: 1000 } as never,
        bootstrap: bootstrapHolder({ url, allowLoopback: true, timeoutMs: 5000 }),
        notify: () => [],
        queued: () => {},
        log,
      })
    const run = { now: NOW, dueAt: NOW, period: '2026-11-26T08', signal: new AbortController().signal }
    await job([]).run(run)
    expect(asked).toBe(0)
    // The stand-in does answer: with a name listed, the same run asks it first.
    await job([name('a.de')])
      .run(run)
      .catch(() => {})
    expect(asked).toBe(1)
  } finally {
    await new Promise((resolve) => iana.close(resolve))
  }
})
