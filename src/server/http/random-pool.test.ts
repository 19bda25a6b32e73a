import { expect, test } from 'vitest'
import { eachRandomByte, randomHex } from './random-pool.ts'

test('hex strings have two characters a byte and do not repeat over many pool refills', () => {
  const seen = new Set<string>()
  for (let i = 0; i < 5000; i++) seen.add(randomHex(16))
  expect(seen.size).toBe(5000)
  for (const hex of seen) expect(hex).toMatch(/^[0-9a-f]{32}$/)
})

test('bytes are handed out once: consecutive draws are different bytes, and every value turns up', () => {
  const counts = new Array<number>(256).fill(0)
  const draws: number[][] = []
  for (let i = 0; i < 2000; i++) {
    const bytes: number[] = []
    eachRandomByte(30, (byte) => {
      counts[byte]!++
      bytes.push(byte)
    })
    draws.push(bytes)
  }
  // 60,000 bytes: each value about 234 times; a pool handed out twice would repeat whole draws.
  expect(counts.every((n) => n > 100)).toBe(true)
  expect(new Set(draws.map((bytes) => bytes.join(','))).size).toBe(draws.length)
})
