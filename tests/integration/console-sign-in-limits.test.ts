// Password guessing against the console where the client chooses its address (issue 12/19, break 7): the public
// port's TRUST_PROXY, the SSH tunnel that connects from 127.0.0.1 like a proxy on the same machine, a proxy that is
// trusted, many addresses at once, and a page of another name reaching the console through the owner's tunnel (DNS
// rebinding). Counters live in the store: run on SQLite and PostgreSQL. Which hosts the console answers is a matter of
// the Host header alone, answered by the app in process; the guesses from many addresses run against the real server
// process, as what it logs about them (and about a TRUST_PROXY without ADMIN_TRUST_PROXY) is part of what they test.
// The budgets of the second factor and the passkeys (issue 20/27, break 3; decision 041) by the app in process, with
// a passkey made in software.
import { TOTP } from 'otpauth'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { hashPassword } from '../../src/server/admin/password.ts'
import { CODE_FAILURES_DAY, SIGN_IN_FAILURES_ALL } from '../../src/server/admin/session/route.ts'
import { openStore } from '../../src/server/store/index.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import type { SecondFactorConfirmed, SecondFactorSetup } from '../../src/shared/sign-in-api.ts'
import { consoleClient, cookieParts } from '../helpers/console.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { softwarePasskey } from '../helpers/passkey.ts'
import { databaseUrlFor } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const TOO_MANY = 'Zu viele falsche Passwörter. Bitte versuchen Sie es später erneut.'
const BAD_HOST = { error: 'Diese Adresse ist ungültig.' }

let server: ServerProcess | undefined
let app: InProcessApp | undefined
afterEach(async () => {
  vi.useRealTimers()
  // Killed, not stopped: the shutdown is not what these tests look at, and a stop drains for a second.
  await server?.kill()
  server?.cleanup()
  await app?.close()
  server = app = undefined
})

/**
 * scrypt's parameters for the password these tests guess at: the hash names its own, so the server checks each of
 * the hundreds of guesses here in a millisecond rather than 100 ms (seconds on a busy machine). What is tested is how
 * the guesses are counted; the cost of the owner's hash is src/server/admin/password.test.ts's. `set-password`, the
 * owner's way back in, still writes the full cost.
 */
const CHEAP_HASH = { N: 2 ** 10, r: 8, p: 1 }

/** Sets the owner's password in the store as `set-password` does, with CHEAP_HASH, for the server at `dataDir`. */
async function setCheapPassword(dataDir: string) {
  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  try {
    await store.setOwnerPassword(await hashPassword(PASSWORD, CHEAP_HASH), Date.now())
  } finally {
    await store.close()
  }
}

async function start(env: Record<string, string>) {
  server = await startServerProcess(env)
  const client = consoleClient(server, PASSWORD)
  await setCheapPassword(server.dataDir)
  /** A sign-in whose X-Forwarded-For names `address`. */
  const attempt = (password: string, address: string, headers: Record<string, string> = {}) =>
    client.call('/api/session', { method: 'POST', body: { password }, client: address, headers })
  return { ...client, server, attempt }
}

/** The app in process, with a password set: for what the Host header alone decides. */
async function build(env: Record<string, string>) {
  app = await buildTestApp(env)
  const client = consoleClient(app, PASSWORD)
  await setCheapPassword(app.dataDir)
  return client
}

/** A request with any Host header, to the app in process. */
const requestAs: InProcessApp['requestAs'] = (...args) => app!.requestAs(...args)

/** A sign-in with any Host header, as a page of that name (or a tunnel on that local port) sends it. */
function signInAs(host: string, password: string) {
  return requestAs(host, `${app!.adminUrl}/api/session`, {
    method: 'POST',
    body: { password },
    headers: { origin: `http://${host}`, [CONSOLE_HEADER]: '1' },
  })
}

