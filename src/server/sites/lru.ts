/** A map that keeps the `max` entries used last: what requests ask for again stays, the rest is dropped. */
export function lruCache<K, V>(max: number) {
  const map = new Map<K, V>()
  return {
    get(key: K): V | undefined {
      const value = map.get(key)
      if (value !== undefined) {
        map.delete(key)
        map.set(key, value)
      }
      return value
    },
    set(key: K, value: V): V {
      map.delete(key)
      map.set(key, value)
      if (map.size > max) map.delete(map.keys().next().value as K)
      return value
    },
  }
}

/**
 * Like lruCache, but bounded by the sum of its entries' sizes in bytes, as the caller states them: for values whose
 * size varies (images), a count alone would not bound the memory. An entry larger than the bound is not kept.
 */
export function byteLruCache<K, V>(maxBytes: number) {
  const map = new Map<K, { value: V; bytes: number }>()
  let total = 0
  const drop = (key: K, value?: V) => {
    const entry = map.get(key)
    if (!entry || (value !== undefined && entry.value !== value)) return
    map.delete(key)
    total -= entry.bytes
  }
  const evict = () => {
    while (total > maxBytes) drop(map.keys().next().value!)
  }
  return {
    get(key: K): V | undefined {
      const entry = map.get(key)
      if (!entry) return undefined
      map.delete(key)
      map.set(key, entry)
      return entry.value
    },
    set(key: K, value: V, bytes: number): V {
      drop(key)
      map.set(key, { value, bytes })
      total += bytes
      evict()
      return value
    },
    /** A new size for the entry of `key`, if it still holds `value` (a value being made is kept at a guess first). */
    resize(key: K, value: V, bytes: number): void {
      const entry = map.get(key)
      if (entry?.value !== value) return
      total += bytes - entry.bytes
      entry.bytes = bytes
      evict()
    },
    /** Drops the entry of `key` (only if it holds `value`, when given). */
    delete: (key: K, value?: V) => drop(key, value),
    /** What the entries kept take together. */
    bytes: () => total,
    size: () => map.size,
  }
}
