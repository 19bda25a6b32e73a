// A gzip stream made of fixed parts, compressed once, and per-request values (token and hash) put between them
// uncompressed (RFC 1951 stored blocks). Each fixed part is compressed as it will stand in the page: with what
// comes before it as the preset dictionary, the values' places filled with NUL bytes. The page has no NUL, so no
// back-reference can reach into a value, and as long as each value has the length it had when the parts were
// compressed, every distance stays right. Per request this costs a CRC-32 over the values and a copy, not a
// compression (docs/decisions/013): the fixed parts' CRCs are computed once and combined with the values' by the
// algebra of zlib's crc32_combine (a CRC-32 over the whole page was a measured share of GET /, decision 034).
import zlib from 'node:zlib'

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** A last, empty block with fixed codes: what zlib writes on Z_FINISH after a flush. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00])
const STORED_MAX = 0xffff

/** The page's bytes from one fixed part or value to the next, in the order they stand in the page. */
type Piece =
  /** A fixed part: its CRC-32 and the operator that moves a CRC past its length (crc32_combine_gen). */
  | { crc: number; shift: number }
  /** A value: where its bytes go in the stream, one place per stored block (a value longer than a block spans several). */
  | { value: number; places: { offset: number; length: number }[] }

/**
 * A page compressed once. `stream` is the whole gzip member with every value's bytes left to be written in: the
 * header, the fixed parts as compressed, the stored blocks' headers, the last block and the trailer's size are the
 * same for every request, so a request copies it and writes only its values and the CRC (docs/decisions/034).
 */
export interface GzipTemplate {
  stream: Buffer
  pieces: Piece[]
  /** The lengths each value must have, in order. */
  valueLengths: number[]
}

/** `parts`: the page's fixed bytes, and in between the value of this request at each place a value goes. */
export function compressTemplate(parts: (Buffer | { value: Buffer })[]): GzipTemplate {
  const before: Buffer[] = []
  const chunks: Buffer[] = [HEADER]
  let offset = HEADER.length
  let size = 0
  const valueLengths: number[] = []
  const pieces = parts.map((part): Piece => {
    if (!Buffer.isBuffer(part)) {
      const { length } = part.value
      before.push(Buffer.alloc(length))
      const places: { offset: number; length: number }[] = []
      for (let start = 0; start < length; start += STORED_MAX) {
        const chunkLength = Math.min(STORED_MAX, length - start)
        const head = Buffer.alloc(5)
        head[0] = 0 // stored, not the last block; the sync flush before it left the stream on a byte boundary
        head.writeUInt16LE(chunkLength, 1)
        head.writeUInt16LE(~chunkLength & 0xffff, 3)
        chunks.push(head, Buffer.alloc(chunkLength))
        places.push({ offset: offset + 5, length: chunkLength })
        offset += 5 + chunkLength
      }
      size += length
      return { value: valueLengths.push(length) - 1, places }
    }
    const dictionary = Buffer.concat(before)
    before.push(part)
    // Sync flush: the part ends on a byte boundary, not as the last block, ready for what follows.
    const options = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(dictionary.length > 0 && { dictionary }) }
    const deflated = zlib.deflateRawSync(part, options)
    chunks.push(deflated)
    offset += deflated.length
    size += part.length
    return { crc: zlib.crc32(part), shift: crc32CombineGen(part.length) }
  })
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(size >>> 0, 4)
  chunks.push(FINAL_BLOCK, trailer)
  // Buffer.alloc, not concat's pool: a kept template must not hold a shared 8 KiB slab alive (decision 011).
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const stream = Buffer.alloc(total)
  let at = 0
  for (const chunk of chunks) at += chunk.copy(stream, at)
  return { stream, pieces, valueLengths }
}

/**
 * The gzip member of the template with `values` in their places, in order; undefined when a value's length is not
 * the one the template was compressed for (the caller then compresses the page as a whole). A string value is
 * written as Latin-1, one byte per character, as the template's own values were: the page's values (token, signed
 * time) are ASCII by construction, and a character above U+00FF would be cut to its low byte.
 */
export function spliceGzip(template: GzipTemplate, values: (Buffer | string)[]): Buffer | undefined {
  const { stream, pieces, valueLengths } = template
  if (values.length !== valueLengths.length) return undefined
  for (let i = 0; i < values.length; i++) if (values[i]!.length !== valueLengths[i]) return undefined
  const out = Buffer.allocUnsafe(stream.length)
  stream.copy(out)
  let crc = 0
  for (const piece of pieces) {
    if ('crc' in piece) {
      crc = crc32CombineOp(crc, piece.crc, piece.shift)
      continue
    }
    const value = values[piece.value]!
    let start = 0
    for (const { offset, length } of piece.places) {
      if (typeof value === 'string') out.write(value.slice(start, start + length), offset, 'latin1')
      else value.copy(out, offset, start, start + length)
      crc = zlib.crc32(out.subarray(offset, offset + length), crc)
      start += length
    }
  }
  out.writeUInt32LE(crc >>> 0, out.length - 8)
  return out
}

// CRC-32 combination as zlib does it (crc32.c: multmodp, x2nmodp, crc32_combine_gen/op): CRCs are polynomials
// over GF(2) in reflected bit order, and appending n bytes to a message multiplies its CRC by x^(8n) modulo the
// CRC's polynomial.
const POLY = 0xedb88320

/** a * b modulo the CRC polynomial (reflected). */
function multModP(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  for (;;) {
    if (a & m) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = (() => {
  const table = [0x40000000] // x^1
  for (let k = 1; k < 32; k++) table.push(multModP(table[k - 1]!, table[k - 1]!))
  return table
})()

/** The operator for appending `length` bytes: x^(8 * length) modulo the polynomial. */
export function crc32CombineGen(length: number): number {
  let p = 0x80000000 // x^0
  let k = 3 // 8 = 2^3 bits per byte
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) {
    if (n & 1) p = multModP(X2N[k & 31]!, p)
  }
  return p
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and crc32CombineGen(B's length). */
export const crc32CombineOp = (crcA: number, crcB: number, shift: number) => (multModP(shift, crcA) ^ crcB) >>> 0

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
