// The owner's console from outside: its own port, the password set with the CLI, signing in and out, the session
// cookie, brute force, cross-site requests, and a public port that knows nothing of it.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hashPassword } from '../../src/server/admin/password.ts'
import { createConsoleRenderer } from '../../src/server/admin/render.ts'
import { CONSOLE_HEADER, type ConsoleState } from '../../src/shared/console-api.ts'
import { startApp } from '../helpers/app.ts'
import { runCliProcessWithInput } from '../helpers/cli.ts'
import { consoleClient, consoleRoutesOf, cookieParts } from '../helpers/console.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const CONSOLE_DIR = path.resolve(import.meta.dirname, '../../dist/console')
const PASSWORD = 'Kanzlei-Rheinblick-2026'
const WRONG = { status: 401, body: { error: 'Das Passwort ist falsch.' } }

let server: ServerProcess
let admin: string
/** Each test signs in from an address of its own (ADMIN_TRUST_PROXY): the failed sign-ins of one do not block another. */
let clients = 0
const newClient = () => `198.51.100.${++clients}`

let call: ReturnType<typeof consoleClient>['call']
let signIn: ReturnType<typeof consoleClient>['signIn']
let setPassword: ReturnType<typeof consoleClient>['setPassword']

beforeAll(async () => {
  server = await startServerProcess({ ADMIN_TRUST_PROXY: 'true' })
  ;({ admin, call, signIn, setPassword } = consoleClient(server, PASSWORD))
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

const answer = async (response: Response) => ({ status: response.status, body: await response.json() })

/** The page the console's renderer makes for this state, with the nonce this answer got. */
/** The page without the moment it was rendered at (the server's clock and the test's differ by a few ms). */
const timeless = (html: string) => html.replace(/ data-rendered-at="\d+"/, '')

function expectedPage(response: Response, state: ConsoleState) {
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')![1]!
  return timeless(createConsoleRenderer(CONSOLE_DIR).page(state, nonce))
}

describe('in order: before and after the password', () => {
  test('until a password is set, every page of the console shows only how to set one, and the API refuses', async () => {
    for (const pathName of ['/', '/anmelden', '/postausgang', '/uebersicht', '/anfragen/1', '/irgendwas']) {
      const response = await call(pathName)
      expect(response.status, pathName).toBe(200)
      expect(timeless(await response.text()), pathName).toBe(expectedPage(response, { page: 'setup' }))
    }
    for (const pathName of ['/api/inbox', '/api/inquiries/1']) {
      expect(await answer(await call(pathName))).toEqual({ status: 401, body: { error: expect.stringContaining('set-password') } })
    }
    const signIn = await call('/api/session', { method: 'POST', body: { password: PASSWORD } })
    expect(await answer(signIn)).toEqual({ status: 401, body: { error: expect.stringContaining('set-password') } })
  })

  test('set-password refuses a short password and a common one with exit code 1, and sets a good one', async () => {
    const short = await setPassword('kurz1234')
    expect(short.code).toBe(1)
    expect(short.err.trim()).toBe('domain-lander: the password must be at least 12 characters long')
    for (const common of ['passwort1234', 'Passwort1234', '123456789012', 'QWERTZUIOP12']) {
      const refused = await setPassword(common)
      expect(refused.code, common).toBe(1)
      expect(refused.err.trim()).toBe('domain-lander: this password is one of the most common ones: choose another')
    }
    expect((await call('/')).status).toBe(200)

    const set = await setPassword(PASSWORD)
    expect(set.code, set.err).toBe(0)
    expect(set.out).toContain('The console password is set')
    const page = await call('/')
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/anmelden')
  })

  test('set-password without a terminal and without --stdin says how to use it', async () => {
    // Its own process, with standard input a pipe: no terminal to ask on.
    const run = await runCliProcessWithInput(server.dataDir, await storeEnv(server.dataDir), `${PASSWORD}\n`, 'set-password')
    expect(run.code).toBe(1)
    expect(run.err.trim()).toBe('domain-lander: set-password asks on a terminal; in a script, pipe the password in with --stdin')
  })

  test('signed out, a page sends the browser to the sign-in page and the API answers 401', async () => {
    const page = await call('/postausgang')
    expect([page.status, page.headers.get('location')]).toEqual([303, '/anmelden'])
    const signInPage = await call('/anmelden')
    expect(signInPage.status).toBe(200)
    expect(timeless(await signInPage.text())).toBe(expectedPage(signInPage, { page: 'signin' }))
    expect(await answer(await call('/api/inbox'))).toEqual({ status: 401, body: { error: 'Bitte anmelden.' } })
  })

  test('a wrong password, a missing one and a malformed body get the same answer', async () => {
    const client = newClient()
    const wrong = (body: unknown) => call('/api/session', { method: 'POST', body, client }).then(answer)
    expect(await wrong({ password: 'Kanzlei-Rheinblick-2025' })).toEqual(WRONG)
    expect(await wrong({ password: '' })).toEqual(WRONG)
    expect(await wrong({})).toEqual(WRONG)
    expect(await wrong({ password: 42 })).toEqual(WRONG)
  })

  test('signing in opens the console; signing out ends the session and clears the cookie', async () => {
    const { cookie } = await signIn({ client: newClient() })
    const inbox = await call('/', { cookie })
    expect(inbox.status).not.toBe(303)
    expect((await call('/anmelden', { cookie })).headers.get('location')).toBe('/')
    expect((await call('/api/inbox', { cookie })).status).not.toBe(401)

    const signOut = await call('/api/session', { method: 'DELETE', cookie })
    expect(signOut.status).toBe(204)
    expect(signOut.headers.getSetCookie().map(cookieParts)).toEqual([
      { pair: 'console-session=', attributes: ['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Strict'] },
    ])
    expect((await call('/', { cookie })).status).toBe(303)
    expect((await call('/api/inbox', { cookie })).status).toBe(401)
  })

  test('over plain http the cookie is HttpOnly and SameSite=Strict without Secure (a browser would drop it)', async () => {
    const { setCookie } = await signIn({ client: newClient() })
    expect(cookieParts(setCookie)).toEqual({
      pair: expect.stringMatching(/^console-session=[\w-]{43}$/),
      attributes: ['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Strict'],
    })
  })

  test('behind a TLS proxy (ADMIN_TRUST_PROXY, X-Forwarded-Proto: https) the cookie is __Host- and Secure, and only that one counts', async () => {
    const https = { 'x-forwarded-proto': 'https' }
    const { cookie, setCookie } = await signIn({ client: newClient(), headers: https })
    expect(cookieParts(setCookie)).toEqual({
      pair: expect.stringMatching(/^__Host-console-session=[\w-]{43}$/),
      attributes: ['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Strict', 'Secure'],
    })
    expect((await call('/api/inbox', { cookie, headers: https })).status).not.toBe(401)
    // The same id under the plain name (which a sibling subdomain could have set) is not read over https.
    const plain = cookie.replace('__Host-console-session', 'console-session')
    expect((await call('/api/inbox', { cookie: plain, headers: https })).status).toBe(401)
    // And the __Host- cookie is not read over http.
    expect((await call('/api/inbox', { cookie })).status).toBe(401)
  })

  test('a session id the client brought before signing in is never honoured', async () => {
    const planted = `console-session=${'A'.repeat(43)}`
    const { cookie } = await signIn({ client: newClient(), cookie: planted })
    expect(cookie).not.toBe(planted)
    expect((await call('/api/inbox', { cookie: planted })).status).toBe(401)
    expect((await call('/api/inbox', { cookie })).status).not.toBe(401)
  })

  test('after 5 wrong passwords within 15 minutes the client gets 429 with Retry-After, logged without its address', async () => {
    const client = '203.0.113.77'
    const attempt = (password: string) => call('/api/session', { method: 'POST', body: { password }, client })
    for (let i = 0; i < 5; i++) expect(await answer(await attempt(`falsch-falsch-${i}`))).toEqual(WRONG)
    const refused = await attempt('falsch-falsch-5')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900)
    expect((await answer(refused)).body.error).toBe('Zu viele falsche Passwörter. Bitte versuchen Sie es später erneut.')
    // Not even the right password gets through now; another client does.
    expect((await attempt(PASSWORD)).status).toBe(429)
    await signIn({ client: newClient() })

    await expect.poll(() => server.output.some((line) => line.includes('wrong passwords from one client'))).toBe(true)
    expect(server.output.filter((line) => line.includes('203.0.113.77'))).toEqual([])
  })

  test('a successful sign-in does not count as a failure', async () => {
    const client = newClient()
    const attempt = (password: string) => call('/api/session', { method: 'POST', body: { password }, client })
    for (let i = 0; i < 4; i++) expect((await attempt(`falsch-falsch-${i}`)).status).toBe(401)
    expect((await attempt(PASSWORD)).status).toBe(204)
    expect((await attempt('falsch-falsch-4')).status).toBe(401)
    expect((await attempt('falsch-falsch-5')).status).toBe(429)
  })

  test('a cross-site request, or one without the console header, is refused with 403 before anything else', async () => {
    const { cookie } = await signIn({ client: newClient() })
    const refused = { status: 403, body: { error: 'Anfragen von anderen Websites werden nicht angenommen.' } }
    const post = (headers: Record<string, string>, withCookie = false) =>
      call('/api/session', { method: 'POST', body: { password: PASSWORD }, headers, ...(withCookie && { cookie }) }).then(answer)
    expect(await post({ origin: 'https://evil.example' })).toEqual(refused)
    expect(await post({ 'sec-fetch-site': 'cross-site' })).toEqual(refused)
    expect(await post({ 'sec-fetch-site': 'same-site' })).toEqual(refused)
    const withoutHeader = await fetch(`${admin}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: admin },
      body: JSON.stringify({ password: PASSWORD }),
    })
    expect(await answer(withoutHeader)).toEqual(refused)
    // Signing out on the owner's behalf from another site does not work either.
    const signOut = await call('/api/session', { method: 'DELETE', cookie, headers: { origin: 'https://evil.example' } })
    expect(signOut.status).toBe(403)
    expect((await call('/api/inbox', { cookie })).status).not.toBe(401)
  })

  test('every answer of the console carries the strict policy, no-store and DENY framing', async () => {
    const { cookie } = await signIn({ client: newClient() })
    const answers = [
      await call('/anmelden'),
      await call('/'),
      await call('/api/inbox'),
      await call('/gibt-es-nicht', { cookie }),
      await call('/api/session', { method: 'POST', body: { password: 'x' }, client: newClient() }),
      await call('/api/session', { method: 'POST', body: {}, headers: { origin: 'https://evil.example' } }),
    ]
    for (const response of answers) {
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp).toMatch(/(^|;)script-src 'self' 'nonce-[0-9a-f]{32}'(;|$)/)
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("default-src 'self'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toMatch(/https?:/)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
    }
  })

  test('a new password ends every session', async () => {
    const { cookie } = await signIn({ client: newClient() })
    const other = await signIn({ client: newClient(), headers: { 'x-forwarded-proto': 'https' } })
    expect((await setPassword(PASSWORD)).code).toBe(0)
    expect((await call('/api/inbox', { cookie })).status).toBe(401)
    expect((await call('/api/inbox', { cookie: other.cookie, headers: { 'x-forwarded-proto': 'https' } })).status).toBe(401)
  })
})

test('no route of the console answers without a session but the sign-in page, signing in and its static files', async () => {
  const app = await startApp()
  try {
    await (await app.store()).setOwnerPassword(await hashPassword(PASSWORD), Date.now())
    const routes = consoleRoutesOf(app.app.admin!)
    // The list is the app's own; these must be in it, or the walk below proves nothing.
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/' },
        { method: 'HEAD', url: '/' },
        { method: 'DELETE', url: '/api/session' },
        { method: 'POST', url: '/api/inquiries/:id/action' },
        { method: 'GET', url: '/postausgang' },
        { method: 'GET', url: '/assets/*' },
      ]),
    )
    expect(routes.length).toBeGreaterThan(40)
    const open = new Set([
      'GET /anmelden',
      'HEAD /anmelden',
      'POST /api/session',
      // Signing in with a passkey (decision 041): its challenge, and its answer.
      'POST /api/session/passkey/options',
      'POST /api/session/passkey',
      'GET /assets/*',
      'HEAD /assets/*',
    ])
    const unknownPaths = [
      { method: 'GET', url: '/gibt-es-nicht' },
      { method: 'GET', url: '/api/gibt-es-nicht' },
      { method: 'POST', url: '/api/gibt-es-nicht' },
    ]
    for (const route of [...routes, ...unknownPaths]) {
      if (open.has(`${route.method} ${route.url}`)) continue
      const url = route.url.replace(/:\w+/g, '1').replace('*', 'x')
      for (const cookie of [undefined, `console-session=${'B'.repeat(43)}`]) {
        const response = await app.app.admin!.inject({
          method: route.method as 'GET',
          url,
          headers: { [CONSOLE_HEADER]: '1', ...(cookie && { cookie }) },
          ...(!['GET', 'HEAD', 'OPTIONS'].includes(route.method) && { payload: {} }),
        })
        expect([401, 303], `${route.method} ${route.url} answered ${response.statusCode} without a session`).toContain(response.statusCode)
      }
    }
  } finally {
    await app.close()
  }
})

describe('the public port', () => {
  const consoleAsset = () => {
    const assets = path.join(CONSOLE_DIR, 'assets')
    return fs.existsSync(assets) ? (fs.readdirSync(assets).find((name) => /\.(js|css)$/.test(name)) ?? 'console.js') : 'console.js'
  }
  const requests = () => [
    ...['/anmelden', '/postausgang', '/uebersicht', '/anfragen/1', '/domains-importieren', `/assets/${consoleAsset()}`].map((url) => ({ method: 'GET', url })),
    ...['/api/session', '/api/inbox', '/api/inquiries/1', '/api/export', '/api/outbox', '/api/overview'].map((url) => ({ method: 'GET', url })),
    { method: 'POST', url: '/api/session' },
    { method: 'POST', url: '/api/import/apply' },
    { method: 'DELETE', url: '/api/session' },
  ]

  /** Status, headers but Date and body, with this answer's nonce taken out. */
  async function seen(base: string, { method, url }: { method: string; url: string }) {
    const response = await fetch(`${base}${url}`, {
      method,
      redirect: 'manual',
      headers: method === 'GET' ? {} : { 'content-type': 'application/json', [CONSOLE_HEADER]: '1' },
      body: method === 'GET' ? undefined : JSON.stringify({ password: PASSWORD }),
    })
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1] ?? '\0'
    const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date').map(([n, v]) => [n, v.replaceAll(nonce, 'NONCE')]))
    return { status: response.status, headers, body: (await response.text()).replaceAll(nonce, 'NONCE') }
  }

  test('answers 404 for every console path and asset, the same whether the console is on or off', async () => {
    const off = await startServerProcess({ ADMIN_PORT: 'off' })
    try {
      expect(off.adminUrl).toBeNull()
      expect(off.output.join('\n')).toContain('the console is off (ADMIN_PORT=off)')
      for (const request of requests()) {
        const withConsole = await seen(server.url, request)
        expect(withConsole.status, `${request.method} ${request.url}`).toBe(404)
        expect(withConsole, `${request.method} ${request.url}`).toEqual(await seen(off.url, request))
      }
    } finally {
      await off.stop()
      off.cleanup()
    }
  })
})

test('with WORKERS=2 the console answers on its port', async () => {
  const cluster = await startServerProcess({ WORKERS: '2' })
  try {
    expect(cluster.adminUrl).not.toBeNull()
    expect((await fetch(`${cluster.adminUrl}/anmelden`)).status).toBe(200)
  } finally {
    expect(await cluster.stop()).toBe(0)
    cluster.cleanup()
  }
})
