// Starts the real application on 127.0.0.1, port 0 (startApp), or builds it for app.inject (buildTestApp), with its own temporary DATA_DIR (a real SQLite file), or in
// the test project "postgres" with its own schema in the test's PostgreSQL server.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, LightMyRequestResponse as InjectResponse } from 'fastify'
import type { PublicApp } from '../../src/server/decorations.ts'
import { buildApp, type AppOptions } from '../../src/server/app.ts'
import { loadConfig, type Config } from '../../src/server/config.ts'
import { openStore } from '../../src/server/store/index.ts'
import type { Store } from '../../src/server/store/types.ts'
import type { RawResponse } from './contact.ts'
import { storeEnv } from './postgres.ts'

export const CLIENT_DIR = path.resolve(import.meta.dirname, '../../dist/client')

export interface TestApp {
  app: PublicApp
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

/** The configuration startApp and buildTestApp give the app: `env` over the test defaults. */
async function testConfig(env: Record<string, string | undefined>): Promise<{ config: Config; dataDir: string }> {
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
  return { config, dataDir }
}

/** env: the same variables as in production; defaults here switch off the waiting time and the rate limit. */
export async function startApp(env: Record<string, string | undefined> = {}, options: Pick<AppOptions, 'smtpTimeouts'> = {}): Promise<TestApp> {
  const { config, dataDir } = await testConfig(env)
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

/**
 * Where the requests of an in-process app seem to go. Nothing listens there: the Host header (and the Origin a
 * test sends) name it as a browser would name a server on this machine, and `fetch` below tells the console's
 * requests from the page's by the port.
 */
const PUBLIC_URL = 'http://127.0.0.1:3000'
const CONSOLE_URL = 'http://127.0.0.1:3001'

const FETCH_HEADERS = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node' }

export interface InProcessApp {
  app: PublicApp
  /** The owner's console, built beside the app (ADMIN_PORT), or null when ADMIN_PORT=off. */
  admin: FastifyInstance | null
  config: Config
  /** The public page's base URL for `fetch`, as a process's `url`. */
  url: string
  /** The console's base URL for `fetch`, as a process's `adminUrl`. */
  adminUrl: string | null
  dataDir: string
  /**
   * fetch() answered by `inject` of the app or the console (by the URL's port), without a socket: the Host header
   * is the URL's host unless the test sets one; redirects are never followed (as `redirect: 'manual'`).
   */
  fetch(input: string, init?: RequestInit): Promise<Response>
  /** requestAs (helpers/contact.ts) through inject: any Host header, a JSON body or a form. */
  requestAs(host: string, url: string, options?: InjectAsOptions): Promise<RawResponse & { body: Buffer }>
  /** The app's store, opened a second time (as another process would): for looking at what the app stored. */
  store(): Promise<Store>
  close(): Promise<void>
}

interface InjectAsOptions {
  method?: string
  body?: unknown
  form?: Record<string, string>
  headers?: Record<string, string>
  /** The client's address as the socket would give it (another client to the server). */
  remoteAddress?: string
}

/**
 * clusterWorker: the app joins a store another app or process already uses (as a cluster's worker does), and leaves
 * that one's mail leases alone instead of ending them as a first start does.
 */
type TestAppOptions = Pick<AppOptions, 'smtpTimeouts' | 'clusterWorker'>

/**
 * What startApp builds, without listening: for tests whose subject is what a route answers. Their requests go
 * through `app.inject`; tests of sockets, signals, crashes, clusters, shutdown and mail start a process.
 */
export async function buildTestApp(env: Record<string, string | undefined> = {}, options: TestAppOptions = {}): Promise<InProcessApp> {
  const { config, dataDir } = await testConfig(env)
  const app = await buildApp(config, { clientDir: CLIENT_DIR, ...options })
  const admin = app.admin
  let store: Promise<Store> | undefined
  // By the port: a test may name the loopback by any of its names (localhost, for passkeys).
  const targetOf = (url: URL) => {
    if (url.port === new URL(CONSOLE_URL).port && admin) return admin
    if (url.port === new URL(PUBLIC_URL).port) return app
    throw new Error(`${url.origin} is neither ${PUBLIC_URL} nor ${CONSOLE_URL}`)
  }
  return {
    app,
    admin,
    config,
    url: PUBLIC_URL,
    adminUrl: admin && CONSOLE_URL,
    dataDir,
    async fetch(input, init = {}) {
      const url = new URL(input)
      const headers = new Headers(init.headers)
      if (!headers.has('host')) headers.set('host', url.host)
      // What Node's fetch() adds to every request; Accept-Encoding is left out, as fetch() decodes what it asked for.
      for (const [name, value] of Object.entries(FETCH_HEADERS)) if (!headers.has(name)) headers.set(name, value)
      let payload: string | Buffer | undefined
      if (typeof init.body === 'string') payload = init.body
      // A copy, as fetch() sends the bytes and leaves the caller's: the server may move a body's memory elsewhere
      // (a statement's pieces to their worker), which with the caller's own buffer would empty it.
      else if (init.body instanceof Uint8Array) payload = Buffer.from(init.body)
      else if (init.body instanceof URLSearchParams) {
        payload = init.body.toString()
        if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8')
      } else if (init.body != null) throw new Error('fetch through inject takes a string, bytes or URLSearchParams as body')
      const method = (init.method ?? 'GET').toUpperCase()
      const answer = await targetOf(url).inject({
        method: method as 'GET',
        url: url.pathname + url.search,
        headers: Object.fromEntries(headers),
        ...(payload !== undefined && { payload }),
      })
      return responseOf(answer, method)
    },
    async requestAs(host, input, options = {}) {
      const url = new URL(input)
      const body = options.form ? new URLSearchParams(options.form).toString() : options.body === undefined ? undefined : JSON.stringify(options.body)
      const headers: Record<string, string> = { ...options.headers, host }
      if (body !== undefined) headers['content-type'] = options.form ? 'application/x-www-form-urlencoded' : 'application/json'
      const answer = await targetOf(url).inject({
        method: (options.method ?? 'GET') as 'GET',
        url: url.pathname + url.search,
        headers,
        ...(body !== undefined && { payload: body }),
        ...(options.remoteAddress && { remoteAddress: options.remoteAddress }),
      })
      return { status: answer.statusCode, headers: incomingHeadersOf(answer), html: answer.payload, body: answer.rawPayload }
    },
    store: () => (store ??= openStore(config)),
    async close() {
      await app.close()
      await (await store)?.close()
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The answer's headers as http.IncomingMessage has them: strings, Set-Cookie a list. */
function incomingHeadersOf(answer: InjectResponse): http.IncomingHttpHeaders {
  const headers: http.IncomingHttpHeaders = {}
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue
    if (name === 'set-cookie') headers[name] = ([] as (string | number)[]).concat(value).map(String)
    else headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return headers
}

/** The answer as fetch() would give it. */
function responseOf(answer: InjectResponse, method: string): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const each of ([] as (string | number | undefined)[]).concat(value)) if (each !== undefined) headers.append(name, String(each))
  }
  const noBody = method === 'HEAD' || [101, 204, 205, 304].includes(answer.statusCode)
  return new Response(noBody ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, statusText: answer.statusMessage, headers })
}
