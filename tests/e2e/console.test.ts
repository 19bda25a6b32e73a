// The owner's console in a real Chromium against the production server process: signing in by its labels,
// hostile inquiries sent through the public form shown as text, the keyboard, replying, archiving, erasing,
// the Postausgang, the Übersicht and signing out.
import { expect } from 'vitest'
import { axeViolations, browserTest, type Pages, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { submitInquiry } from '../helpers/contact.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '&amp; &lt;b&gt;',
  'Vertrag \u202Egnp.exe',
  '\u001b[31mrot\u001b[0m',
  'W'.repeat(5000),
]

// The form takes no control characters in a name (they would reach mail headers): there the payload goes without.
const nameOf = (payload: string) => payload.replace(/[\u0000-\u001f]/g, '').slice(0, 200)

const test = browserTest({ env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' } })
let server: ServerProcess
let smtp: SmtpSink

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
  for (const [i, payload] of HOSTILE.entries()) {
    const response = await submitInquiry(server.url, {
      name58fnlsd: nameOf(payload),
      themail3h6: `visitor${i}@example.org`,
      message: payload.length >= 5000 ? payload : `${payload}\nzweite Zeile`,
    })
    expect(response.status).toBe(200)
  }
})
/** Signs in through the sign-in page as the owner would; lands on the Posteingang, hydrated. */
async function signIn(pages: Pages, width = 1280): Promise<WatchedPage> {
  const watched = await pages.watch({ viewport: { width, height: 800 } })
  const { page } = watched
  await page.goto(`${server.adminUrl}/`)
  expect(new URL(page.url()).pathname).toBe('/anmelden')
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.getByLabel('Passwort').fill(PASSWORD)
  await page.getByRole('button', { name: 'Anmelden' }).click()
  await page.waitForURL(`${server.adminUrl}/`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  return watched
}

const noOtherOrigin = (watched: WatchedPage) => watched.requests.filter((url) => !url.startsWith(server.adminUrl!))

test('hostile inquiries are shown as text in the Posteingang: no dialog, no request elsewhere, the layout holds on a phone', async ({ pages }) => {
  for (const width of [360, 1280]) {
    const watched = await signIn(pages, width)
    const { page } = watched
    expect(await page.getByRole('heading', { name: 'Posteingang' }).isVisible()).toBe(true)
    for (const payload of ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '&amp; &lt;b&gt;']) {
      expect(await page.getByText(payload, { exact: true }).first().isVisible(), payload).toBe(true)
    }
    expect(await page.locator('#console img, #console script:not([type])').count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(noOtherOrigin(watched)).toEqual([])
    if (width === 1280) expect(await axeViolations(page)).toEqual([])
  }
})

test('an inquiry opened with the keyboard shows the whole message as text; a reply is sent and mailed to the visitor', async ({ pages }) => {
  const watched = await signIn(pages, 360)
  const { page } = watched
  await page.keyboard.press('j')
  await page.keyboard.press('Enter')
  await page.waitForURL(/\/anfragen\/\d+$/)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  // The newest inquiry is the 5,000-character word: it wraps instead of widening the page.
  expect(await page.getByText('W'.repeat(5000)).first().isVisible()).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await page.getByRole('textbox', { name: 'Antwort', exact: true }).fill('Guten Tag,\nder Preis ist verhandelbar.')
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => page.getByText('Antwort gespeichert; sie wird gesendet.').count()).toBe(1)
  await expect
    .poll(() => smtp.messages.map((mail) => [mail.parsed.subject, mail.envelope.to]))
    .toContainEqual(['Re: Anfrage zu 127.0.0.1', ['visitor6@example.org']])
  expect(noOtherOrigin(watched)).toEqual([])
})

test('in the Posteingang "/" goes to the search and "e" archives the selected inquiry', async ({ pages }) => {
  const { page } = await signIn(pages)
  await page.keyboard.press('/')
  expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Suchen')
  await page.locator('body').click({ position: { x: 1, y: 1 } })
  const rows = page.locator('tbody tr')
  const before = await rows.count()
  await page.keyboard.press('j')
  await page.keyboard.press('j')
  const name = await rows.nth(1).locator('td[data-label="Name"]').innerText()
  await page.keyboard.press('e')
  await expect.poll(() => rows.count()).toBe(before - 1)
  expect(await page.locator('tbody').innerText()).not.toContain(name)
  await page.goto(`${server.adminUrl}/?status=archived`)
  expect(await page.locator('tbody').innerText()).toContain(name)
})

