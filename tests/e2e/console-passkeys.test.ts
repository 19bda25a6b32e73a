// Passkeys, the second factor and the sessions page in a real Chromium with its virtual authenticator (DevTools
// protocol WebAuthn.*), against the production server process (decision 041): a passkey added after the password
// and then signing in alone; an assertion made for another origin, a removed key, a replayed assertion and a cloned
// authenticator (signature counter going back) refused; TOTP with codes computed here from the secret the page
// shows; a recovery code once; signing out another browser's session. The console is opened as
// http://localhost:PORT: WebAuthn takes no IP address as relying-party id.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { TOTP } from 'otpauth'
import type { CDPSession, Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { browserTest, followConsoleLink } from '../helpers/chromium.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { storeEnv } from '../helpers/postgres.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'
/** Chromium reports every 401 of a fetch on its console; the tests that expect one drop exactly these. */
const EXPECTED_401 = /Failed to load resource: the server responded with a status of 401/

// The refusals below count against the sign-in limit (5 per client): the ones sent from here name an address of
// their own (X-Forwarded-For, believed with ADMIN_TRUST_PROXY), so that the browser's own sign-ins stay below it.
const test = browserTest({ env: { ADMIN_TRUST_PROXY: 'true' } })
  /** A page of another origin on this machine (another port of localhost: the same relying-party id). */
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured argument
  .extend('otherOrigin', { scope: 'file' }, async ({}, { onCleanup }) => {
    const otherSite = http.createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Andere Seite</title>'),
    )
    await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve))
    onCleanup(() => new Promise<void>((resolve) => otherSite.close(() => resolve())))
    return `http://localhost:${(otherSite.address() as AddressInfo).port}`
  })
  /** One browser with one virtual authenticator, kept open for the passkey tests in order. */
  .extend('owner', { scope: 'file' }, async ({ filePages }) => {
    const watched = await filePages.watch()
    watched.allow(EXPECTED_401)
    return { page: watched.page, ...(await withAuthenticator(watched.page)) }
  })
let admin: string

test.beforeAll(async ({ stack }) => {
  admin = stack.server.adminUrl!.replace('127.0.0.1', 'localhost')
  expect((await consoleClient(stack.server, PASSWORD).setPassword()).code).toBe(0)
})

async function withAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

async function hydrated(page: Page) {
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
}

async function signInWithPassword(page: Page) {
  await page.goto(`${admin}/anmelden`)
  await hydrated(page)
  await page.getByLabel('Passwort').fill(PASSWORD)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await page.waitForURL(`${admin}/`)
  await hydrated(page)
}

async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Abmelden' }).click()
  await page.waitForURL(`${admin}/anmelden`)
  await hydrated(page)
}

/** A sign-in challenge as the sign-in page gets it. */
async function signInOptions(): Promise<{ challenge: string; rpId: string }> {
  const response = await fetch(`${admin}/api/session/passkey/options`, { method: 'POST', headers: { [CONSOLE_HEADER]: '1', origin: admin } })
  expect(response.status).toBe(200)
  return (await response.json()) as { challenge: string; rpId: string }
}

/** Asks the page's authenticator to sign `options` (as the page's origin) and returns the answer as JSON, unsent. */
function assertionIn(page: Page, options: { challenge: string; rpId: string }) {
  return page.evaluate(async ({ challenge, rpId }) => {
    const toB64u = (buffer: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buffer)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '')
    const fromB64u = (text: string) => {
      const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
      return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (char) => char.charCodeAt(0))
    }
    const credential = (await navigator.credentials.get({
      publicKey: { challenge: fromB64u(challenge), rpId, userVerification: 'required' },
    })) as PublicKeyCredential
    const response = credential.response as AuthenticatorAssertionResponse
    return {
      id: credential.id,
      rawId: toB64u(credential.rawId),
      type: credential.type,
      clientExtensionResults: {},
      response: {
        clientDataJSON: toB64u(response.clientDataJSON),
        authenticatorData: toB64u(response.authenticatorData),
        signature: toB64u(response.signature),
        ...(response.userHandle && { userHandle: toB64u(response.userHandle) }),
      },
    }
  }, options)
}

