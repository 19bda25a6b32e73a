// Domains files (and other small files a server is pointed at) for a test, each in a temporary directory of its own.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const dirs: string[] = []

/** Writes `text` to a new file and returns its path; removeTestFiles() deletes it. */
export function writeTestFile(text: string, name = 'domains.yaml'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-domains-'))
  dirs.push(dir)
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

export function removeTestFiles(): void {
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }))
}

/**
 * The lines of a domains file of `count` names (name-0.de, name-1.de, …), each with its number as price (plus
 * `priceOffset`) and a minimum offer: one line each in JSON, three in YAML (name, price, minimum).
 */
export function largeDomainsLines(format: 'json' | 'yaml', count: number, priceOffset = 0): string[] {
  const names = Array.from({ length: count }, (_, i) => `name-${i}.de`)
  return format === 'json'
    ? ['{', '  "domains": {', ...names.map((name, i) => `    "${name}": { "price": ${i + priceOffset}, "minOffer": 1 }${i < count - 1 ? ',' : ''}`), '  }', '}']
    : ['# A portfolio', 'domains:', ...names.flatMap((name, i) => [`  ${name}:`, `    price: ${i + priceOffset}`, '    minOffer: 1'])]
}

/** Replaces `file` the way editors do (a new file renamed over it), so that a watcher sees one change. */
export function replaceFile(file: string, text: string): void {
  fs.writeFileSync(`${file}.tmp`, text)
  fs.renameSync(`${file}.tmp`, file)
}
