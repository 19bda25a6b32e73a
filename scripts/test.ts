// `npm test`: build (if stale), make sure Chromium, Caddy and PostgreSQL are there, run every test, and close with one summary line.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { build, root } from './build-lib.ts'
import { ensureTool, type ToolName } from './system-tools.ts'

await build()
const filters = process.argv.slice(2)
// A full run checks types and lint (ESLint, knip) first; a run filtered to some files (while working on them) goes
// straight to them.
for (const script of filters.length ? [] : ['typecheck', 'lint']) {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', cwd: root })
  if (result.status !== 0) {
    console.error(`${script} failed`)
    process.exit(result.status ?? 1)
  }
}
const tools = {
  CHROMIUM_PATH: ensureTool('chromium'),
  CADDY_PATH: ensureTool('caddy'),
  POSTGRES_PATH: ensureTool('postgres'),
  OPENSSL_PATH: ensureTool('openssl'),
  ZBARIMG_PATH: ensureTool('zbarimg'),
  PDFTOTEXT_PATH: ensureTool('pdftotext'),
  XMLLINT_PATH: ensureTool('xmllint'),
  KNOTD_PATH: ensureTool('knotd'),
  KDIG_PATH: ensureTool('kdig'),
}
// The image's test (tests/integration/image.test.ts) skips with a line where podman cannot be had, but never in CI.
const imageTools: [string, ToolName][] = [
  ['PODMAN_PATH', 'podman'],
  ['RUNC_PATH', 'runc'],
  ['DEBOOTSTRAP_PATH', 'debootstrap'],
  ['PODMAN_COMPOSE_PATH', 'podman-compose'],
]
for (const [env, name] of imageTools) {
  const found = ensureTool(name, { optional: !process.env.CI })
  if (found) Object.assign(tools, { [env]: found })
}
const results = path.join(root, '.vitest-results.json')
fs.rmSync(results, { force: true })
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', '--reporter=./scripts/slowest-files.ts', `--outputFile.json=${results}`, ...filters],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ...tools },
  },
)
if (fs.existsSync(results)) {
  const summary = JSON.parse(fs.readFileSync(results, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    numTodoTests: number
  }
  const skipped = summary.numPendingTests + summary.numTodoTests
  console.log(`\nvitest: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`)
}
process.exit(run.status ?? 1)
