// What the console's pictures in docs/ were taken from: a hash of the console's code (src/console without its tests
// and their fixtures, `*.test.*` and `*.fixtures.*`), by content, so that it means the same in any checkout, shallow or
// not. `npm run screenshots` records it per picture in docs/console-pictures.json; tests/screenshots.test.ts compares
// it with the code as it is.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const PICTURES_FILE = 'docs/console-pictures.json'

export function consoleCodeHash(root: string): string {
  const hash = createHash('sha256')
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
  for (const file of walk('src/console')
    .filter((file) => !/\.(test|fixtures)\.[^/]+$/.test(file))
    .sort()) {
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/** The pictures and the hash of the code each was taken from. */
export function readPictures(root: string): Record<string, string> {
  const file = path.join(root, PICTURES_FILE)
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {}
}

/** Records that `pictures` were taken now, from the code as it is. */
export function recordPictures(root: string, pictures: string[]): void {
  const code = consoleCodeHash(root)
  const all = { ...readPictures(root), ...Object.fromEntries(pictures.map((picture) => [picture, code])) }
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)))
  fs.writeFileSync(path.join(root, PICTURES_FILE), `${JSON.stringify(sorted, null, 2)}\n`)
}
