// Visitor statistics in a real Chromium against the production server process (decision 049): a visit and a turn to
// the form are counted once, from the requests the browser makes anyway; the Übersicht shows them, accessible.
import type { BrowserContextOptions } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { queryStore } from '../helpers/postgres.ts'
import type { ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
/** What a visitor's Chrome says; headless Chromium's own User-Agent ("HeadlessChrome") is a bot's. */
const VISITOR: BrowserContextOptions = {
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  locale: 'en-GB',
}

const test = browserTest()
let server: ServerProcess

test.beforeAll(async ({ stack }) => {
  ;({ server } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})

const pageUrl = (host: string) => `http://${host}:${server.port}/`

/** The counts stored for `domain`, as "metric key" → count; the server writes them every 10 seconds. */
async function countsOf(domain: string): Promise<Record<string, number>> {
  const rows = await queryStore<{ metric: string; key: string; count: number }>(
    server.dataDir,
    'SELECT metric, key, count FROM visit_counts WHERE domain = ?',
    [domain],
  )
  const visitors = await queryStore<{ count: number }>(server.dataDir, 'SELECT COUNT(*) AS count FROM visitor_hashes WHERE domain = ?', [domain])
  return {
    ...Object.fromEntries(rows.map((row) => [`${row.metric} ${row.key}`.trimEnd(), Number(row.count)])),
    ...(Number(visitors[0]!.count) > 0 && { visitor: Number(visitors[0]!.count) }),
  }
}

test('a visit, a reload and a turn to the form are one visit, one visitor and one turn; headless Chromium is a bot', async ({ pages }) => {
  const watched = await pages.watch(VISITOR)
  const { page } = watched
  await page.goto(pageUrl('example.de'))
  await page.reload()
  await page.getByRole('textbox', { name: 'E-Mail', exact: true }).focus()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  // Again after a reload: the script comes from the browser's cache, or is counted once a day anyway.
  await page.reload()
  await page.getByRole('textbox', { name: 'Name', exact: true }).focus()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(watched.requests.filter((url) => url.includes('/assets/client-')).length).toBeGreaterThan(0)
  await pages.close(watched)

  // Chromium as it comes, headless: its User-Agent gives it away.
  const { page: bot } = await pages.watch()
  await bot.goto(pageUrl('example.de'))

  await expect
    .poll(() => countsOf('example.de'), { timeout: 25_000 })
    .toEqual({ visit: 1, visitor: 1, 'filtered repeat': 2, 'filtered bot': 1, form: 1, 'source direct': 1, 'language en': 1 })
}, 60_000)

test('the Übersicht shows the visit, its source and the turn to the form, draws its charts and passes axe', async ({ pages }) => {
  const visitor = await pages.watch({ ...VISITOR, locale: 'de-DE' })
  await visitor.page.goto(`${pageUrl('zweite.example')}?ref=Newsletter`)
  await visitor.page.getByRole('textbox', { name: 'E-Mail', exact: true }).focus()
  await visitor.page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await expect
    .poll(() => countsOf('zweite.example').then((counts) => [counts.visit, counts.form, counts['source ref:newsletter']]), { timeout: 25_000 })
    .toEqual([1, 1, 1])
  await pages.close(visitor)

  // The figures are the owner's: without a session the CSV is refused like every console route.
  expect((await fetch(`${server.adminUrl}/api/overview.csv?days=7`)).status).toBe(401)

  const watched = await pages.watch({ viewport: { width: 1280, height: 900 } })
  const { page } = watched
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  // recharts is a chunk of its own: the Posteingang loads the console's one entry script, the Übersicht one more.
  const consoleScripts = () => new Set(watched.requests.filter((url) => /\/assets\/console-[\w-]+\.js$/.test(url))).size
  expect(consoleScripts()).toBe(1)
  await page.goto(`${server.adminUrl}/uebersicht?days=7`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  // Drawn after hydration, inside the boxes the server rendered.
  await page.waitForSelector('.stats-chart-funnel svg')
  await page.waitForSelector('.stats-chart-daily svg')
  expect(consoleScripts()).toBe(2)
  const row = (await page.locator('table.stats-names tr', { hasText: 'zweite.example' }).innerText()).split('\t').map((cell) => cell.trim())
  // Domain, Besucher, Besuche, Bots gefiltert, Zum Formular, Anfragen.
  expect(row.slice(0, 6)).toEqual(['zweite.example', '1', '1', '0', '1', '0'])
  expect(await page.getByRole('rowheader', { name: 'Eigener Link (ref, utm_source): newsletter' }).count()).toBe(1)
  await page.getByRole('button', { name: 'Besuche', exact: true }).click()
  expect(await page.locator('table.stats-names th[aria-sort]').getAttribute('aria-sort')).toBe('descending')
  expect(await axeViolations(page)).toEqual([])
  expect(watched.requests.filter((url) => !url.startsWith(server.adminUrl!))).toEqual([])
  const csv = await page.request.get(`${server.adminUrl}/api/overview.csv?days=7&sep=;`)
  expect(csv.status()).toBe(200)
  expect((await csv.text()).split('\r\n').find((line) => line.startsWith('"zweite.example"'))).toMatch(/^"zweite\.example";1;1;0;0;1;0;0;/)
}, 90_000)
