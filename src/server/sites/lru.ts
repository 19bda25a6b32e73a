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
