// Starts the real application on 127.0.0.1, port 0, with its own temporary DATA_DIR (a real SQLite file), or in
// the test project "postgres" with its own schema in the test's PostgreSQL server.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppOptions } from '../../src/server/app.ts'
import { loadConfig, type Config } from '../../src/server/config.ts'
import { openStore } from '../../src/server/store/index.ts'
import type { Store } from '../../src/server/store/types.ts'
import { storeEnv } from './postgres.ts'

export const CLIENT_DIR = path.resolve(import.meta.dirname, '../../dist/client')

export interface TestApp {
  app: FastifyInstance
  config: Config
  url: string
  port: number
  dataDir: string
  /** The app's store, opened a second time (as another process would): for looking at what the app stored. */
  store(): Promise<Store>
  close(): Promise<void>
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-test-'))
}

/** env: the same variables as in production; defaults here switch off the waiting time and the rate limit. */
export async function startApp(env: Record<string, string | undefined> = {}, options: Pick<AppOptions, 'smtpTimeouts'> = {}): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? tempDataDir()
  const config = loadConfig({
    MIN_FILL_SECONDS: '0',
    CONTACT_RATE_LIMIT: '0',
    LOG_LEVEL: 'silent',
    MAIL_TO: 'owner@example.org',
    MAIL_FROM: 'Domain Lander <lander@example.org>',
    // The daily checks would look the test names up in the machine's DNS: only the tests of the checks want them.
    DOMAIN_CHECKS: 'off',
    ...(await storeEnv(dataDir)),
    ...env,
    DATA_DIR: dataDir,
  })
  const app = await buildApp(config, { clientDir: CLIENT_DIR, ...options })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as AddressInfo).port
  let store: Promise<Store> | undefined
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    store: () => (store ??= openStore(config)),
    async close() {
      await app.close()
      await (await store)?.close()
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
