// Reads a QR code back with a real decoder (Debian's zbarimg), as a banking app would from the screen: the SVG is
// drawn to a PNG with resvg first.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Resvg } from '@resvg/resvg-js'

/** Debian's, or ZBARIMG_PATH (scripts/system-tools.ts finds or installs it for npm test). */
const ZBARIMG = process.env.ZBARIMG_PATH ?? '/usr/bin/zbarimg'

/** The text of the one QR code in `png` (a PNG image). */
export function decodeQrPng(png: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-'))
  try {
    const file = path.join(dir, 'code.png')
    fs.writeFileSync(file, png)
    // -Sbinary: the bytes as they are (UTF-8 here), not re-encoded by zbar's guess of the character set.
    return execFileSync(ZBARIMG, ['--quiet', '--raw', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString('utf8')
      .replace(/\n$/, '')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The text of the QR code drawn by `svg`. */
export const decodeQrSvg = (svg: string) => decodeQrPng(Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: 400 } }).render().asPng()))
