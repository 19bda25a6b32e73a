// The console's second factor, passkey routes and sessions page from outside (decision 041): every new route needs a
// session and refuses other sites, a password alone no longer signs in once TOTP is on, a code works once, a
// recovery code once, wrong codes count against their own limit, `set-password --reset-2fa`, switching it on ends
// the other sessions, the sessions list, and no secret in the log. Passkeys themselves are tested in Chromium (tests/e2e/console-passkeys.test.ts). The
// routes are answered by the app in process; what the log says, and a restart, by the real server process.
import { TOTP } from 'otpauth'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { SecondFactorConfirmed, SecondFactorSetup, SessionsPageData } from '../../src/shared/sign-in-api.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
let app: InProcessApp
let client: ReturnType<typeof consoleClient>
/** For the tests that read the log. */
let server: ServerProcess
let processClient: ReturnType<typeof consoleClient>
let clients = 0
const newClient = () => `198.51.100.${++clients}`

beforeAll(async () => {
  app = await buildTestApp({ ADMIN_TRUST_PROXY: 'true' })
  client = consoleClient(app, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  server = await startServerProcess({ ADMIN_TRUST_PROXY: 'true' })
  processClient = consoleClient(server, PASSWORD)
  expect((await processClient.setPassword()).code).toBe(0)
})
afterAll(async () => {
  await app?.close()
  await server?.stop()
  server?.cleanup()
})

/** Every route this feature added, with a body where it takes one. */
const NEW_ROUTES: { method: string; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/anmeldung' },
  { method: 'GET', url: '/sitzungen' },
  { method: 'GET', url: '/api/security' },
  { method: 'GET', url: '/api/sessions' },
  { method: 'POST', url: '/api/passkeys/options' },
  { method: 'POST', url: '/api/passkeys', body: { name: 'x', response: { id: 'x', response: { clientDataJSON: 'x' } } } },
  { method: 'DELETE', url: '/api/passkeys/1' },
  { method: 'POST', url: '/api/second-factor/setup' },
  { method: 'POST', url: '/api/second-factor/confirm', body: { code: '123456' } },
  { method: 'POST', url: '/api/second-factor/disable', body: { code: '123456' } },
  { method: 'DELETE', url: `/api/sessions/${'A'.repeat(22)}` },
  { method: 'DELETE', url: '/api/sessions' },
]
const CHANGING = NEW_ROUTES.filter((route) => route.method !== 'GET')

const codeAt = (secret: string, timestamp: number) => new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp })

test('every new route needs a session: pages go to the sign-in page, the API answers 401', async () => {
  for (const route of NEW_ROUTES) {
    const response = await client.call(route.url, { method: route.method, body: route.body, client: newClient() })
    if (route.method === 'GET' && !route.url.startsWith('/api/'))
      expect([response.status, response.headers.get('location')], route.url).toEqual([303, '/anmelden'])
    else expect(response.status, `${route.method} ${route.url}`).toBe(401)
  }
})

test('every new state-changing route refuses another site (Origin, Sec-Fetch-Site) and a request without the console header, with a valid session', async () => {
  const { cookie } = await client.signIn({ client: newClient() })
  for (const route of CHANGING) {
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }] as Record<
      string,
      string
    >[]) {
      const response = await client.call(route.url, { method: route.method, body: route.body, cookie, headers })
      expect(response.status, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(403)
    }
    const withoutHeader = await app.fetch(`${client.admin}${route.url}`, {
      method: route.method,
      headers: { cookie, origin: client.admin, 'content-type': 'application/json' },
      body: JSON.stringify(route.body ?? {}),
    })
    expect(withoutHeader.status, `${route.method} ${route.url} without the header`).toBe(403)
  }
  // Nothing of it took effect: the session lives, no second factor is being set up.
  expect((await client.call('/api/sessions', { cookie })).status).toBe(200)
  expect(await (await client.call('/api/security', { cookie })).json()).toMatchObject({ secondFactor: { on: false } })
})

