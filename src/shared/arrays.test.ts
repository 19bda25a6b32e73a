import { describe, expect, test } from 'vitest'
import { appendAll, maxOf } from './arrays.ts'

describe('arrays of any length', () => {
  // A million arguments of one call are beyond the call stack: push(...big) and Math.max(...big) throw here.
  const big = Array.from({ length: 1_000_000 }, (_, i) => i)

  test('appendAll appends every item in order, however many there are', () => {
    const target = [-1]
    expect(appendAll(target, big)).toBe(target)
    expect(target.length).toBe(1_000_001)
    expect(target.at(-1)).toBe(999_999)
    expect(appendAll([1], new Set([2, 3]))).toEqual([1, 2, 3])
  })

  test('maxOf finds the largest number, however many there are, and the start without any', () => {
    expect(maxOf(0, big)).toBe(999_999)
    expect(maxOf(5, [])).toBe(5)
    expect(maxOf(5, [1, 7, 3])).toBe(7)
  })

  test('the spreads these replace do fail at this size (why they exist)', () => {
    expect(() => [].push(...(big as never[]))).toThrow(RangeError)
    expect(() => Math.max(...big)).toThrow(RangeError)
  })
})
