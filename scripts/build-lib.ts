// Shared by `npm start`, `npm test` and `npm run build`: build the public page, the console and the server bundle, or
// skip when the build is newer than every source file (everything under src/, the console too).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const stamp = path.join(root, 'dist', '.build-stamp')
const inputs = ['src', 'vite.config.ts', 'package.json', 'package-lock.json']

function newestMtime(entry: string): number {
  const full = path.join(root, entry)
  if (!fs.existsSync(full)) return 0
  const stat = fs.statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

export function buildIsFresh(): boolean {
  if (!fs.existsSync(stamp)) return false
  const built = fs.statSync(stamp).mtimeMs
  return inputs.every((entry) => newestMtime(entry) <= built)
}

/**
 * Writes .br and .gz beside every script, style sheet and SVG of the client build, once, at build time: the server
 * sends them to browsers that accept them without compressing anything per request.
 */
function precompress(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) precompress(file)
    else if (/\.(js|css|svg)$/.test(entry.name)) {
      const content = fs.readFileSync(file)
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }))
    }
  }
}

export async function build({ force = false }: { force?: boolean } = {}): Promise<boolean> {
  if (!force && buildIsFresh()) return false
  const { build: viteBuild } = await import('vite')
  const configFile = path.join(root, 'vite.config.ts')
  const logLevel = process.env.CI ? ('warn' as const) : ('info' as const)
  console.log('Building domain-lander (public page, console and server) ...')
  // Vite takes React's development or production build from NODE_ENV when it is set, whatever the mode: a shell
  // with NODE_ENV=development (or vitest's "test") would ship React's development build to every visitor.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await viteBuild({ configFile, root: undefined, logLevel, mode: 'production' })
    precompress(path.join(root, 'dist', 'client'))
    // The console (src/console), a build of its own: dist/client is the public port's and must not hold it.
    await viteBuild({ configFile, root: undefined, logLevel, mode: 'console' })
    precompress(path.join(root, 'dist', 'console'))
    await viteBuild({ configFile, logLevel, mode: 'production', build: { ssr: true } })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  fs.writeFileSync(stamp, new Date().toISOString())
  return true
}
