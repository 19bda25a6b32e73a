// `npm test`: build (if stale), make sure Chromium, Caddy and PostgreSQL are there, run every test, and close with one summary line.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { checksReport, startCheck } from './background-checks.ts'
import { build, root } from './build-lib.ts'
import { ensureTool, type ToolName } from './system-tools.ts'

await build()
// A store's unit files share their workers in a project of their own (vitest.config.ts: "sqlite-unit"), so
// `--project sqlite` picks that one too: the project names the store, as it did before the unit files moved.
const UNIT_PROJECTS: Record<string, string> = { sqlite: 'sqlite-unit' }
const filters = process.argv.slice(2).flatMap((arg, i, args) => {
  const project = arg.startsWith('--project=') ? arg.slice('--project='.length) : args[i - 1] === '--project' ? arg : undefined
  const unit = project && UNIT_PROJECTS[project]
  return unit ? [arg, ...(arg === project ? ['--project', unit] : [`--project=${unit}`])] : [arg]
})
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
// A full run also checks types and lint (ESLint, Prettier, knip, dependency-cruiser), beside the tests
// (scripts/background-checks.ts); a run filtered to some files (while working on them) only runs those.
const checkNames = filters.length ? [] : ['typecheck', 'lint']
const running = new Set(checkNames)
const checks = checkNames.map((script) =>
  startCheck(script, ['npm', 'run', '--silent', script], { cwd: root }).then((result) => {
    running.delete(script)
    return result
  }),
)
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')
// Not spawnSync: the checks' output is read while vitest runs.
const run = spawn(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', '--reporter=./scripts/slowest-files.ts', `--outputFile.json=${results}`, ...filters],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ...tools },
  },
)
const [status] = (await once(run, 'exit')) as [number | null]
if (running.size) console.log(`\nwaiting for ${[...running].join(' and ')}…`)
const { output, failures } = checksReport(await Promise.all(checks))
process.stdout.write(output)
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
for (const failure of failures) console.error(failure)
process.exit(status !== 0 ? (status ?? 1) : failures.length ? 1 : 0)
