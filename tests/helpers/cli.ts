// The owner's CLI against a DATA_DIR (and the test's store): in the test's own process where what it prints is the
// subject, or as a process of its own where the process is (its exit code as the shell sees it, the bin entry,
// standard input as a pipe, output larger than a pipe holds, a race with another process). A run in this process
// does not take the bin's umask (077), which is the whole process's; what the CLI makes whose mode a test checks
// (an export, the deal key, the store) is made with an explicit mode.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { Readable } from 'node:stream'
import { main } from '../../src/cli/main.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

interface CliRun {
  code: number | null
  out: string
  err: string
}

/** The environment a CLI run sees: PATH, DATA_DIR and `env`, nothing of the test's own (DATABASE_URL comes in `env`). */
const cliEnv = (dataDir: string, env: Record<string, string>) => ({ PATH: process.env.PATH, DATA_DIR: dataDir, ...env })

/** Runs `domain-lander ...args` in this process with only PATH, DATA_DIR and `env` set. */
export function runCli(dataDir: string, env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return runCliWithInput(dataDir, env, '', ...args)
}

/**
 * The same, with `input` on standard input (not a terminal). Standard output and error are what the process would
 * have written; an error the CLI does not catch ends it as Node ends a process: exit code 1, the stack on stderr.
 */
export async function runCliWithInput(dataDir: string, env: Record<string, string>, input: string, ...args: string[]): Promise<CliRun> {
  let out = ''
  let err = ''
  let code: number
  try {
    code = await main(args, {
      env: cliEnv(dataDir, env),
      stdin: Readable.from(input ? [input] : []),
      print: (text) => void (out += text.endsWith('\n') ? text : `${text}\n`),
      printError: (text) => void (err += `${text}\n`),
      stderrIsTTY: false,
    })
  } catch (error) {
    code = 1
    err += `${(error as Error).stack ?? String(error)}\n`
  }
  return { code, out, err }
}

/**
 * `domain-lander ...args` as a process of its own (bin/domain-lander.mjs, as npx runs it), with only PATH, DATA_DIR
 * and `env` set and `input` on its standard input (a pipe): for tests whose subject is the process.
 */
export function runCliProcess(dataDir: string, env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return runCliProcessWithInput(dataDir, env, '', ...args)
}

export function runCliProcessWithInput(dataDir: string, env: Record<string, string>, input: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'bin/domain-lander.mjs'), ...args],
      // A report of 140,000 rows is more than the default megabyte.
      { env: cliEnv(dataDir, env), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      (error, out, err) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out, err }),
    )
    // A CLI that ends without reading its input closes the pipe: that is no failure of the run.
    child.stdin!.on('error', () => {})
    child.stdin!.end(input)
  })
}
