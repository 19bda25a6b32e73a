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
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => output.push(line))
  }
  const ready = await new Promise<string>((resolve, reject) => {
    // Generous: a server that fails exits, and is reported at once (below). Three instances migrating one fresh
    // PostgreSQL database while the whole suite runs took over 20 s once.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), 60_000)
    const poll = setInterval(() => {
      for (const line of output) {
        if (/"url":"http:\/\//.test(line)) {
          clearInterval(poll)
          clearTimeout(timer)
          resolve(line)
          return
        }
      }
    }, 10)
    void exited.then((code) => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`server exited (${code}) before it was ready:\n${output.join('\n')}`))
    })
  })
  const urlIn = (field: string) => new RegExp(`"${field}":"(http://[^"]+)/"`).exec(ready)?.[1]?.replace('localhost', '127.0.0.1') ?? null
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
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    cleanup: () => {
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
