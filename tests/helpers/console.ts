import type { FastifyInstance } from 'fastify'
// Talking to the owner's console the way its own pages do, for integration tests.
import { expect } from 'vitest'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { runCliWithInput } from './cli.ts'
import type { Fetch } from './contact.ts'
import { storeEnv } from './postgres.ts'
import type { ServerProcess } from './server.ts'

export interface ConsoleCall {
  method?: string
  /** JSON; a Buffer goes as its bytes, a file as the statement page sends it (application/xml). */
  body?: unknown
  cookie?: string
  client?: string
  headers?: Record<string, string>
}

/**
 * A server process, or an app in process (InProcessApp in helpers/app.ts), whose `fetch` answers through inject
 * what fetch() would send to its console's port.
 */
export function consoleClient(server: Pick<ServerProcess, 'adminUrl' | 'dataDir'> & { fetch?: Fetch }, password = 'Kanzlei-Rheinblick-2026') {
  const admin = server.adminUrl!
  const send = server.fetch ?? fetch
  /** A request as the console's page sends it: same origin, with the console's header on changes. */
  function call(pathName: string, { method = 'GET', body, cookie, client = '192.0.2.1', headers = {} }: ConsoleCall = {}) {
    return send(`${admin}${pathName}`, {
      method,
      redirect: 'manual',
      headers: {
        'x-forwarded-for': client,
        ...(method !== 'GET' && { [CONSOLE_HEADER]: '1', origin: admin }),
        ...(body !== undefined && { 'content-type': Buffer.isBuffer(body) ? 'application/xml' : 'application/json' }),
        ...(cookie && { cookie }),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : Buffer.isBuffer(body)
            ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength)
            : JSON.stringify(body),
    })
  }
  async function setPassword(newPassword = password, dataDir = server.dataDir) {
    return runCliWithInput(dataDir, await storeEnv(dataDir), `${newPassword}\n`, 'set-password', '--stdin')
  }
  /** Signs in; the cookie as the browser would send it back, and the whole Set-Cookie header. */
  async function signIn(options: ConsoleCall = {}) {
    const response = await call('/api/session', { method: 'POST', body: { password }, ...options })
    expect(response.status).toBe(204)
    const setCookie = response.headers.getSetCookie()[0] ?? ''
    return { cookie: setCookie.split(';')[0]!, setCookie }
  }
  return { admin, call, setPassword, signIn }
}

/**
 * Every route an app answers (HEAD ones included), read from Fastify's own printout of its router: a tree whose
 * lines each add a piece of the path ("├── pi/"), four places further in per level, with the methods of a path that
 * is a route ("(GET, HEAD)").
 */
export function consoleRoutesOf(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = []
  const pieces: string[] = []
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?$/.exec(line)
    if (!match) continue
    pieces.length = match[1]!.length / 4
    pieces.push(match[2]!)
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url: pieces.join('') })
  }
  return routes
}

/** A Set-Cookie header as its name=value pair and its attributes, sorted: their order carries no meaning. */
export function cookieParts(setCookie: string): { pair: string; attributes: string[] } {
  const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim())
  return { pair, attributes: attributes.sort() }
}
