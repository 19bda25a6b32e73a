// Datenschutz in a real Chromium against the production server process: the owner looks up one person by address
// (any case), downloads what is stored as JSON, and erases it all after confirming; other people's inquiries stay.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, browserTest, followConsoleLink, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { submitInquiry } from '../helpers/contact.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'

const test = browserTest({ env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' } })
let client: ReturnType<typeof consoleClient>

test.beforeAll(async ({ stack: { server } }) => {
  client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  for (const fields of [
    { themail3h6: 'weg@example.org', name58fnlsd: HOSTILE_NAME, message: 'Erste Anfrage' },
    { themail3h6: 'weg@example.org', message: 'Zweite Anfrage' },
    { themail3h6: 'bleibt@example.org', message: 'Andere Person' },
  ]) {
    expect((await submitInquiry(server.url, fields)).status).toBe(200)
  }
})
test('Datenschutz finds a person by address, hands over the JSON and erases everything about them, asking first', async ({ pages, stack: { server } }) => {
  const { page } = await pages.watch({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await followConsoleLink(page, 'Datenschutz')
  await page.waitForURL(`${server.adminUrl}/datenschutz`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })

  await page.getByLabel('E-Mail-Adresse').fill('WEG@Example.org')
  await page.getByRole('button', { name: 'Anzeigen' }).click()
  await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Gespeichert zu WEG@Example.org: 2 Anfragen')
  // What the visitor typed is text on the page, not markup.
  expect(await page.getByText(HOSTILE_NAME, { exact: true }).count()).toBe(1)
  expect(await page.locator('main img').count()).toBe(0)
  expect(await axeViolations(page)).toEqual([])

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Auskunft als JSON herunterladen' }).click()])
  expect(download.suggestedFilename()).toBe('auskunft.json')
  // Saved where the test says: the run's Chromium is reached over its protocol, so its own download folder is not ours.
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-download-')), 'auskunft.json')
  await download.saveAs(saved)
  const report = JSON.parse(fs.readFileSync(saved, 'utf8')) as { inquiries: { name: string; message: string }[] }
  fs.rmSync(path.dirname(saved), { recursive: true, force: true })
  expect(report.inquiries.map((inquiry) => inquiry.message).sort()).toEqual(['Erste Anfrage', 'Zweite Anfrage'])
  expect(report.inquiries.map((inquiry) => inquiry.name)).toContain(HOSTILE_NAME)

  // Nothing is erased before the owner confirms; "Abbrechen" keeps everything.
  await page.getByRole('button', { name: 'Alles löschen' }).click()
  await page.getByRole('button', { name: 'Abbrechen' }).click()
  expect(await page.getByRole('alertdialog').count()).toBe(0)
  await page.getByRole('button', { name: 'Alles löschen' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Endgültig löschen' }).click()
  await expect.poll(() => page.getByRole('status').innerText()).toMatch(/^Gelöscht: 2 Anfragen \(Nr\. \d+, \d+\) auf /)

  const { cookie } = await client.signIn()
  const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  expect(inbox.items.map((item) => item.email)).toEqual(['bleibt@example.org'])
})