test('archiving, erasing after a question, the Postausgang, the Übersicht and signing out', async ({ pages }) => {
  const watched = await signIn(pages)
  const { page } = watched
  await page.getByRole('link', { name: '<script>alert(1)</script>' }).click()
  await page.waitForURL(/\/anfragen\/\d+$/)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.getByRole('button', { name: 'Archivieren' }).click()
  await expect.poll(() => page.getByRole('button', { name: 'Wiederherstellen' }).count()).toBe(1)
  await page.getByRole('button', { name: 'Löschen' }).click()
  expect(await page.getByText('Anfrage endgültig löschen?').isVisible()).toBe(true)
  await page.getByRole('button', { name: 'Endgültig löschen' }).click()
  await page.waitForURL(`${server.adminUrl}/`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(await page.getByText('<script>alert(1)</script>', { exact: true }).count()).toBe(0)

  await page.getByRole('link', { name: 'Postausgang' }).click()
  await page.waitForURL(`${server.adminUrl}/postausgang`)
  expect(await page.getByRole('heading', { name: 'Postausgang' }).isVisible()).toBe(true)
  await page.getByRole('link', { name: 'Übersicht' }).click()
  await page.waitForURL(`${server.adminUrl}/uebersicht`)
  expect(await page.getByRole('heading', { name: 'Übersicht' }).isVisible()).toBe(true)
  expect(await page.locator('svg[role="img"]').count()).toBeGreaterThan(0)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.getByRole('button', { name: 'Abmelden' }).click()
  await page.waitForURL(`${server.adminUrl}/anmelden`)
  await page.goto(`${server.adminUrl}/`)
  expect(new URL(page.url()).pathname).toBe('/anmelden')
  expect(noOtherOrigin(watched)).toEqual([])
})

test('a wrong password is refused with its message on the sign-in page', async ({ pages }) => {
  const watched = await pages.watch()
  const { page } = watched
  // Chromium reports the 401 of the sign-in request on its console; that one is expected, nothing else.
  watched.allow(/Failed to load resource: the server responded with a status of 401/)
  await page.goto(`${server.adminUrl}/anmelden`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.getByLabel('Passwort').fill('falsch falsch falsch')
  await page.getByRole('button', { name: 'Anmelden' }).click()
  await expect.poll(() => page.getByText('Das Passwort ist falsch.').count()).toBe(1)
})

test('the menu is one row at 1280 px; "Verwaltung" opens, walks and closes with the keyboard', async ({ pages }) => {
  const { page } = await signIn(pages, 1280)
  const nav = page.getByRole('navigation', { name: 'Konsole' })
  // Every entry and "Abmelden" on one line: the bar is as high as one of them.
  const bar = (await page.locator('header.topbar').boundingBox())!
  const signOut = (await page.getByRole('button', { name: 'Abmelden' }).boundingBox())!
  expect(bar.height).toBeLessThan(signOut.height * 1.8)
  const tops = await nav.locator(':scope > ul > li').evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top))
  expect(new Set(tops).size).toBe(1)
  expect(await nav.getByRole('link', { name: 'Vorlagen' }).isVisible()).toBe(false)

  await page.getByRole('link', { name: 'Protokoll' }).focus()
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Verwaltung')
  await page.keyboard.press('Enter')
  expect(await nav.getByRole('link', { name: 'Vorlagen' }).isVisible()).toBe(true)
  await page.keyboard.press('Escape')
  expect(await nav.getByRole('link', { name: 'Vorlagen' }).isVisible()).toBe(false)
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Verwaltung')
  await page.keyboard.press('Space')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Import')
  await page.keyboard.press('Enter')
  await page.waitForURL(`${server.adminUrl}/domains-importieren`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  // The page's own link is marked inside the closed menu, and the menu's button with it.
  expect(await nav.getByRole('link', { name: 'Import', includeHidden: true }).getAttribute('aria-current')).toBe('page')
  expect(await nav.locator('summary.current').innerText()).toContain('Verwaltung')
  // A click elsewhere closes an open menu.
  await nav.getByText('Verwaltung', { exact: true }).click()
  expect(await nav.getByRole('link', { name: 'Sitzungen' }).isVisible()).toBe(true)
  await page.getByRole('heading', { level: 1 }).click()
  expect(await nav.getByRole('link', { name: 'Sitzungen' }).isVisible()).toBe(false)
  expect(await axeViolations(page)).toEqual([])
})