describe('guessing from many addresses', () => {
  test("with the public port's TRUST_PROXY=true, a direct connection that writes a new X-Forwarded-For for every guess is one client; set-password lets the owner in again", async () => {
    const { attempt, call, setPassword } = await start({ TRUST_PROXY: 'true' })
    for (let i = 0; i < 5; i++) expect((await attempt(`falsch-falsch-${i}`, `203.0.113.${i + 1}`)).status).toBe(401)
    const refused = await attempt('falsch-falsch-5', '203.0.113.99')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: TOO_MANY })
    // The lock-out holds for the right password too: its answer would otherwise tell the guesser it was right.
    expect((await attempt(PASSWORD, '198.51.100.1')).status).toBe(429)
    // Nor does the console believe the public port's proxy about the scheme.
    expect((await setPassword()).code).toBe(0)
    const signedIn = await attempt(PASSWORD, '198.51.100.2', { 'x-forwarded-proto': 'https' })
    expect(signedIn.status).toBe(204)
    expect(cookieParts(signedIn.headers.getSetCookie()[0]!)).toEqual({
      pair: expect.stringMatching(/^console-session=[\w-]{43}$/),
      attributes: ['HttpOnly', 'Max-Age=604800', 'Path=/', 'SameSite=Strict'],
    })
    expect((await call('/api/inbox', { cookie: signedIn.headers.getSetCookie()[0]!.split(';')[0]! })).status).toBe(200)
    // The owner who set only TRUST_PROXY behind a proxy is told which setting the console needs.
    expect(server!.output.filter((line) => line.includes('but ADMIN_TRUST_PROXY is not set'))).toHaveLength(1)
  })

  // Fifty sign-ins and a run of the CLI (a full-cost hash): more than the default time on a busy machine.
  test(
    `behind a trusted proxy (ADMIN_TRUST_PROXY), ${SIGN_IN_FAILURES_ALL} failures from as many addresses close the sign-in for everyone until set-password`,
    { timeout: 120_000 },
    async () => {
      const { attempt, server, setPassword } = await start({ ADMIN_TRUST_PROXY: '127.0.0.1' })
      // One guess per address, four at a time: no address reaches its own limit of 5.
      const guesses = Array.from({ length: SIGN_IN_FAILURES_ALL }, (_, i) => i)
      for (let i = 0; i < guesses.length; i += 4) {
        const statuses = await Promise.all(guesses.slice(i, i + 4).map((n) => attempt(`falsch-falsch-${n}`, `203.0.113.${n + 1}`).then((r) => r.status)))
        expect(statuses).toEqual(statuses.map(() => 401))
      }
      const fresh = await attempt('falsch-falsch-x', '192.0.2.200')
      expect(fresh.status).toBe(429)
      expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(800)
      expect(await fresh.json()).toEqual({ error: TOO_MANY })
      expect((await attempt(PASSWORD, '192.0.2.201')).status).toBe(429)
      await expect.poll(() => server.output.some((line) => line.includes(`${SIGN_IN_FAILURES_ALL} wrong passwords from all clients together`))).toBe(true)
      expect(server.output.filter((line) => /203\.0\.|192\.0\.2\./.test(line))).toEqual([])

      // The owner's way back in: a new password, written to the store, seen by every process.
      expect((await setPassword()).code).toBe(0)
      expect((await attempt(PASSWORD, '192.0.2.201')).status).toBe(204)
      expect((await attempt('falsch-falsch-y', '192.0.2.202')).status).toBe(401)
    },
  )
})

