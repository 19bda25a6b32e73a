// `npm test` runs the type check and lint beside vitest (scripts/background-checks.ts). Tried here on tiny commands
// instead of the whole suite: both run at once, niced, their output is kept whole, and one that fails is named.
// (Here and not beside the module: vitest's projects take their tests from src/ and tests/ only.)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { checksReport, startCheck } from '../scripts/background-checks.ts'

const cwd = import.meta.dirname
const node = (script: string) => [process.execPath, '-e', script]

/**
 * A script that leaves `mine` in `dir`, waits until `theirs` is there too, then runs `done`. It watches the directory
 * before it writes its own file and looks once after, so that the other's file cannot come unseen in between.
 */
function meeting(dir: string, mine: string, theirs: string, done: string) {
  const [folder, own, other] = [dir, path.join(dir, mine), path.join(dir, theirs)].map((name) => JSON.stringify(name))
  return [
    `const fs = require('fs')`,
    `let met = false`,
    `const look = () => { if (met || !fs.existsSync(${other})) return; met = true; watcher.close(); done() }`,
    `const watcher = fs.watch(${folder}, look)`,
    `fs.writeFileSync(${own}, '')`,
    `look()`,
    `function done() { ${done} }`,
  ].join('; ')
}

test('two checks run at the same time; the failing one is named, with its output, after the passing one', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checks-'))
  try {
    // Each waits for the other: started one after the other, neither would end.
    const results = await Promise.all([
      startCheck('fine', node(meeting(dir, 'a', 'b', `console.log('all good'); console.log('nice', require('os').getPriority())`)), { cwd }),
      startCheck('broken', node(meeting(dir, 'b', 'a', `console.log('line 1'); console.error('error: line 2'); process.exitCode = 3`)), { cwd }),
    ])
    expect(results.map(({ name, status }) => ({ name, status }))).toEqual([
      { name: 'fine', status: 0 },
      { name: 'broken', status: 3 },
    ])
    // Below the tests' priority, standard output and error both kept.
    expect(results[0]!.output).toBe('all good\nnice 10\n')
    expect(results[1]!.output.split('\n').sort()).toEqual(['', 'error: line 2', 'line 1'])

    const { output, failures } = checksReport(results)
    expect(output).toBe(
      `\n── fine passed in ${Math.round(results[0]!.seconds)} s ──\nall good\nnice 10\n` + `\n── broken failed (exit code 3) ──\n${results[1]!.output}`,
    )
    expect(failures).toEqual(['broken failed (exit code 3): its output is above'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a check that cannot be run, or is killed, fails and says why; one with nothing to say is just named', async () => {
  const missing = await startCheck('missing', ['/nonexistent/command'], { cwd })
  const killed = await startCheck('killed', node(`process.kill(process.pid, 'SIGKILL')`), { cwd })
  expect(missing.status).not.toBe(0)
  expect(missing.output).toContain('/nonexistent/command')
  expect(killed).toMatchObject({ status: null, reason: 'ended by SIGKILL' })
  expect(checksReport([missing, killed]).failures).toEqual([
    `missing failed (exit code ${missing.status}): its output is above`,
    'killed failed (ended by SIGKILL): its output is above',
  ])
  expect(checksReport([{ name: 'quiet', status: 0, output: '', seconds: 0.4 }])).toEqual({ output: '\n── quiet passed in 0 s ──\n', failures: [] })
})
