// "Kontoauszug importieren" in a real Chromium against the production server process: from Verkäufe to the page,
// choosing a CAMT.053 file, the preview with the file's names and texts shown as text, "Übernehmen", and the deals
// marked paid.
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const YEAR = String(new Date().getUTCFullYear())
const STATEMENT = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/camt/sparkasse-053-02.xml'), 'utf8').replace(/(DL[- ]?)2026/gi, `$1${YEAR}`)

const test = browserTest({
  domains: 'domains:\n  beispiel.de: { minOffer: 100 }\n  zweite.de: { minOffer: 100 }\n',
  env: { MAIL_TO: 'owner@example.org' },
})

test.beforeAll(async ({ stack: { server } }) => {
  const client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  const { cookie } = await client.signIn()
  // Deals 1 and 2, as the statement names them.
  for (const [host, offer] of [
    ['beispiel.de', '4.900'],
    ['zweite.de', '2.500'],
  ] as const) {
    const { token, hash } = await fetchForm(server.url, host)
    const sent = await requestAs(host, `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, themail3h6: `kaeufer@${host}`, offer, token, hash } })
    expect(sent.status, sent.html).toBe(200)
    const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
    expect((await client.call(`/api/inquiries/${inbox.items[0]!.id}/accept`, { method: 'POST', body: {}, cookie })).status).toBe(200)
  }
})
test('a statement: the preview names the deals it pays and shows the file’s texts as text; "Übernehmen" marks them paid, once', async ({
  pages,
  stack: { server },
}) => {
  const { page } = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await page.getByRole('link', { name: 'Verkäufe', exact: true }).click()
  await page.getByRole('link', { name: 'Kontoauszug importieren' }).click()
  await page.waitForURL(`${server.adminUrl}/kontoauszug`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })

  await page.getByLabel('Datei (CAMT.053, höchstens 5 MB)').setInputFiles({ name: 'camt053.xml', mimeType: 'application/xml', buffer: Buffer.from(STATEMENT) })
  await page.getByRole('button', { name: 'Vorschau' }).click()
  const deals = page.getByRole('table', { name: 'Verkäufe in dieser Datei' })
  await deals.waitFor()
  expect(await deals.getByRole('row').allInnerTexts()).toEqual([
    expect.stringMatching(/^Kauf\s+Domain\s+Betrag\s+Eingegangen\s+Ergebnis$/),
    expect.stringMatching(new RegExp(`^DL-${YEAR}-0001\\s+beispiel\\.de\\s+4\\.900,00\\s€\\s+4\\.900,00\\s€\\s+wird als bezahlt markiert$`)),
    expect.stringMatching(new RegExp(`^DL-${YEAR}-0002\\s+zweite\\.de\\s+2\\.500,00\\s€\\s+2\\.500,00\\s€\\s+wird als bezahlt markiert$`)),
  ])
  const entries = page.getByRole('table', { name: 'Buchungen' })
  expect(await entries.getByText('<script>alert(1)</script> Studio', { exact: true }).isVisible()).toBe(true)
  expect(await page.locator('main script').count()).toBe(0)
  expect(await entries.getByRole('row').nth(2).innerText()).toMatch(
    /^Teilzahlung\s+2026-11-03\s+1\.000,00\s€\s+DL-\d{4}-0002 \(zweite\.de\)\s+Max Beispiel GmbH\s+Kauf der Domain zweite\.de, Ref\. DL-\d{4}-0002, erste Teilzahlung/,
  )
  expect(await entries.getByText(/andere Währung als der Kauf/).count()).toBe(1)
  expect(await entries.getByText(/Referenz keines Kaufs/).count()).toBe(2)
  expect(await axeViolations(page)).toEqual([])

  await page.getByRole('button', { name: 'Übernehmen' }).click()
  await page.getByText('Übernommen: 3 Buchungen verbucht, 2 Käufe als bezahlt markiert.').waitFor()
  expect(await deals.getByRole('row').nth(1).innerText()).toMatch(/als bezahlt markiert$/)

  // The same file again: nothing to take over.
  await page.getByRole('button', { name: 'Vorschau' }).click()
  await page.getByText('Nichts zu übernehmen.').waitFor()
  expect(await entries.getByText('Schon übernommen').count()).toBe(3)
  await page.getByRole('link', { name: 'Verkäufe', exact: true }).click()
  await page.waitForURL(`${server.adminUrl}/verkaeufe`)
  expect(await page.getByText('Bezahlt').count()).toBeGreaterThanOrEqual(2)
})
