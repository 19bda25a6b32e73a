import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { acceptsGzip, compressTemplate, crc32CombineGen, crc32CombineOp, spliceGzip } from './gzip-splice.ts'

const text = (value: string) => Buffer.from(value)
const value = (v: string | Buffer) => ({ value: typeof v === 'string' ? text(v) : v })

describe('spliceGzip', () => {
  const page = '<p>Die Domain example.de ist zu verkaufen.</p>'.repeat(40)

  test('decompresses to the fixed parts with the values in their places', () => {
    const template = compressTemplate([text(page), value('token-123'), text(`${page}ende`), value(''), value('stamp')])
    const body = spliceGzip(template, [text('token-456'), text(''), text('abcde')])!
    expect(zlib.gunzipSync(body).toString()).toBe(`${page}token-456${page}endeabcde`)
    // The second copy of the page refers back to the first: together smaller than one page alone.
    expect(body.length).toBeLessThan(page.length / 5)
  })

  test('values that repeat the text around them do not confuse the back-references after them', () => {
    const part = text('abcabcabc'.repeat(100))
    const template = compressTemplate([part, value('abc'.repeat(50)), part, value('x'), part])
    const values = [text('cba'.repeat(50)), text('a')]
    const expected = Buffer.concat([part, values[0]!, part, values[1]!, part])
    expect(zlib.gunzipSync(spliceGzip(template, values)!).equals(expected)).toBe(true)
  })

  test('random values longer than one stored block survive', () => {
    const big = randomBytes(200_000)
    const tail = randomBytes(1000)
    const template = compressTemplate([text('a'), value(big), tail])
    const other = randomBytes(200_000)
    const out = zlib.gunzipSync(spliceGzip(template, [other])!)
    expect(out.equals(Buffer.concat([text('a'), other, tail]))).toBe(true)
  })

  test('values given as text are written one byte per character, and each answer is a buffer of its own', () => {
    const big = 'q'.repeat(70_000)
    const template = compressTemplate([text(page), value('a'.repeat(70_000)), text(page), value('stamp')])
    const first = spliceGzip(template, [big, 'abcde'])!
    const second = spliceGzip(template, [text('z'.repeat(70_000)), 'vwxyz'])!
    expect(zlib.gunzipSync(first).toString()).toBe(`${page}${big}${page}abcde`)
    expect(zlib.gunzipSync(second).toString()).toBe(`${page}${'z'.repeat(70_000)}${page}vwxyz`)
    expect(first.equals(spliceGzip(template, [text(big), text('abcde')])!)).toBe(true)
  })

  test('a value of another length than the template was made for gives no stream', () => {
    const template = compressTemplate([text(page), value('12345'), text(page)])
    expect(spliceGzip(template, [text('1234')])).toBeUndefined()
    expect(spliceGzip(template, [])).toBeUndefined()
    expect(spliceGzip(template, [text('12345'), text('x')])).toBeUndefined()
  })

  test('the stream is one complete gzip member that a strict decoder accepts', () => {
    const body = spliceGzip(compressTemplate([text('x'.repeat(5000)), value('y')]), [text('z')])!
    expect(zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_FINISH }).toString()).toBe(`${'x'.repeat(5000)}z`)
    expect([...body.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8])
  })
})

describe('acceptsGzip', () => {
  test.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['*', true],
    ['gzip;q=0', false],
    ['br', false],
    ['identity', false],
    [undefined, false],
    ['', false],
  ])('%j allows gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected)
  })
})

describe('crc32CombineOp', () => {
  test('gives the CRC-32 of two byte strings joined, for lengths from none to a megabyte', () => {
    for (const [lengthA, lengthB] of [
      [0, 0],
      [0, 7],
      [5, 0],
      [1, 1],
      [3, 64],
      [1000, 4095],
      [17, 65_537],
      [4096, 1_048_576],
    ] as const) {
      const a = randomBytes(lengthA)
      const b = randomBytes(lengthB)
      expect(crc32CombineOp(zlib.crc32(a), zlib.crc32(b), crc32CombineGen(b.length))).toBe(zlib.crc32(Buffer.concat([a, b])))
    }
  })

  test('a page spliced from many parts carries the CRC gunzip checks', () => {
    const parts: (Buffer | { value: Buffer })[] = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? randomBytes(1 + i * 37) : value(randomBytes(i))))
    const values = parts.flatMap((part) => (Buffer.isBuffer(part) ? [] : [randomBytes(part.value.length)]))
    let next = 0
    const expected = Buffer.concat(parts.map((part) => (Buffer.isBuffer(part) ? part : values[next++]!)))
    expect(zlib.gunzipSync(spliceGzip(compressTemplate(parts), values)!).equals(expected)).toBe(true)
  })
})
