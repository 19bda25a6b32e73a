// How the daily checks are spread over the day: each run (hourly) takes a slice of the names that are due.
import { expect, test } from 'vitest'
import type { DomainCheck } from '../../shared/domain-checks.ts'
import type { ForSaleDomain } from '../dns/for-sale.ts'
import { dueNames, hourlyLimit } from './job.ts'

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
