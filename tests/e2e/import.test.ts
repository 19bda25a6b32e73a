// "Domains importieren" in a real Chromium against the production server process: choosing a registrar's export,
// the preview with its problems shown as text, "Übernehmen", and the page of an imported name with its price.
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations, browserTest, followConsoleLink, signInToConsole, type Pages, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import type { ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import')

const test = browserTest({ domains: 'unknownHosts: not-found\ndomains:\n  beispiel.de:\n    price: 4000\n' })
let server: ServerProcess
let domainsFile: string

test.beforeAll(async ({ stack }) => {
  ;({ server } = stack)
  domainsFile = stack.domainsFile!
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})

/** Signs in as the owner would and goes to the import page by the navigation. */
async function openImport(pages: Pages): Promise<WatchedPage> {
  const watched = await pages.watch({ viewport: { width: 1280, height: 900 } })
  const { page } = watched
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await followConsoleLink(page, 'Import')
  await page.waitForURL(`${server.adminUrl}/domains-importieren`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  return watched
}

const choose = (page: Page, name: string, text: string) =>
  page.getByLabel('Datei (CSV oder JSON, höchstens 10 MB)').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })

test('a list with hostile names shows them as text among its errors, and cannot be taken over', async ({ pages }) => {
  const { page } = await openImport(pages)
  await choose(page, 'liste.csv', 'Domain;Preis\n<img src=x onerror=alert(1)>.de;1\n"\u001b[31mrot.de";2\nneu.de;"1.000,00 €"\n')
  await page.getByRole('button', { name: 'Vorschau' }).click()
  const errors = page.getByRole('region', { name: 'Fehler' })
  await errors.waitFor()
  expect(await errors.getByText('<img src=x onerror=alert(1)>.de', { exact: true }).isVisible()).toBe(true)
  expect(await errors.innerText()).toContain('Zeile 3:')
  expect(await page.locator('#console img').count()).toBe(0)
  expect(await page.getByRole('button', { name: 'Übernehmen' }).isDisabled()).toBe(true)
  expect(await axeViolations(page)).toEqual([])
  expect(fs.readFileSync(domainsFile, 'utf8')).not.toContain('neu.de')
})

test('a registrar\'s export: the preview shows the changes, "Übernehmen" writes them, and the new name\'s page shows its price', async ({ pages }) => {
  const watched = await openImport(pages)
  const { page } = watched
  await choose(page, 'inwx-de.csv', fs.readFileSync(path.join(FIXTURES, 'inwx-de.csv'), 'utf8'))
  await page.getByRole('button', { name: 'Vorschau' }).click()
  const added = page.getByRole('table', { name: 'Neu (4)' })
  await added.waitFor()
  expect(await added.getByRole('rowheader').allInnerTexts()).toEqual(['münchen-beispiel.de', 'bücher.de', 'ohne-preis.de', 'dollar-name.com'])
  const changed = page.getByRole('table', { name: 'Geändert (1)' })
  expect(await changed.getByRole('row').nth(1).innerText()).toMatch(/beispiel\.de\s+4\.000 → 4\.900\s+– → 1\.500\s+EUR/)
  expect(fs.readFileSync(domainsFile, 'utf8')).not.toContain('bücher.de')

  await page.getByRole('button', { name: 'Übernehmen' }).click()
  await page.getByText('Übernommen: die Domains-Datei ist geschrieben; der Server lädt sie von selbst neu.').waitFor()
  expect(fs.readFileSync(domainsFile, 'utf8')).toContain('  bücher.de:\n    price: 2500\n    minOffer: 500\n')
  expect(watched.requests.filter((url) => !url.startsWith(server.adminUrl!))).toEqual([])

  // Every host name resolves to this machine in the test's Chromium (helpers/chromium.ts). The 404s before the
  // server has reloaded are what the poll waits out, nothing else.
  watched.allow(/status of 404/)
  await expect
    .poll(async () => {
      const response = await page.goto(`http://bücher.de:${server.port}/`)
      return response?.status()
    })
    .toBe(200)
  expect(await page.getByText(/Preis: 2\.500\s€/u).isVisible()).toBe(true)
})
