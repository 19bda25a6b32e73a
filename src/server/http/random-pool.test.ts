import { expect, test } from 'vitest'
import { randomHex } from './random-pool.ts'

test('hex strings have two characters a byte and do not repeat over many pool refills', () => {
  const seen = new Set<string>()
  for (let i = 0; i < 5000; i++) seen.add(randomHex(16))
  expect(seen.size).toBe(5000)
  for (const hex of seen) expect(hex).toMatch(/^[0-9a-f]{32}$/)
})

test('bytes are handed out once: consecutive draws differ, also across a refill of the pool', () => {
  // 2,000 draws of 30 bytes cross the 8 KiB pool seven times; a pool handed out twice would repeat whole draws.
  const draws = Array.from({ length: 2000 }, () => randomHex(30))
  expect(new Set(draws).size).toBe(draws.length)
  const counts = new Array<number>(256).fill(0)
  for (const hex of draws) for (let i = 0; i < hex.length; i += 2) counts[Number.parseInt(hex.slice(i, i + 2), 16)]!++
  // 60,000 bytes: each value about 234 times.
  expect(counts.every((n) => n > 100)).toBe(true)
})
