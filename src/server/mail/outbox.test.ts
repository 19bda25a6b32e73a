import { expect, test } from 'vitest'
import { RETRY, isPermanent, retryDelay } from './outbox.ts'

test('the first retry comes within 5 seconds and the delay doubles up to 15 minutes', () => {
  const delays = Array.from({ length: 14 }, (_, i) => retryDelay(i + 1))
  expect(delays[0]).toBeLessThanOrEqual(5000)
  for (let i = 1; i < delays.length; i++) expect(delays[i]).toBe(Math.min(delays[i - 1]! * 2, 15 * 60_000))
  expect(delays.at(-1)).toBe(15 * 60_000)
})

test('retrying goes on for at least 5 days', () => {
  expect(RETRY.giveUpAfterMs).toBeGreaterThanOrEqual(5 * 24 * 60 * 60_000)
})

test('only SMTP 5xx replies are permanent', () => {
  expect(isPermanent(Object.assign(new Error('no such user'), { responseCode: 550 }))).toBe(true)
  expect(isPermanent(Object.assign(new Error('try later'), { responseCode: 451 }))).toBe(false)
  expect(isPermanent(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false)
  expect(isPermanent(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }))).toBe(false)
})
