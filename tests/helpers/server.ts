// Runs the production build (dist/server/main.js) as a real process, the way `npm start` does.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { tempDataDir } from './app.ts'
import { storeEnv } from './postgres.ts'

const MAIN = path.resolve(import.meta.dirname, '../../dist/server/main.js')
const START = path.resolve(import.meta.dirname, '../../scripts/start.mjs')

export interface ServerProcess {
  url: string
  port: number
  /** The console (ADMIN_PORT; any free port unless the test sets one), or null when ADMIN_PORT=off. */
  adminUrl: string | null
  dataDir: string
  child: ChildProcess
  /** Every line the process wrote to stdout and stderr. */
  output: string[]
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>
  /**
   * Resolves with the lines that match `pattern` once there are `count` of them (at once when they are there already);
   * rejects when the process has ended without writing them, or after `timeoutMs`, with everything it wrote.
   */
  waitForLines(pattern: RegExp, options?: { count?: number; timeoutMs?: number }): Promise<string[]>
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<number | string>
  /** SIGKILL, then wait for the exit: a crash. */
  kill(): Promise<number | string>
  /** Removes the data directory if this helper created it. */
  cleanup(): void
}

/**
 * `onSpawn` sees the process at once, before it is ready (to signal it while it starts). `viaStart` runs it the way
 * `npm start` does, through scripts/start.mjs (which checks the build, then becomes the server by execve).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: { onSpawn?: (child: ChildProcess) => void; viaStart?: boolean } = {},
): Promise<ServerProcess> {
  const ownDataDir = !env.DATA_DIR
  const dataDir = env.DATA_DIR ?? tempDataDir()
  const child = spawn(process.execPath, [options.viaStart ? START : MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
      MIN_FILL_SECONDS: '0',
      CONTACT_RATE_LIMIT: '0',
      MAIL_TO: 'owner@example.org',
      MAIL_FROM: 'Domain Lander <lander@example.org>',
      // The daily checks would look the test names up in the machine's DNS: only the tests of the checks want them.
      DOMAIN_CHECKS: 'off',
      // A stop would wait a second for clients to go: only the tests of the shutdown itself set a drain.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...(await storeEnv(dataDir)),
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  options.onSpawn?.(child)
  const output: string[] = []
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  // After 'exit' the pipes may still hold lines: a process that ended has said all it will once they are closed.
  const closed = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? -1)))
  const onLine = new Set<() => void>()
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      output.push(line)
      for (const check of onLine) check()
    })
  }
  const waitForLines = (pattern: RegExp, { count = 1, timeoutMs }: { count?: number; timeoutMs?: number } = {}) =>
    new Promise<string[]>((resolve, reject) => {
      const done = (settle: () => void) => {
        onLine.delete(check)
        clearTimeout(timer)
        settle()
      }
      const check = () => {
        const found = output.filter((line) => pattern.test(line))
        if (found.length >= count) done(() => resolve(found))
      }
      // A deadline that bounds the wait for the lines (a process that hangs): it never decides when they come.
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => done(() => reject(new Error(`no ${count} lines ${pattern} within ${timeoutMs} ms:\n${output.join('\n')}`))), timeoutMs)
      onLine.add(check)
      check()
      void closed.then((code) => {
        if (onLine.has(check)) done(() => reject(new Error(`exited (${code}) without ${count} lines ${pattern}:\n${output.join('\n')}`)))
      })
    })
  // Generous: a server that fails exits, and is reported at once. Three instances migrating one fresh PostgreSQL
  // database while the whole suite runs took over 20 s once.
  const [ready] = await waitForLines(/"url":"http:\/\//, { timeoutMs: 60_000 }).catch(async () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${await closed}) before it was ready:\n${output.join('\n')}`)
    throw new Error(`server did not start:\n${output.join('\n')}`)
  })
  const urlIn = (field: string) => new RegExp(`"${field}":"(http://[^"]+)/"`).exec(ready!)?.[1]?.replace('localhost', '127.0.0.1') ?? null
  const url = urlIn('url')!
  const adminUrl = urlIn('console')
  const port = Number(new URL(url).port)
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
    return exited
  }
  return {
    url,
    port,
    adminUrl,
    dataDir,
    child,
    output,
    exited,
    waitForLines,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    cleanup: () => {
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
