// Strings packed into typed arrays, and an open-addressing hash index over them. The loading process builds them;
// the server reads their memory in one piece (one ArrayBuffer) and looks names up in it without
// ever making an object per entry, so a reload of 100,000 names costs the requests nothing.

/** Strings as UTF-8 bytes, string i at bytes[starts[i]] up to bytes[starts[i + 1]]. */
export interface PackedStrings {
  starts: Uint32Array
  bytes: Uint8Array
}

/** PackedStrings and a hash index: slots[h] is 0 (free) or the string's number + 1. */
export interface HashedStrings extends PackedStrings {
  slots: Uint32Array
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** FNV-1a over the bytes, then murmur3's finaliser, so that the low bits (the slot) depend on every byte. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

export function packStrings(strings: readonly string[]): PackedStrings {
  const starts = new Uint32Array(strings.length + 1)
  // One encoding of all of them: an encoder call per string costs far more than the encoding itself.
  for (let i = 0; i < strings.length; i++) starts[i + 1] = starts[i]! + Buffer.byteLength(strings[i]!)
  return { starts, bytes: encoder.encode(strings.join('')) }
}

/** Packs distinct strings with their index (at most half the slots taken, so that probe runs stay short). */
export function hashStrings(strings: readonly string[]): HashedStrings {
  const packed = packStrings(strings)
  const count = strings.length
  let capacity = 8
  while (capacity < count * 2) capacity *= 2
  const slots = new Uint32Array(capacity)
  const mask = capacity - 1
  for (let i = 0; i < count; i++) {
    let slot = hashBytes(packed.bytes, packed.starts[i]!, packed.starts[i + 1]!) & mask
    while (slots[slot] !== 0) slot = (slot + 1) & mask
    slots[slot] = i + 1
  }
  return { ...packed, slots }
}

export const stringAt = (packed: PackedStrings, i: number) => decoder.decode(packed.bytes.subarray(packed.starts[i], packed.starts[i + 1]))

// Room for any domain name (253 octets) or word; a longer key is encoded on its own.
const scratch = new Uint8Array(1024)

/** The number of `key` in the index, or -1. */
export function indexOf(table: HashedStrings, key: string): number {
  const { read, written } = encoder.encodeInto(key, scratch)
  const query = read < key.length ? encoder.encode(key) : scratch
  const length = read < key.length ? query.length : written
  const { slots, starts, bytes } = table
  const mask = slots.length - 1
  for (let slot = hashBytes(query, 0, length) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
    const i = slots[slot]! - 1
    const start = starts[i]!
    if (starts[i + 1]! - start !== length) continue
    let same = true
    for (let k = 0; k < length && same; k++) same = bytes[start + k] === query[k]
    if (same) return i
  }
  return -1
}

type Section = Uint8Array | Uint32Array

/** Where each section lies in the one buffer: its kind, first byte and number of elements. */
export type Layout<T> = { [K in keyof T]: { kind: 'u8' | 'u32'; offset: number; length: number } }

/** Copies typed arrays into one ArrayBuffer, which postMessage can then transfer as a whole. */
export function packSections<T extends Record<string, Section>>(sections: T): { buffer: ArrayBuffer; layout: Layout<T> } {
  const layout = {} as Record<string, { kind: 'u8' | 'u32'; offset: number; length: number }>
  let size = 0
  for (const [name, section] of Object.entries(sections)) {
    size = Math.ceil(size / 4) * 4
    layout[name] = { kind: section instanceof Uint32Array ? 'u32' : 'u8', offset: size, length: section.length }
    size += section.byteLength
  }
  const buffer = new ArrayBuffer(size)
  for (const [name, section] of Object.entries(sections))
    new Uint8Array(buffer, layout[name]!.offset, section.byteLength).set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength))
  return { buffer, layout: layout as Layout<T> }
}

/** The sections of a packed buffer, as views into it (nothing is copied). */
export function viewSections<T extends Record<string, Section>>(buffer: ArrayBuffer, layout: Layout<T>): T {
  const views = {} as Record<string, Section>
  for (const [name, { kind, offset, length }] of Object.entries(layout) as [string, Layout<T>[keyof T]][]) {
    views[name] = kind === 'u32' ? new Uint32Array(buffer, offset, length) : new Uint8Array(buffer, offset, length)
  }
  return views as T
}
