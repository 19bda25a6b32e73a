// A gzip stream made of fixed parts, compressed once, and per-request values (token, hash, nonce) put between them
// uncompressed (RFC 1951 stored blocks). Each fixed part is compressed as it will stand in the page: with what
// comes before it as the preset dictionary, the values' places filled with NUL bytes. The page has no NUL, so no
// back-reference can reach into a value, and as long as each value has the length it had when the parts were
// compressed, every distance stays right. Per request this costs a CRC-32 over the page and a copy, not a
// compression (docs/decisions/013).
import zlib from 'node:zlib'

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** A last, empty block with fixed codes: what zlib writes on Z_FINISH after a flush. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00])
const STORED_MAX = 0xffff

interface CompressedPart {
  raw: Buffer
  deflated: Buffer
}

/** A page compressed once: fixed parts, and the lengths of the values that go between them. */
export type GzipTemplate = (CompressedPart | { valueLength: number })[]

/** `parts`: the page's fixed bytes, and in between the value of this request at each place a value goes. */
export function compressTemplate(parts: (Buffer | { value: Buffer })[]): GzipTemplate {
  const before: Buffer[] = []
  return parts.map((part) => {
    if (!Buffer.isBuffer(part)) {
      before.push(Buffer.alloc(part.value.length))
      return { valueLength: part.value.length }
    }
    const dictionary = Buffer.concat(before)
    before.push(part)
    // Sync flush: the part ends on a byte boundary, not as the last block, ready for what follows.
    const options = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(dictionary.length > 0 && { dictionary }) }
    return { raw: part, deflated: zlib.deflateRawSync(part, options) }
  })
}

function storedBlocks(value: Buffer): Buffer[] {
  const blocks: Buffer[] = []
  for (let offset = 0; offset < value.length; offset += STORED_MAX) {
    const chunk = value.subarray(offset, offset + STORED_MAX)
    const head = Buffer.allocUnsafe(5)
    head[0] = 0 // stored, not the last block; the sync flush before it left the stream on a byte boundary
    head.writeUInt16LE(chunk.length, 1)
    head.writeUInt16LE(~chunk.length & 0xffff, 3)
    blocks.push(head, chunk)
  }
  return blocks
}

/**
 * The gzip member of the template with `values` in their places, in order; undefined when a value's length is not
 * the one the template was compressed for (the caller then compresses the page as a whole).
 */
export function spliceGzip(template: GzipTemplate, values: Buffer[]): Buffer | undefined {
  const pieces: Buffer[] = [HEADER]
  let crc = 0
  let size = 0
  let next = 0
  for (const part of template) {
    let raw: Buffer
    if ('valueLength' in part) {
      raw = values[next++]!
      if (raw?.length !== part.valueLength) return undefined
      pieces.push(...storedBlocks(raw))
    } else {
      raw = part.raw
      pieces.push(part.deflated)
    }
    crc = zlib.crc32(raw, crc)
    size += raw.length
  }
  if (next !== values.length) return undefined
  const trailer = Buffer.allocUnsafe(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(size >>> 0, 4)
  pieces.push(FINAL_BLOCK, trailer)
  return Buffer.concat(pieces)
}

/** Whether an Accept-Encoding header allows gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  for (const entry of header.split(',')) {
    const [coding, ...params] = entry.trim().toLowerCase().split(';')
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return !q || Number(q.slice(2)) > 0
  }
  return false
}
