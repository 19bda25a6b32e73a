// Shared by start, bench and lighthouse: how the production server is started (its Node flags), a free loopback
// port, and the production server started as a child process.
import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'
import { root } from './build-lib.ts'

/**
 * Node flags and environment of the production server, wherever it runs: `npm start`, the bench and Lighthouse use
 * these; deploy/Dockerfile and deploy/domain-lander.service repeat them (tests/integration/deploy.test.ts checks
 * that they agree). They keep its memory small at a small cost in throughput: see docs/decisions/011.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=128']
export const SERVER_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' }
export const SERVER_MAIN = path.join(root, 'dist/server/main.js')

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

export interface StartedServer {
  child: ChildProcess
  stop(): Promise<void>
}

/** Starts dist/server/main.js on 127.0.0.1:port with `env`; resolves once /healthz answers. */
export async function startServer(port: number, env: Record<string, string>): Promise<StartedServer> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_MAIN], {
    env: { ...process.env, ...SERVER_ENV, HOST: '127.0.0.1', PORT: String(port), ADMIN_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 20_000
  while (
    !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not start')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return {
    child,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
