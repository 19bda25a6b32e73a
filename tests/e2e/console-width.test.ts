// The console's two widest tables on a 1280 px screen (issue 38): "Domains" and the Übersicht's table per domain,
// with long names (an IDN among them), prices in the millions, long descriptions and every check column filled,
// fit the screen: neither the page nor any table's container scrolls sideways. On a phone the tables stay cards.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { openStore } from '../../src/server/store/index.ts'
import type { DomainCheck } from '../../src/shared/domain-checks.ts'
import { browserTest, signInToConsole, type Pages } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import type { ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const DAY = 86_400_000
const LONG = [
  'immobilienfinanzierung-vergleich-deutschland.de',
  'bäckerei-und-konditorei-mustermann-seit-1908.de',
  'die-allerbeste-ferienwohnung-am-bodensee-mit-seeblick.de',
  'kfz-versicherungsvergleich-online-guenstig.de',
]
const DESCRIPTION = 'Seit 2004 registriert, ideal für Vergleichsportale rund um Baufinanzierung, Anschlussfinanzierung und Forward-Darlehen.'

const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `domains:
  ${LONG[0]}: {price: 1250000, minOffer: 950000, priceType: negotiable, language: auto, description: '${DESCRIPTION}'}
  ${LONG[1]}: {price: 8900, priceType: fixed, status: reserved, language: en, description: '${DESCRIPTION}'}
  ${LONG[2]}: {price: 24900, minOffer: 19900, priceType: on-request, language: nl}
  ${LONG[3]}: {price: 490000, currency: CHF, minOffer: 250000, priceType: negotiable, language: pl, description: '${DESCRIPTION}'}
`,
})
let server: ServerProcess

test.beforeAll(async ({ stack }) => {
  ;({ server } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
  const ascii = LONG.map((name) => new URL(`http://${name}/`).hostname)
  // Inquiries with offers in the millions: the Übersicht's table gets a row per name, with its highest and median.
  for (const [i, host] of ascii.entries()) {
    for (const offer of ['1200000', '1250000']) {
      const { token, hash } = await fetchForm(server.url, host)
      const body = { ...VISITOR, themail3h6: `besucher${i}@example.org`, offer, token, hash }
      expect((await requestAs(host, `${server.url}/api/contact`, { method: 'POST', body })).status).toBe(200)
    }
  }
  const now = Date.now()
  const check = (domain: string, overrides: Partial<DomainCheck>): DomainCheck => ({
    domain,
    checkedAt: now,
    pointing: 'elsewhere',
    pointingDetail: '198.51.100.7',
    records: 'left-over',
    recordsDetail: 'v=FORSALE1;fval=EUR1250000',
    expiry: 'unknown',
    expiresAt: now + 10 * DAY,
    expiryDetail: 'RDAP: no answer in time',
    rdapCheckedAt: now,
    ...overrides,
  })
  const store = await openStore({ dataDir: server.dataDir, databaseUrl: (await storeEnv(server.dataDir)).DATABASE_URL })
  try {
    await store.saveDomainChecks(
      ascii.map((domain) => check(domain, {})),
      { now, expiringMs: 30 * DAY, notify: () => [] },
    )
  } finally {
    await store.close()
  }
})

async function openConsole(pages: Pages, link: string): Promise<Page> {
  const { page } = await pages.watch({ viewport: { width: 1280, height: 800 } })
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await page.getByRole('link', { name: link, exact: true }).click()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  return page
}

/** The page's and each table's container's overflow to the side, in px (0: it fits), and the tables' display. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const over = (element: Element) => element.scrollWidth - element.clientWidth
    const tables = [...document.querySelectorAll('table')]
    return {
      page: over(document.documentElement),
      containers: tables.map((table) => over(table.parentElement!)),
      tables: tables.map((table) => Math.max(0, table.getBoundingClientRect().right - table.parentElement!.getBoundingClientRect().right)),
      display: tables.map((table) => getComputedStyle(table).display),
    }
  })

test('"Domains" fits a 1280 px screen with long names, prices, descriptions and checks; on a phone its rows stay cards', async ({ pages }) => {
  const page = await openConsole(pages, 'Domains')
  // The checks come after the page: wait for them, they make the widest column.
  await page.getByText('Eintrag übrig (verkauft)').first().waitFor()
  await page.getByRole('rowheader', { name: LONG[2] }).waitFor()
  expect(await overflow(page)).toEqual({ page: 0, containers: [0], tables: [0], display: ['table'] })
  await page.getByRole('button', { name: `${LONG[0]} bearbeiten` }).click()
  await page.getByRole('form', { name: `${LONG[0]} bearbeiten` }).waitFor()
  expect((await overflow(page)).page).toBe(0)

  // The same page turned into a phone's: the media query, not a new sign-in, makes the cards.
  await page.setViewportSize({ width: 360, height: 800 })
  expect(await overflow(page)).toEqual({ page: 0, containers: [0], tables: [0], display: ['block'] })
})

test('the Übersicht fits a 1280 px screen: the names that need attention and the table per domain with offers in the millions', async ({ pages }) => {
  const page = await openConsole(pages, 'Übersicht')
  await page.getByRole('region', { name: /Domains mit Handlungsbedarf/ }).waitFor()
  await page
    .getByRole('cell', { name: /1\.250\.000/ })
    .first()
    .waitFor()
  const sizes = await overflow(page)
  expect(sizes.containers.length).toBeGreaterThanOrEqual(2)
  expect(sizes).toEqual({ page: 0, containers: sizes.containers.map(() => 0), tables: sizes.tables.map(() => 0), display: sizes.tables.map(() => 'table') })

  await page.setViewportSize({ width: 360, height: 800 })
  expect((await overflow(page)).page).toBe(0)
})
