import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { byteLruCache } from './lru.ts'

describe('a cache bounded by bytes', () => {
  test('drops the entries used longest ago until the rest fits', () => {
    const cache = byteLruCache<string, string>(100)
    cache.set('a', 'A', 40)
    cache.set('b', 'B', 40)
    expect(cache.get('a')).toBe('A')
    cache.set('c', 'C', 40)
    expect(cache.get('b')).toBeUndefined()
    expect([cache.get('a'), cache.get('c')]).toEqual(['A', 'C'])
    expect(cache.bytes()).toBe(80)
  })

  test('an entry kept at a guess takes its real size later, unless it was replaced or dropped meanwhile', () => {
    const cache = byteLruCache<string, object>(100)
    const first = {}
    cache.set('a', first, 60)
    cache.resize('a', first, 10)
    expect(cache.bytes()).toBe(10)
    cache.set('a', {}, 30)
    cache.resize('a', first, 90)
    expect(cache.bytes()).toBe(30)
    cache.delete('a')
    cache.resize('a', first, 90)
    expect(cache.bytes()).toBe(0)
  })

  test('an entry larger than the bound is not kept', () => {
    const cache = byteLruCache<string, string>(100)
    expect(cache.set('big', 'X', 101)).toBe('X')
    expect(cache.get('big')).toBeUndefined()
    expect(cache.bytes()).toBe(0)
  })

  test('whatever is set, resized and deleted, the entries kept never take more than the bound, and the sum is right', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.nat({ max: 20 }), bytes: fc.nat({ max: 150 }) }),
      fc.record({ kind: fc.constant('resize' as const), key: fc.nat({ max: 20 }), bytes: fc.nat({ max: 150 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.nat({ max: 20 }), bytes: fc.constant(0) }),
    )
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const cache = byteLruCache<number, { key: number }>(100)
        const sizes = new Map<number, { value: { key: number }; bytes: number }>()
        for (const { kind, key, bytes } of operations) {
          if (kind === 'set') {
            const value = { key }
            cache.set(key, value, bytes)
            sizes.set(key, { value, bytes })
          } else if (kind === 'resize') {
            const known = sizes.get(key)
            if (known) {
              cache.resize(key, known.value, bytes)
              known.bytes = bytes
            }
          } else cache.delete(key)
          expect(cache.bytes()).toBeLessThanOrEqual(100)
          let kept = 0
          for (const [k, { value, bytes: size }] of sizes) if (cache.get(k) === value) kept += size
          expect(cache.bytes()).toBe(kept)
        }
      }),
    )
  })
})
