// Reads a PNG as a decoder starts to: the signature, then the IHDR chunk with width and height.
import { expect } from 'vitest'

export function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(png.readUInt32BE(8)).toBe(13)
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}
