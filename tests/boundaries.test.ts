import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const srcDir = path.resolve(import.meta.dirname, '../src')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

// Which code may import which is checked by dependency-cruiser in `npm run lint` (.dependency-cruiser.cjs).

test('HTML is escaped by one function, shared by the page, the notices and the mail', () => {
  // Tests hold payloads such as '&amp;' on purpose; the product's code is what must escape in one place.
  const escapers = sourceFiles(srcDir).filter((file) => !/\.test\.tsx?$/.test(file) && fs.readFileSync(file, 'utf8').includes("'&amp;'"))
  expect(escapers.map((file) => path.relative(srcDir, file))).toEqual([path.join('shared', 'html.ts')])
})

const root = path.resolve(import.meta.dirname, '..')
const built = (dir: string, pattern: RegExp) =>
  fs
    .readdirSync(path.join(root, dir))
    .filter((name) => pattern.test(name))
    .map((name) => fs.readFileSync(path.join(root, dir, name), 'utf8'))

test('React renders the page on both sides: no other renderer is installed, bundled or aliased', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  expect(dependencies).toEqual(expect.arrayContaining(['react', 'react-dom']))
  expect(dependencies.filter((name) => /preact|inferno|million/.test(name))).toEqual([])
  for (const config of ['vite.config.ts', 'vitest.config.ts']) expect(fs.readFileSync(path.join(root, config), 'utf8')).not.toMatch(/alias/)
  // The build (made by `npm test` before any test runs): React's client runtime in the browser bundle, React's
  // server renderer in the server bundle. Both carry React's production error links.
  const client = built('dist/client/assets', /^client-.*\.js$/)
  expect(client).toHaveLength(1)
  expect(client[0]).toContain('https://react.dev/errors/')
  expect(client[0]).toContain('onRecoverableError')
  // The server's chunks are named by the bundler after a module in them; React's renderer is in one of them.
  const server = built('dist/server/assets', /\.js$/).join('\n')
  expect(server).toContain('https://react.dev/errors/')
  expect(server).toMatch(/renderToString/)
  expect(`${client[0]}${server}`).not.toMatch(/preact/i)
})

test("the public app's chunk reaches the deal page's and the checkout's code only by a dynamic import (decision 063)", () => {
  const assets = path.join(root, 'dist/server/assets')
  // The built-ins' facades (vite.config.ts) have no source map and no sources of ours.
  const sourcesOf = (chunk: string): string[] =>
    fs.existsSync(path.join(assets, `${chunk}.map`)) ? JSON.parse(fs.readFileSync(path.join(assets, `${chunk}.map`), 'utf8')).sources : []
  const chunks = fs.readdirSync(assets).filter((name) => name.endsWith('.js'))
  // The chunk that holds buildApp, and every chunk its static imports load with it (the build writes them as
  // `from"./name.js"`; a dynamic import is `import("./name.js")`, loaded when it runs).
  const app = chunks.filter((chunk) => sourcesOf(chunk).some((source) => source.endsWith('src/server/app.ts')))
  expect(app).toHaveLength(1)
  const loaded = new Set<string>()
  const visit = (chunk: string) => {
    if (loaded.has(chunk)) return
    loaded.add(chunk)
    for (const [, imported] of fs.readFileSync(path.join(assets, chunk), 'utf8').matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) visit(imported!)
  }
  visit(app[0]!)
  const atStart = [...loaded].flatMap(sourcesOf)
  const firstUse = [
    'src/server/deal/page-handlers.ts',
    'src/server/checkout/handlers.ts',
    'src/client/components/DealPage.tsx',
    'src/client/components/CheckoutPage.tsx',
  ]
  expect(firstUse.filter((file) => atStart.some((source) => source.endsWith(file)))).toEqual([])
  // The modules exist in the build, each reached by its route's first request.
  const all = chunks.flatMap(sourcesOf)
  expect(firstUse.filter((file) => !all.some((source) => source.endsWith(file)))).toEqual([])
})
