// The page "Protokoll" (decision 043) in a real Chromium against the production server process: reached from the
// menu, it lists the sign-ins the browser just made; its filters (action, subject, days) narrow the list in the
// address; "Ältere Einträge" pages on; the layout holds on a phone; a hostile name and detail are shown as text and
// run nothing; no console or hydration error (React reports a mismatch as a console error).
import type { Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import { openStore } from '../../src/server/store/index.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { databaseUrlFor } from '../helpers/postgres.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const HOSTILE_NAME = '<img src=x onerror="document.title=\'owned\'">.example'
const HOSTILE_DETAIL = '<script>document.title="owned"</script>'

/** Rows written as another process would (the console's own routes never would), to see that they stay text. */
const test = browserTest({ env: { ADMIN_TRUST_PROXY: 'true' } }).extend('store', { scope: 'file' }, async ({ stack }, { onCleanup }) => {
  const store = await openStore({ dataDir: stack.server.dataDir, databaseUrl: await databaseUrlFor(stack.server.dataDir) })
  onCleanup(() => store.close())
  return store
})
let admin: string

test.beforeAll(async ({ stack, store }) => {
  admin = stack.server.adminUrl!
  expect((await consoleClient(stack.server, PASSWORD).setPassword()).code).toBe(0)
  const yesterday = Date.now() - 36 * 3_600_000
  await store.addAuditEntry({ at: yesterday, actor: 'CLI', action: 'reply', outcome: 'ok', inquiryId: 41, domain: HOSTILE_NAME, detail: HOSTILE_DETAIL })
  await store.addAuditEntry({ at: yesterday + 1, actor: 'CLI', action: 'deal-paid', outcome: 'ok', inquiryId: 42, dealId: 7, domain: 'xn--bcher-kva.de' })
})

const rowsOf = (page: Page) => page.locator('table.audit tbody tr')

describe('the page Protokoll', () => {
  test('lists the sign-ins, filters by action, subject and days, pages on, and shows a hostile name as text', async ({ pages, store }) => {
    // A wrong password first, from another browser: Chromium reports its 401 on the console, as expected.
    const intruder = await pages.watch()
    intruder.allow(/Failed to load resource: the server responded with a status of 401/)
    await intruder.page.goto(`${admin}/anmelden`)
    await intruder.page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await intruder.page.getByLabel('Passwort').fill('Falsch-Geraten-123')
    await intruder.page.getByRole('button', { name: 'Anmelden' }).click()
    await intruder.page.getByText('Das Passwort ist falsch.').waitFor()
    await pages.close(intruder)

    // A dialog (the hostile rows run) is a problem of the page.
    const { page } = await pages.watch()
    await signInToConsole(page, admin, PASSWORD)
    await page.getByRole('navigation', { name: 'Konsole' }).getByRole('link', { name: 'Protokoll' }).click()
    await page.waitForURL(`${admin}/protokoll`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await page.getByRole('link', { name: 'Protokoll' }).getAttribute('aria-current')).toBe('page')

    const rows = rowsOf(page)
    // Newest first: this browser's sign-in, the wrong password, set-password, then the two rows from yesterday.
    expect(await rows.count()).toBe(5)
    expect(await rows.nth(0).textContent()).toMatch(/Sitzung [\w-]{8}\s*Anmeldung/)
    expect(await rows.nth(0).textContent()).toContain('erledigt')
    expect(await rows.nth(1).textContent()).toContain('unbekannt')
    expect(await rows.nth(1).textContent()).toContain('abgewiesen')
    expect(await rows.nth(1).textContent()).toContain('password · 127.0.x.x')
    expect(await rows.nth(2).textContent()).toMatch(/CLI\s*Passwort gesetzt/)
    expect(await rows.nth(3).textContent()).toContain('bücher.de')
    // The hostile name and detail: as text, in the page and after hydration, and nothing ran.
    expect(await rows.nth(4).textContent()).toContain(HOSTILE_NAME)
    expect(await rows.nth(4).textContent()).toContain(HOSTILE_DETAIL)
    expect(await page.locator('table.audit img, table.audit script').count()).toBe(0)
    expect(await page.title()).not.toBe('owned')
    expect(await axeViolations(page)).toEqual([])

    // By action.
    await page.getByLabel('Aktion').selectOption({ label: 'Anmeldung' })
    await page.getByRole('button', { name: 'Filtern' }).click()
    await page.waitForURL(`${admin}/protokoll?action=sign-in`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await rows.count()).toBe(2)
    for (const text of await rows.allTextContents()) expect(text).toContain('Anmeldung')
    expect(await page.getByLabel('Aktion').inputValue()).toBe('sign-in')

    // By subject (a deal) and back to all; then by days: yesterday's rows are not today's.
    await page.getByRole('link', { name: 'Zurücksetzen' }).click()
    await page.waitForURL(`${admin}/protokoll`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await page.getByLabel('Betreff').fill('V7')
    await page.getByRole('button', { name: 'Filtern' }).click()
    await page.waitForURL(`${admin}/protokoll?subject=V7`)
    expect(await rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain('Zahlung erhalten')
    expect(await rows.first().getByRole('link', { name: 'Anfrage 42' }).getAttribute('href')).toBe('/anfragen/42')
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date())
    await page.goto(`${admin}/protokoll?since=${today}`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await rows.count()).toBe(3)
    expect(await page.getByLabel('von').inputValue()).toBe(today)

    // More than a page: "Ältere Einträge" shows the rest, and nothing twice.
    for (let i = 0; i < 55; i++)
      await store.addAuditEntry({ at: Date.now() - 60_000 - i, actor: 'CLI', action: 'resend', outcome: 'refused', inquiryId: 1000 + i })
    await page.goto(`${admin}/protokoll?action=resend`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await rows.count()).toBe(50)
    await page.getByRole('link', { name: 'Ältere Einträge' }).click()
    await page.waitForURL(/\/protokoll\?action=resend&cursor=\d+\.\d+$/)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await rows.count()).toBe(5)
    expect(await page.getByRole('link', { name: 'Ältere Einträge' }).count()).toBe(0)

    // On a phone the rows become cards, and nothing widens the page.
    await page.setViewportSize({ width: 360, height: 800 })
    await page.goto(`${admin}/protokoll`)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })
})