describe('the hosts the console answers', () => {
  test('a page of another name (DNS rebinding through the tunnel) gets 421 for everything and cannot lock the owner out', async () => {
    const { signIn } = await build({})
    for (const pathName of ['/', '/anmelden', '/api/inbox', '/assets/x.js']) {
      const response = await requestAs('rebind.evil.example:3001', `${app!.adminUrl}${pathName}`)
      expect([response.status, JSON.parse(response.html)], pathName).toEqual([421, BAD_HOST])
      expect([response.headers['cache-control'], response.headers['x-frame-options']]).toEqual(['no-store', 'DENY'])
    }
    for (let i = 0; i < 8; i++) {
      const response = await signInAs('rebind.evil.example:3001', `falsch-falsch-${i}`)
      expect([response.status, JSON.parse(response.html)]).toEqual([421, BAD_HOST])
    }
    const right = await signInAs('rebind.evil.example:3001', PASSWORD)
    expect(right.status).toBe(421)
    expect(right.headers['set-cookie']).toBeUndefined()
    // None of it was counted against the owner, who connects from the same 127.0.0.1.
    await signIn()
  })

  test('through an SSH tunnel on another local port, by 127.0.0.1, localhost or [::1], the owner signs in', async () => {
    const { call } = await build({})
    for (const host of ['127.0.0.1:8080', 'localhost:8080', '[::1]:3001']) {
      const response = await signInAs(host, PASSWORD)
      expect(response.status, host).toBe(204)
      const cookie = String(response.headers['set-cookie']).split(';')[0]!
      expect(cookie).toMatch(/^console-session=/)
      expect((await call('/api/inbox', { cookie })).status, host).toBe(200)
    }
  })

  test("ADMIN_URL's host is answered (the name a proxy passes on), other names still are not", async () => {
    await build({ ADMIN_URL: 'https://konsole.example.de', ADMIN_TRUST_PROXY: '127.0.0.1' })
    const page = await requestAs('konsole.example.de', `${app!.adminUrl}/anmelden`)
    expect(page.status).toBe(200)
    const signedIn = await requestAs('konsole.example.de', `${app!.adminUrl}/api/session`, {
      method: 'POST',
      body: { password: PASSWORD },
      headers: { origin: 'https://konsole.example.de', [CONSOLE_HEADER]: '1', 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' },
    })
    expect(signedIn.status).toBe(204)
    expect(cookieParts(String(signedIn.headers['set-cookie'])).attributes).toContain('Secure')
    expect((await requestAs('example.de', `${app!.adminUrl}/anmelden`)).status).toBe(421)
  })
})

const TOO_MANY_CODES = 'Zu viele falsche Codes. Melden Sie sich mit einem Passkey oder einem Wiederherstellungscode an oder versuchen Sie es später erneut.'
const HOUR = 60 * 60 * 1000
const codeAt = (secret: string, timestamp: number) => new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp })

/**
 * The app in process with a password, a passkey (made through the tunnel's name localhost, as WebAuthn needs) and
 * the second factor on; its sign-ins from any address (X-Forwarded-For, believed with ADMIN_TRUST_PROXY).
 */
async function owner() {
  app = await buildTestApp({ ADMIN_TRUST_PROXY: 'true' })
  const local = consoleClient({ adminUrl: app.adminUrl!.replace('127.0.0.1', 'localhost'), dataDir: app.dataDir, fetch: app.fetch }, PASSWORD)
  await setCheapPassword(app.dataDir)
  const { cookie } = await local.signIn({ client: '192.0.2.10' })
  const passkey = softwarePasskey('localhost', local.admin)
  const registration = (await (await local.call('/api/passkeys/options', { method: 'POST', cookie })).json()) as { challenge: string }
  const added = await local.call('/api/passkeys', { method: 'POST', cookie, body: { name: 'Laptop', response: passkey.register(registration.challenge) } })
  expect(added.status).toBe(200)
  const setup = (await (await local.call('/api/second-factor/setup', { method: 'POST', cookie })).json()) as SecondFactorSetup
  const confirmed = await local.call('/api/second-factor/confirm', { method: 'POST', cookie, body: { code: codeAt(setup.secret, Date.now()) } })
  expect(confirmed.status).toBe(200)
  const { recoveryCodes } = (await confirmed.json()) as SecondFactorConfirmed
  /** The password with a code, as the sign-in page sends it. */
  const withCode = (code: string, client: string) => local.call('/api/session', { method: 'POST', body: { password: PASSWORD, code }, client })
  async function withPasskey(client: string) {
    const options = await local.call('/api/session/passkey/options', { method: 'POST', body: {}, client })
    expect(options.status).toBe(200)
    const { challenge } = (await options.json()) as { challenge: string }
    return local.call('/api/session/passkey', { method: 'POST', body: { response: passkey.assert(challenge) }, client })
  }
  return { secret: setup.secret, recoveryCodes, withCode, withPasskey }
}

