// `npm run fuzz`: the long property-based run of POST /api/contact (FUZZ_RUNS requests, default 100,000).
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { build, root } from './build-lib.mjs'

await build()
const runs = process.env.FUZZ_RUNS ?? '100000'
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')
const run = spawnSync(process.execPath, [vitest, 'run', 'tests/integration/fuzz.test.ts'], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, FUZZ_RUNS: runs },
})
process.exit(run.status ?? 1)
