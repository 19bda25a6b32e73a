// The negotiation in a real Chromium against the production server process: Gegenangebot, Annehmen and Ablehnen
// driven by their labels (and the keyboard), the state and the conversation on the page, the mail the visitor
// gets, and the page "Vorlagen".
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, browserTest, followConsoleLink, signInToConsole, type Pages, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { submitInquiry } from '../helpers/contact.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'

const test = browserTest({ env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' } })
let server: ServerProcess
let smtp: SmtpSink
/** Inquiry ids by the visitor's address. */
const ids = new Map<string, number>()
let client: ReturnType<typeof consoleClient>
let cookie: string

/** Reads the inbox through the API and notes the id of every inquiry by the visitor's address. */
async function learnIds() {
  const page = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  for (const row of page.items) ids.set(row.email, row.id)
}

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  for (const email of ['gegen@example.org', 'nein@example.org', 'ja@example.org']) {
    expect((await submitInquiry(server.url, { themail3h6: email, message: `Anfrage von ${email}` })).status).toBe(200)
  }
  ;({ cookie } = await client.signIn())
  await learnIds()
})
async function signIn(pages: Pages): Promise<WatchedPage> {
  const watched = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(watched.page, server.adminUrl!, PASSWORD)
  return watched
}

async function openInquiry(page: Page, email: string) {
  await page.goto(`${server.adminUrl}/anfragen/${ids.get(email)}`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
}

const mailTo = (email: string) => smtp.messages.find((mail) => mail.envelope.to.includes(email))

test('Gegenangebot: amount, days and a hostile note; the page shows the state with its expiry and the conversation', async ({ pages }) => {
  const { page } = await signIn(pages)
  await openInquiry(page, 'gegen@example.org')
  await page.getByRole('button', { name: 'Gegenangebot', exact: true }).click()
  await page.getByLabel('Betrag (EUR)').fill('4.900')
  await page.getByLabel('Gültig (Tage)').fill('5')
  await page.getByLabel('Notiz (optional)').fill('<script>alert(1)</script>\nMit Übertragung.')
  await page.getByRole('button', { name: 'Gegenangebot senden' }).click()
  await expect.poll(() => page.getByText('Gegenangebot gespeichert; es wird gesendet.').count()).toBe(1)
  expect(await page.locator('dd', { hasText: 'gültig bis' }).innerText()).toMatch(/^4\.900\s€ · gültig bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)
  expect(await page.locator('.badge.status-countered').innerText()).toBe('Gegenangebot')
  const reply = page.locator('.reply').last()
  expect(await reply.locator('.reply-meta').innerText()).toMatch(/^Gegenangebot 4\.900\s€ · /)
  expect(await reply.getByText('<script>alert(1)</script>', { exact: false }).count()).toBe(1)
  await expect.poll(() => mailTo('gegen@example.org')).toBeDefined()
  expect(mailTo('gegen@example.org')!.parsed.text).toContain('4.900\u00a0€')
  expect(await axeViolations(page)).toEqual([])
})

test('Annehmen from the keyboard, and Ablehnen: each asks for a note and mails the visitor', async ({ pages }) => {
  const { page } = await signIn(pages)
  await openInquiry(page, 'ja@example.org')
  await page.getByRole('button', { name: 'Annehmen' }).focus()
  await page.keyboard.press('Enter')
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('deal-note')
  await page.keyboard.type('Bis bald.')
  await page.getByRole('button', { name: 'Annahme senden' }).press('Enter')
  await expect.poll(() => page.getByText('Annahme gespeichert; sie wird gesendet.').count()).toBe(1)
  expect(await page.locator('.badge.status-accepted').innerText()).toBe('Angenommen')
  await expect.poll(() => mailTo('ja@example.org')?.parsed.subject).toBe('Re: Anfrage zu 127.0.0.1: Angebot angenommen')
  expect(mailTo('ja@example.org')!.parsed.text).toContain('Bis bald.')

  await openInquiry(page, 'nein@example.org')
  await page.getByRole('button', { name: 'Ablehnen' }).click()
  // Escape closes the form without sending.
  await page.keyboard.press('Escape')
  expect(await page.getByRole('button', { name: 'Ablehnung senden' }).count()).toBe(0)
  await page.getByRole('button', { name: 'Ablehnen' }).click()
  await page.getByRole('button', { name: 'Ablehnung senden' }).click()
  await expect.poll(() => page.locator('.badge.status-declined').count()).toBe(1)
  expect(await page.locator('.reply-meta').last().innerText()).toMatch(/^Ablehnung · /)
  await expect.poll(() => mailTo('nein@example.org')?.parsed.subject).toBe('Re: Anfrage zu 127.0.0.1: Absage')
})

test('Vorlagen: an unknown placeholder is refused on the page; a saved template is used for the next mail', async ({ pages }) => {
  const watched = await signIn(pages)
  const { page } = watched
  await followConsoleLink(page, 'Vorlagen')
  await page.waitForURL(`${server.adminUrl}/vorlagen`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  const form = page.getByRole('form', { name: 'Ablehnung', exact: true })
  await form.getByLabel('Text der Mail „Ablehnung“').fill('Leider nein, {kunde}.')
  await form.getByRole('button', { name: 'Speichern' }).click()
  await expect.poll(() => form.getByText('Unbekannter Platzhalter {kunde}', { exact: false }).count()).toBe(1)
  await form.getByLabel('Text der Mail „Ablehnung“').fill('Leider nein: {domain} bleibt. {notiz}')
  await form.getByRole('button', { name: 'Speichern' }).click()
  await expect.poll(() => form.getByText('Vorlage gespeichert.').count()).toBe(1)
  expect(await axeViolations(page)).toEqual([])
  // The refused save answered 400, which Chromium reports on its console: expected here, nothing else.
  watched.allow(/status of 400/)

  expect((await submitInquiry(server.url, { themail3h6: 'vorlage@example.org', message: 'Vorlagentest' })).status).toBe(200)
  await learnIds()
  await openInquiry(page, 'vorlage@example.org')
  await page.getByRole('button', { name: 'Ablehnen' }).click()
  await page.getByLabel('Notiz (optional)').fill('Gruß')
  await page.getByRole('button', { name: 'Ablehnung senden' }).click()
  await expect.poll(() => mailTo('vorlage@example.org')?.parsed.text).toMatch(/^Leider nein: 127\.0\.0\.1 bleibt\. Gruß\n/)
})
