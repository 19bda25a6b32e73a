// The owner's CLI run as a user would: a process of its own, against a DATA_DIR (and the test's store).
import { execFile, spawnSync } from 'node:child_process'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Runs `domain-lander ...args` with only PATH, DATA_DIR and `env` set. */
export function runCli(dataDir: string, env: Record<string, string>, ...args: string[]) {
  return runCliWithInput(dataDir, env, '', ...args)
}

/** The same, with `input` on standard input (not a terminal). */
export function runCliWithInput(dataDir: string, env: Record<string, string>, input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/domain-lander.mjs'), ...args], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    input,
    // A report of 150,000 rows is more than the default megabyte.
    maxBuffer: 256 * 1024 * 1024,
  })
  return { code: run.status, out: run.stdout, err: run.stderr }
}

/**
 * The same without blocking the test's process: for a CLI that talks to a server the test itself runs (spawnSync
 * would stop that server from answering).
 */
export function runCliAsync(dataDir: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/domain-lander.mjs'), ...args],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env }, encoding: 'utf8' },
      (error, out, err) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out, err })
      },
    )
  })
}
