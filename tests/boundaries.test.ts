import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const clientDir = path.resolve(import.meta.dirname, '../src/client')
const sharedDir = path.resolve(clientDir, '../shared')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^\s*import[^'"]*['"]([^'"]+)['"]/gm)].map((match) => match[1]!)

test('client and shared code never import server code or Node built-ins', () => {
  const offenders = [...sourceFiles(clientDir), ...sourceFiles(sharedDir)].flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('node:') || path.resolve(path.dirname(file), spec).includes(`${path.sep}server${path.sep}`))
      .map((spec) => `${path.relative(clientDir, file)} imports ${spec}`),
  )
  expect(offenders).toEqual([])
})