let clients = 0
const sendAssertion = (response: unknown) =>
  fetch(`${admin}/api/session/passkey`, {
    method: 'POST',
    headers: { [CONSOLE_HEADER]: '1', origin: admin, 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++clients}` },
    body: JSON.stringify({ response }),
  })

describe('passkeys, in order, in one browser with one virtual authenticator', () => {
  test('after the password the owner adds a named passkey ("Passkey hinzufügen"); a hostile name is shown as text', async ({
    owner: { page, cdp, authenticatorId },
  }) => {
    await signInWithPassword(page)
    await followConsoleLink(page, 'Anmeldung')
    await page.waitForURL(`${admin}/anmeldung`)
    await hydrated(page)
    await page.getByLabel('Name des Passkeys').fill(HOSTILE_NAME)
    await page.getByRole('button', { name: 'Passkey hinzufügen' }).click()
    await expect.poll(() => page.getByText('Passkey hinzugefügt.').count()).toBe(1)
    expect(await page.getByText(HOSTILE_NAME, { exact: true }).isVisible()).toBe(true)
    expect(await page.locator('#console img').count()).toBe(0)
    // A second one, listed beside it.
    await page.getByLabel('Name des Passkeys').fill('Laptop')
    await page.getByRole('button', { name: 'Passkey hinzufügen' }).click()
    // The same authenticator holds one credential for this site: it refuses a second (excludeCredentials).
    await expect.poll(() => page.getByRole('alert').count()).toBe(1)
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]!.rpId).toBe('localhost')
    // After a reload the name is still text, from the server's page this time.
    await page.reload()
    await hydrated(page)
    expect(await page.getByText(HOSTILE_NAME, { exact: true }).isVisible()).toBe(true)
    expect(await page.locator('#console img').count()).toBe(0)
    await signOut(page)
  })

  test('the passkey alone signs in ("Mit Passkey anmelden"), and the sessions page says so', async ({ owner: { page } }) => {
    await page.goto(`${admin}/anmelden`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click()
    await page.waitForURL(`${admin}/`)
    await hydrated(page)
    await page.goto(`${admin}/sitzungen`)
    await hydrated(page)
    expect(await page.locator('tr', { hasText: '(diese Sitzung)' }).innerText()).toContain('Passkey')
    await signOut(page)
  })

  test('an assertion answers its challenge once: the same one sent again is refused', async ({ owner: { page } }) => {
    const assertion = await assertionIn(page, await signInOptions())
    const first = await sendAssertion(assertion)
    expect(first.status).toBe(204)
    const replayed = await sendAssertion(assertion)
    expect(replayed.status).toBe(401)
    expect(await replayed.json()).toEqual({ error: 'Der Passkey wurde nicht angenommen. Bitte erneut versuchen.' })
  })

  test('an assertion made on a page of another origin (same relying-party id) is refused', async ({ owner: { page }, otherOrigin, stack }) => {
    await page.goto(`${otherOrigin}/`)
    const assertion = await assertionIn(page, await signInOptions())
    expect(JSON.parse(Buffer.from(assertion.response.clientDataJSON, 'base64url').toString()).origin).toBe(otherOrigin)
    const refused = await sendAssertion(assertion)
    expect(refused.status).toBe(401)
    await expect.poll(() => stack.server.output.some((line) => line.includes('passkey refused') && line.includes('origin'))).toBe(true)
    // The same authenticator at the console's own origin still signs in: it was the origin.
    await page.goto(`${admin}/anmelden`)
    expect((await sendAssertion(await assertionIn(page, await signInOptions()))).status).toBe(204)
  })

  test('a cloned authenticator (its signature counter behind the one seen) is refused', async ({ owner: { page, cdp, authenticatorId }, stack }) => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    const credential = credentials[0]!
    expect(credential.signCount).toBeGreaterThan(1)
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId })
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount: 1 } })
    expect((await sendAssertion(await assertionIn(page, await signInOptions()))).status).toBe(401)
    await expect.poll(() => stack.server.output.some((line) => line.includes('passkey refused') && /counter/i.test(line))).toBe(true)
    // Put back as it was, for the next test.
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId })
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount: credential.signCount + 10 } })
  })

  test('a removed passkey signs nobody in', async ({ owner: { page } }) => {
    await signInWithPassword(page)
    await page.goto(`${admin}/anmeldung`)
    await hydrated(page)
    await page.getByRole('button', { name: `Passkey ${HOSTILE_NAME} entfernen` }).click()
    await expect.poll(() => page.getByText('Noch kein Passkey.').count()).toBe(1)
    await signOut(page)
    expect(await page.getByRole('button', { name: 'Mit Passkey anmelden' }).count()).toBe(0)
    expect((await sendAssertion(await assertionIn(page, await signInOptions()))).status).toBe(401)
  })
})

// Five sign-ins with the product's password hashing and a dozen page loads: 22 s on a busy machine, past 30 s under
// more load, when its reset below came after the next test had begun.
test(
  'TOTP: set up by the QR code page and one code computed from the shown secret; then the password asks for a code; a recovery code works once',
  { timeout: 120_000 },
  async ({ pages, stack }) => {
    const watched = await pages.watch()
    const { page } = watched
    watched.allow(EXPECTED_401)
    try {
      await signInWithPassword(page)
      await page.goto(`${admin}/anmeldung`)
      await hydrated(page)
      await page.getByRole('button', { name: 'Zweiten Faktor einrichten' }).click()
      const secret = (await page.getByTestId('totp-secret').innerText()).trim()
      expect(await page.getByRole('img', { name: 'QR-Code für die Authenticator-App' }).isVisible()).toBe(true)
      const app = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' })
      await page.getByLabel('Code aus der App').fill(app.generate())
      await page.getByRole('button', { name: 'Einschalten' }).click()
      const codes = page.getByRole('list', { name: 'Wiederherstellungscodes' }).locator('code')
      await expect.poll(() => codes.count()).toBe(10)
      const recoveryCodes = await codes.allInnerTexts()
      // Shown once: a reload shows none of them.
      await page.reload()
      await hydrated(page)
      expect(await page.getByText(recoveryCodes[0]!).count()).toBe(0)
      expect(await page.getByText('Übrige Wiederherstellungscodes: 10').count()).toBe(1)
      await signOut(page)

      // The password alone: the page asks for the code, and the code of the next step signs in.
      await page.getByLabel('Passwort').fill(PASSWORD)
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
      await page.getByLabel('Code aus der App oder Wiederherstellungscode').fill(app.generate({ timestamp: Date.now() + 30_000 }))
      await page.getByRole('button', { name: 'Bestätigen' }).click()
      await page.waitForURL(`${admin}/`)
      await hydrated(page)
      await signOut(page)

      for (const expected of ['signed in', 'refused'] as const) {
        await page.getByLabel('Passwort').fill(PASSWORD)
        await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
        await page.getByLabel('Code aus der App oder Wiederherstellungscode').fill(recoveryCodes[0]!)
        await page.getByRole('button', { name: 'Bestätigen' }).click()
        if (expected === 'signed in') {
          await page.waitForURL(`${admin}/`)
          await hydrated(page)
          await signOut(page)
        } else {
          await expect.poll(() => page.getByText('Der Code ist falsch oder wurde schon benutzt.').count()).toBe(1)
          expect(new URL(page.url()).pathname).toBe('/anmelden')
        }
      }
      const log = stack.server.output.join('\n')
      expect(log).not.toContain(secret)
      for (const code of recoveryCodes) expect(log).not.toContain(code)
    } finally {
      // Lost phone: the CLI switches it off again for the tests after this one.
      const reset = await runCli(stack.server.dataDir, await storeEnv(stack.server.dataDir), 'set-password', '--reset-2fa')
      expect(reset.code, reset.err).toBe(0)
    }
  },
)

test('on the Sitzungen page one browser signs out another; "Überall abmelden" ends both', { timeout: 60_000 }, async ({ pages }) => {
  const [mine, theirs] = [await pages.watch(), await pages.watch()]
  await signInWithPassword(theirs.page)
  await signInWithPassword(mine.page)
  await followConsoleLink(mine.page, 'Sitzungen')
  await mine.page.waitForURL(`${admin}/sitzungen`)
  await hydrated(mine.page)
  const rows = mine.page.locator('tbody tr')
  expect(await rows.count()).toBe(2)
  expect(await rows.first().innerText()).toContain('127.0.x.x')
  expect(await rows.first().innerText()).toContain('Chrome auf Linux')
  await rows.filter({ hasNotText: '(diese Sitzung)' }).getByRole('button', { name: 'Abmelden' }).click()
  await expect.poll(() => rows.count()).toBe(1)
  await theirs.page.goto(`${admin}/`)
  expect(new URL(theirs.page.url()).pathname).toBe('/anmelden')

  await signInWithPassword(theirs.page)
  await mine.page.getByRole('button', { name: 'Überall abmelden' }).click()
  await mine.page.waitForURL(`${admin}/anmelden`)
  await theirs.page.goto(`${admin}/`)
  expect(new URL(theirs.page.url()).pathname).toBe('/anmelden')
})
