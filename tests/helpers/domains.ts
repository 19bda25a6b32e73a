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
