// The console's page "Domains" in a real Chromium against the production server process: the list with a hostile
// description shown as text, a search, one name edited through its form with the change shown before "Speichern",
// several names selected and their price raised in %, and "Speichern" refused after the file changed meanwhile.
import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations, browserTest, signInToConsole, type Pages, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import type { ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const HOSTILE = '<img src=x onerror=alert(1)> "Bestes" Angebot'
const DOMAINS = `# Von Hand
unknownHosts: not-found
domains:
  beispiel.de:
    price: 4000 # alt
    description: '${HOSTILE}'
  zweite.de: {price: 1000}
  dritte.de: {price: 2000}
`

const test = browserTest({ domains: DOMAINS })
let server: ServerProcess
let domainsFile: string

test.beforeAll(async ({ stack }) => {
  ;({ server } = stack)
  domainsFile = stack.domainsFile!
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})

async function openDomains(pages: Pages): Promise<WatchedPage> {
  const watched = await pages.watch({ viewport: { width: 1280, height: 900 } })
  const { page } = watched
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await page.getByRole('link', { name: 'Domains', exact: true }).click()
  await page.waitForURL(`${server.adminUrl}/domains`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  return watched
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) })

test('the list shows a hostile description as text; one name is edited with its change shown before "Speichern"', async ({ pages }) => {
  const watched = await openDomains(pages)
  const { page } = watched
  expect(await page.getByText('1–3 von 3 Domains').isVisible()).toBe(true)
  expect(await row(page, 'beispiel.de').getByText(HOSTILE, { exact: true }).isVisible()).toBe(true)
  expect(await page.locator('#console img').count()).toBe(0)
  expect(await axeViolations(page)).toEqual([])

  await page.getByRole('searchbox', { name: 'Suchen' }).fill('zweit')
  await page.getByRole('button', { name: 'Suchen' }).click()
  await page.getByText('1–1 von 1 Domains').waitFor()
  await page.getByRole('searchbox', { name: 'Suchen' }).fill('')
  await page.getByRole('button', { name: 'Suchen' }).click()
  await page.getByText('1–3 von 3 Domains').waitFor()

  await page.getByRole('button', { name: 'beispiel.de bearbeiten' }).click()
  const form = page.getByRole('form', { name: 'beispiel.de bearbeiten' })
  await form.getByLabel('Preis', { exact: true }).fill('5900')
  await form.getByLabel('Status').selectOption({ label: 'reserviert' })
  await form.getByRole('button', { name: 'Vorschau' }).click()
  const preview = page.getByRole('region', { name: 'Vorschau' })
  await preview.waitFor()
  expect(await preview.innerText()).toMatch(/Preis: 4\.000 → 5\.900/)
  expect(await preview.innerText()).toMatch(/Status: – → reserviert/)
  expect(fs.readFileSync(domainsFile, 'utf8')).toBe(DOMAINS)
  expect(await axeViolations(page)).toEqual([])

  await preview.getByRole('button', { name: 'Speichern' }).click()
  await page.getByText('Gespeichert: die Domains-Datei ist geschrieben und in Kraft.').waitFor()
  expect(fs.readFileSync(domainsFile, 'utf8')).toBe(
    DOMAINS.replace('    price: 4000 # alt\n', '    price: 5900 # alt\n').replace("Angebot'\n", "Angebot'\n    status: reserved\n"),
  )
  expect(await row(page, 'beispiel.de').innerText()).toMatch(/5\.900 EUR[\s\S]*reserviert/)
  expect(watched.requests.filter((url) => !url.startsWith(server.adminUrl!))).toEqual([])
})

test('several names selected get their price raised by 10 %; "Speichern" after a change of the file is refused', async ({ pages }) => {
  const watched = await openDomains(pages)
  const { page } = watched
  await page.getByRole('checkbox', { name: 'zweite.de auswählen' }).check()
  await page.getByRole('checkbox', { name: 'dritte.de auswählen' }).check()
  const selection = page.getByRole('form', { name: 'Ausgewählte ändern' })
  await selection.getByLabel('Preis ändern um (%)').fill('10')
  await selection.getByRole('button', { name: 'Vorschau' }).click()
  const preview = page.getByRole('region', { name: 'Vorschau' })
  await preview.waitFor()
  expect(await preview.innerText()).toMatch(/zweite\.de[\s\S]*Preis: 1\.000 → 1\.100[\s\S]*dritte\.de[\s\S]*Preis: 2\.000 → 2\.200/)
  await preview.getByRole('button', { name: 'Speichern' }).click()
  await page.getByText('Gespeichert: die Domains-Datei ist geschrieben und in Kraft.').waitFor()
  expect(fs.readFileSync(domainsFile, 'utf8')).toContain('  zweite.de: {price: 1100}\n  dritte.de: {price: 2200}\n')

  await page.getByRole('button', { name: 'zweite.de entfernen' }).click()
  await page.getByRole('region', { name: 'Vorschau' }).waitFor()
  // Someone edits the file by hand meanwhile. The refused save's 409 is what the browser logs for it, and expected.
  fs.appendFileSync(domainsFile, '# von Hand dazu\n')
  watched.allow(/status of 409/)
  await page.getByRole('region', { name: 'Vorschau' }).getByRole('button', { name: 'Speichern' }).click()
  await page.getByText('Die Domains-Datei wurde seit der Vorschau geändert (hier oder auf einem anderen Server). Bitte die Vorschau neu laden.').waitFor()
  expect(fs.readFileSync(domainsFile, 'utf8')).toContain('zweite.de')
})