/** A code that is none of the codes around now: a guess that is sure to be wrong. */
const wrongCode = (secret: string) => {
  const near = new Set([-1, 0, 1].map((step) => codeAt(secret, Date.now() + step * 30_000)))
  return ['111111', '222222', '333333', '444444'].find((code) => !near.has(code))!
}

describe('the second factor and the passkeys have budgets of their own', () => {
  test(
    `after 70 wrong codes from as many addresses, the right code is refused past ${CODE_FAILURES_DAY}, but a passkey signs the owner in, and so does a recovery code`,
    { timeout: 240_000 },
    async () => {
      const { secret, recoveryCodes, withCode, withPasskey } = await owner()
      const statuses: number[] = []
      for (let i = 0; i < 70; i++) statuses.push((await withCode(wrongCode(secret), `203.0.113.${i + 1}`)).status)

      // The owner's ways in that no one else can use up.
      expect((await withPasskey('198.51.100.1')).status).toBe(204)
      expect((await withCode(recoveryCodes[0]!, '198.51.100.2')).status).toBe(204)
      expect(statuses).toEqual(statuses.map((_, i) => (i < CODE_FAILURES_DAY ? 401 : 429)))
      const refused = await withCode(codeAt(secret, Date.now() + 30_000), '198.51.100.3')
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({ error: TOO_MANY_CODES })
      // Wrong codes are not wrong passwords: the password step is still open.
      expect((await withCode('', '198.51.100.4')).status).toBe(200)
    },
  )

  test(`the cap of ${CODE_FAILURES_DAY} wrong codes holds for a day, across the 15-minute windows of the password's limits`, { timeout: 120_000 }, async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const { secret, withCode } = await owner()
    let client = 0
    const guess = async (count: number) => {
      for (let i = 0; i < count; i++) expect((await withCode(wrongCode(secret), `203.0.113.${++client}`)).status).toBe(401)
    }
    await guess(CODE_FAILURES_DAY - 10)
    vi.setSystemTime(Date.now() + HOUR)
    await guess(10)
    vi.setSystemTime(Date.now() + 2 * HOUR)
    expect((await withCode(codeAt(secret, Date.now()), '198.51.100.1')).status).toBe(429)
    expect((await withCode(wrongCode(secret), '198.51.100.2')).status).toBe(429)
    vi.setSystemTime(Date.now() + 21 * HOUR)
    expect((await withCode(codeAt(secret, Date.now()), '198.51.100.3')).status).toBe(204)
  })

  test(`${SIGN_IN_FAILURES_ALL} wrong passwords from as many addresses close the password step, not the passkey`, { timeout: 120_000 }, async () => {
    const { withPasskey } = await owner()
    const attempt = (password: string, client: string) =>
      app!.fetch(`${app!.adminUrl}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app!.adminUrl!, [CONSOLE_HEADER]: '1', 'x-forwarded-for': client },
        body: JSON.stringify({ password }),
      })
    for (let i = 0; i < SIGN_IN_FAILURES_ALL; i++) expect((await attempt(`falsch-falsch-${i}`, `203.0.113.${i + 1}`)).status).toBe(401)
    expect((await attempt(PASSWORD, '198.51.100.1')).status).toBe(429)
    expect((await withPasskey('198.51.100.2')).status).toBe(204)
  })
})