test('the sessions page lists each session with browser and address in part; one signs out another, then everywhere', async () => {
  const mine = await client.signIn({ client: '203.0.113.9', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36' } })
  const other = await client.signIn({ client: '192.0.2.44', headers: { 'user-agent': '<script>alert(1)</script> Firefox/132.0 (Windows NT 10.0)' } })
  const listed = (await (await client.call('/api/sessions', { cookie: mine.cookie })).json()) as SessionsPageData
  const current = listed.sessions.find((session) => session.current)!
  expect(current).toMatchObject({ browser: 'Chrome auf Linux', address: '203.0.x.x', method: 'password' })
  const theirs = listed.sessions.find((session) => session.address === '192.0.x.x')!
  expect(theirs).toMatchObject({ browser: 'Firefox auf Windows', current: false })
  // Neither the whole address nor the session id or its hash leaves the server.
  const text = JSON.stringify(listed)
  expect(text).not.toContain('203.0.113.9')
  expect(text).not.toContain(mine.cookie.split('=')[1])

  expect((await client.call(`/api/sessions/${theirs.ref}`, { method: 'DELETE', cookie: mine.cookie })).status).toBe(200)
  expect((await client.call('/api/inbox', { cookie: other.cookie })).status).toBe(401)
  expect((await client.call('/api/inbox', { cookie: mine.cookie })).status).toBe(200)
  expect((await client.call(`/api/sessions/${theirs.ref}`, { method: 'DELETE', cookie: mine.cookie })).status).toBe(404)

  const third = await client.signIn({ client: newClient() })
  const everywhere = await client.call('/api/sessions', { method: 'DELETE', cookie: mine.cookie })
  expect(everywhere.status).toBe(204)
  expect(everywhere.headers.getSetCookie()[0]).toMatch(/^console-session=; /)
  for (const cookie of [mine.cookie, third.cookie]) expect((await client.call('/api/inbox', { cookie })).status).toBe(401)
})

test('TOTP: confirmed with one code; then a password alone signs nobody in, a code works once, a recovery code once; wrong codes count; --reset-2fa ends it; no secret in the log', async () => {
  const client = processClient
  const { cookie } = await client.signIn({ client: newClient() })
  const setup = (await (await client.call('/api/second-factor/setup', { method: 'POST', cookie })).json()) as SecondFactorSetup
  expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/)
  expect(setup.uri).toContain(`secret=${setup.secret}`)
  // Not on before it is confirmed: the password alone still signs in.
  await client.signIn({ client: newClient() })
  const wrongConfirm = await client.call('/api/second-factor/confirm', {
    method: 'POST',
    cookie,
    body: { code: codeAt(setup.secret, Date.now() - 10 * 60_000) },
  })
  expect(wrongConfirm.status).toBe(400)
  const confirm = await client.call('/api/second-factor/confirm', { method: 'POST', cookie, body: { code: codeAt(setup.secret, Date.now()) } })
  expect(confirm.status).toBe(200)
  const { recoveryCodes } = (await confirm.json()) as SecondFactorConfirmed
  expect(recoveryCodes).toHaveLength(10)
  expect(new Set(recoveryCodes).size).toBe(10)

  const attempt = (body: Record<string, string>, from: string) =>
    client.call('/api/session', { method: 'POST', body: { password: PASSWORD, ...body }, client: from })
  // The password alone: no session, a request for the code.
  const passwordOnly = await attempt({}, newClient())
  expect(passwordOnly.status).toBe(200)
  expect(await passwordOnly.json()).toEqual({ secondFactor: true })
  expect(passwordOnly.headers.getSetCookie()).toEqual([])
  // A wrong password with any code is just a wrong password.
  const wrongPassword = await client.call('/api/session', {
    method: 'POST',
    body: { password: 'falsch-falsch-1', code: codeAt(setup.secret, Date.now()) },
    client: newClient(),
  })
  expect(wrongPassword.status).toBe(401)

  // The code of the next step (the one used to confirm is spent): once, then refused as a replay.
  const next = codeAt(setup.secret, Date.now() + 30_000)
  const first = await attempt({ code: next }, newClient())
  expect(first.status).toBe(204)
  expect(first.headers.getSetCookie()[0]).toMatch(/^console-session=/)
  const replay = await attempt({ code: next }, newClient())
  expect(replay.status).toBe(401)
  expect((await replay.json()).error).toBe('Der Code ist falsch oder wurde schon benutzt.')

  // A recovery code, typed in capitals with spaces: once.
  const recovery = recoveryCodes[3]!
  expect((await attempt({ code: recovery.toUpperCase().replace(/-/g, ' ') }, newClient())).status).toBe(204)
  expect((await attempt({ code: recovery }, newClient())).status).toBe(401)
  const security = await (
    await client.call('/api/security', { cookie: `console-session=${first.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]}` })
  ).json()
  expect(security).toMatchObject({ secondFactor: { on: true, recoveryCodesLeft: 9 } })

  // Five wrong codes from one client: the sixth attempt is refused even with the right code.
  const guesser = '203.0.113.200'
  for (let i = 0; i < 5; i++) expect((await attempt({ code: String(100000 + i) }, guesser)).status).toBe(401)
  expect((await attempt({ code: codeAt(setup.secret, Date.now() + 30_000) }, guesser)).status).toBe(429)

  // Lost phone: the CLI switches the factor off and ends every session; the password alone signs in again.
  const reset = await runCli(server.dataDir, await storeEnv(server.dataDir), 'set-password', '--reset-2fa')
  expect(reset.code, reset.err).toBe(0)
  expect(reset.out).toContain('The second factor is off')
  expect((await client.call('/api/inbox', { cookie })).status).toBe(401)
  await client.signIn({ client: newClient() })

  const log = server.output.join('\n')
  expect(log).toContain('console: second factor switched on')
  expect(log).not.toContain(setup.secret)
  for (const code of recoveryCodes) expect(log).not.toContain(code)
  // Some twenty password checks, each a deliberately slow hash: 11 s alone, 44 s once with the machine five times
  // over-committed (2026-11-29), past the default 30 s.
}, 120_000)

test('switching the factor off needs a current code, and ends every session', async () => {
  const { cookie } = await client.signIn({ client: newClient() })
  const setup = (await (await client.call('/api/second-factor/setup', { method: 'POST', cookie })).json()) as SecondFactorSetup
  expect((await client.call('/api/second-factor/confirm', { method: 'POST', cookie, body: { code: codeAt(setup.secret, Date.now()) } })).status).toBe(200)
  expect((await client.call('/api/second-factor/setup', { method: 'POST', cookie })).status).toBe(409)
  expect((await client.call('/api/second-factor/disable', { method: 'POST', cookie, body: { code: '000000' } })).status).toBe(400)
  expect((await client.call('/api/second-factor/disable', { method: 'POST', cookie, body: { code: codeAt(setup.secret, Date.now() + 30_000) } })).status).toBe(
    200,
  )
  expect((await client.call('/api/inbox', { cookie })).status).toBe(401)
  await client.signIn({ client: newClient() })
})

test('switching the factor on ends every other session, and keeps the one that switched it on', async () => {
  const mine = await client.signIn({ client: newClient() })
  const other = await client.signIn({ client: newClient() })
  const setup = (await (await client.call('/api/second-factor/setup', { method: 'POST', cookie: mine.cookie })).json()) as SecondFactorSetup
  // Being set up is not on yet: the other session stays until the code confirms it.
  expect((await client.call('/api/inbox', { cookie: other.cookie })).status).toBe(200)
  const confirm = await client.call('/api/second-factor/confirm', { method: 'POST', cookie: mine.cookie, body: { code: codeAt(setup.secret, Date.now()) } })
  expect(confirm.status).toBe(200)
  expect((await client.call('/api/inbox', { cookie: other.cookie })).status).toBe(401)
  expect((await client.call('/api/inbox', { cookie: mine.cookie })).status).toBe(200)
  const disable = await client.call('/api/second-factor/disable', {
    method: 'POST',
    cookie: mine.cookie,
    body: { code: codeAt(setup.secret, Date.now() + 30_000) },
  })
  expect(disable.status).toBe(200)
})

const storedSecret = async (dataDir: string) => (await queryStore<{ secret: string }>(dataDir, 'SELECT secret FROM totp'))[0]!.secret

test('the TOTP secret is stored sealed, and a code still signs in, also after a restart', async () => {
  const own = await startServerProcess({ ADMIN_TRUST_PROXY: 'true' })
  const ownClient = consoleClient(own, PASSWORD)
  let again: ServerProcess | undefined
  try {
    expect((await ownClient.setPassword()).code).toBe(0)
    const { cookie } = await ownClient.signIn({ client: newClient() })
    const setup = (await (await ownClient.call('/api/second-factor/setup', { method: 'POST', cookie })).json()) as SecondFactorSetup
    // Sealed already while being set up: the secret shown once is nowhere in the database.
    expect(await storedSecret(own.dataDir)).not.toContain(setup.secret)
    expect((await ownClient.call('/api/second-factor/confirm', { method: 'POST', cookie, body: { code: codeAt(setup.secret, Date.now()) } })).status).toBe(200)
    const sealed = await storedSecret(own.dataDir)
    expect(sealed).toMatch(/^v1\./)
    expect(sealed).not.toContain(setup.secret)
    const attempt = (code: string) => ownClient.call('/api/session', { method: 'POST', body: { password: PASSWORD, code }, client: newClient() })
    expect((await attempt(codeAt(setup.secret, Date.now() + 30_000))).status).toBe(204)

    // A restart opens the sealed secret with the key in DATA_DIR (a store made before the sealing: sign-in.test.ts).
    await own.stop()
    // Forgets the step used above, so that this minute's code is not refused as its replay.
    await queryStore(own.dataDir, 'UPDATE totp SET last_step = 0')
    again = await startServerProcess({ ADMIN_TRUST_PROXY: 'true', DATA_DIR: own.dataDir })
    expect(await storedSecret(own.dataDir)).toBe(sealed)
    const againClient = consoleClient(again, PASSWORD)
    const retry = (code: string) => againClient.call('/api/session', { method: 'POST', body: { password: PASSWORD, code }, client: newClient() })
    expect((await retry('000000')).status).toBe(401)
    expect((await retry(codeAt(setup.secret, Date.now()))).status).toBe(204)
    expect(again.output.join('\n')).not.toContain(setup.secret)
  } finally {
    await again?.stop()
    await own.stop()
    own.cleanup()
  }
})

test('a console at a plain-http address that is not localhost says in the log and on its page that passkeys cannot work there', async () => {
  const plain = await startServerProcess({ ADMIN_URL: 'http://konsole.example:8081' })
  try {
    const other = consoleClient(plain, PASSWORD)
    expect((await other.setPassword()).code).toBe(0)
    expect(plain.output.join('\n')).toContain('console: passkeys cannot work at ADMIN_URL http://konsole.example:8081')
    const { cookie } = await other.signIn()
    // By the address 127.0.0.1: an IP address is never a relying-party id.
    const page = await (await other.call('/anmeldung', { cookie })).text()
    expect(page).toContain('Passkeys gehen nicht unter einer IP-Adresse')
    const options = await other.call('/api/passkeys/options', { method: 'POST', cookie })
    expect(options.status).toBe(409)
    await expect.poll(() => plain.output.some((line) => line.includes('passkeys cannot work at http://127.0.0.1'))).toBe(true)
  } finally {
    await plain.stop()
    plain.cleanup()
  }
})

test("a passkey challenge handed to one browser's session cannot be answered by another's, and a name with control characters is refused", async () => {
  const a = await client.signIn({ client: newClient() })
  const b = await client.signIn({ client: newClient() })
  const options = await client.call('/api/passkeys/options', { method: 'POST', cookie: a.cookie })
  expect(options.status).toBe(409)
  // 127.0.0.1 is no relying-party id: by the name localhost, as the owner's tunnel is opened for passkeys.
  const local = (pathName: string, cookie: string, body?: unknown) =>
    app.fetch(`${client.admin.replace('127.0.0.1', 'localhost')}${pathName}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-domain-lander-console': '1',
        origin: client.admin.replace('127.0.0.1', 'localhost'),
        cookie,
        'x-forwarded-for': newClient(),
      },
      body: JSON.stringify(body ?? {}),
    })
  const { challenge } = (await (await local('/api/passkeys/options', a.cookie)).json()) as { challenge: string }
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: client.admin.replace('127.0.0.1', 'localhost') })).toString(
    'base64url',
  )
  const answer = {
    name: 'Fremd',
    response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON, attestationObject: 'AAAA' }, clientExtensionResults: {} },
  }
  const byOther = await local('/api/passkeys', b.cookie, answer)
  expect(byOther.status).toBe(400)
  expect((await byOther.json()).error).toContain('abgelaufen oder wurde schon benutzt')
  // Taken by that attempt: not even its own session can use it now.
  expect((await local('/api/passkeys', a.cookie, answer)).status).toBe(400)
  const controlName = await local('/api/passkeys', a.cookie, { ...answer, name: 'Laptop\u001b[31m' })
  expect(controlName.status).toBe(400)
  expect((await controlName.json()).error).toContain('keine Steuerzeichen')
})
