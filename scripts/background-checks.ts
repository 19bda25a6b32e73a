// The checks a full `npm test` runs beside the tests (type check, lint) rather than before them: they need no test to
// wait for them, and the tests need none of their output. Each runs niced, so that on two cores the tests' servers
// and Chromium come first and the checks take what is left; its output is held until the end, so that it does not cut
// through vitest's.
import { spawn } from 'node:child_process'

export interface CheckResult {
  name: string
  /** The exit code; null when the check was ended by a signal or could not be started. */
  status: number | null
  /** What ended it, or why it could not be started. */
  reason?: string
  /** Its standard output and error, in the order they came. */
  output: string
  seconds: number
}

/** Starts `command` now at a lower priority (`nice -n niceness`); resolves when it has ended. */
export function startCheck(name: string, command: string[], options: { cwd: string; niceness?: number }): Promise<CheckResult> {
  const started = performance.now()
  const child = spawn('nice', ['-n', String(options.niceness ?? 10), ...command], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
  return new Promise((resolve) => {
    const done = (status: number | null, reason?: string) =>
      resolve({ name, status, reason, output: Buffer.concat(chunks).toString('utf8'), seconds: (performance.now() - started) / 1000 })
    child.on('error', (error) => done(null, `could not be started: ${error.message}`))
    // 'close', not 'exit': the output is complete only once both pipes have closed.
    child.on('close', (status, signal) => done(status, signal ? `ended by ${signal}` : undefined))
  })
}

const failed = (result: CheckResult) => result.status !== 0

/**
 * Each check's output under a line naming it and how it ended, and one line for each that failed (the run fails with
 * them, also when every test passed).
 */
export function checksReport(results: CheckResult[]): { output: string; failures: string[] } {
  const how = (result: CheckResult) =>
    failed(result) ? `failed (${result.reason ?? `exit code ${result.status}`})` : `passed in ${Math.round(result.seconds)} s`
  const output = results.map((result) => `\n── ${result.name} ${how(result)} ──\n${result.output.trimEnd()}${result.output.trim() ? '\n' : ''}`).join('')
  const failures = results.filter(failed).map((result) => `${result.name} ${how(result)}: its output is above`)
  return { output, failures }
}
