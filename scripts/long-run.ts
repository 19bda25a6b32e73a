// The long variants of two tests: `npm run fuzz` (FUZZ_RUNS requests, default 100,000) and
// `npm run crash` (CRASH_ROUNDS kill -9 rounds, default 200).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { build, root } from './build-lib.ts'

const RUNS: Record<string, { file: string; variable: string; fallback: string }> = {
  fuzz: { file: 'tests/integration/fuzz.test.ts', variable: 'FUZZ_RUNS', fallback: '100000' },
  crash: { file: 'tests/integration/crash.test.ts', variable: 'CRASH_ROUNDS', fallback: '200' },
}
const run = RUNS[process.argv[2] ?? '']
if (!run) {
  console.error(`usage: node scripts/long-run.ts ${Object.keys(RUNS).join('|')}`)
  process.exit(2)
}
await build()
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')
const result = spawnSync(process.execPath, [vitest, 'run', run.file], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, [run.variable]: process.env[run.variable] ?? run.fallback },
})
process.exit(result.status ?? 1)
