// The daily checks in the console, in a real Chromium against the production server process: on "Domains" each
// name's state ("zeigt nicht hierher", "Eintrag fehlt", "läuft ab am …" in red under 30 days), on the Übersicht the
// names that need attention; details from DNS with markup in them shown as text. The checks are stored as the job
// stores them (the job itself is tested against loopback servers in tests/integration/domain-check-job.test.ts).
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { openStore } from '../../src/server/store/index.ts'
import type { DomainCheck } from '../../src/shared/domain-checks.ts'
import { axeViolations, browserTest, signInToConsole, type Pages } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { storeEnv } from '../helpers/postgres.ts'
import type { ServerProcess } from '../helpers/server.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const DAY = 86_400_000
const HOSTILE = '<img src=x onerror=alert(1)>'

const test = browserTest({ domains: 'domains:\n  hier.de: {price: 1000}\n  anderswo.de: {price: 1000}\n  bald.de: {price: 1000}\n  neu.de: {price: 1000}\n' })
let server: ServerProcess

test.beforeAll(async ({ stack }) => {
  ;({ server } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
  const now = Date.now()
  const check = (domain: string, overrides: Partial<DomainCheck>): DomainCheck => ({
    domain,
    checkedAt: now,
    pointing: 'here',
    pointingDetail: '192.0.2.10',
    records: 'ok',
    recordsDetail: '',
    expiry: 'known',
    expiresAt: now + 300 * DAY,
    expiryDetail: 'RDAP rdap.example',
    rdapCheckedAt: now,
    ...overrides,
  })
  const store = await openStore({ dataDir: server.dataDir, databaseUrl: (await storeEnv(server.dataDir)).DATABASE_URL })
  try {
    await store.saveDomainChecks(
      [
        check('hier.de', {}),
        check('anderswo.de', { pointing: 'elsewhere', pointingDetail: `198.51.100.7 ${HOSTILE}`, records: 'missing', recordsDetail: 'no _for-sale record' }),
        check('bald.de', { records: 'stale', recordsDetail: `fval: DNS has ${HOSTILE}`, expiresAt: now + 10 * DAY }),
      ],
      // The server has no NOTIFY_SECRET: its sender marks the notification failed at once (it is never sent unsigned).
      { now, expiringMs: 30 * DAY, notify: (ascii) => (ascii === 'anderswo.de' ? ['http://127.0.0.1:9/hook?token=geheim'] : []) },
    )
  } finally {
    await store.close()
  }
})
async function openConsole(pages: Pages, link: string): Promise<Page> {
  const { page } = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(page, server.adminUrl!, PASSWORD)
  await page.getByRole('link', { name: link, exact: true }).click()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  return page
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) })
const red = (page: Page, name: string, text: string | RegExp) => row(page, name).locator('.check-bad').filter({ hasText: text })

test('"Domains" shows each name\'s state; an expiry under 30 days and a name pointing elsewhere in red', async ({ pages }) => {
  const page = await openConsole(pages, 'Domains')
  await row(page, 'anderswo.de').getByText('zeigt nicht hierher').waitFor()
  expect(await red(page, 'anderswo.de', 'zeigt nicht hierher').count()).toBe(1)
  expect(await red(page, 'anderswo.de', 'Eintrag fehlt').count()).toBe(1)
  expect(await red(page, 'bald.de', 'Eintrag veraltet').count()).toBe(1)
  expect(await red(page, 'bald.de', /^läuft ab am \d{2}\.\d{2}\.\d{4}$/).count()).toBe(1)
  expect(await row(page, 'hier.de').getByText('zeigt hierher').isVisible()).toBe(true)
  expect(await row(page, 'hier.de').locator('.check-bad').count()).toBe(0)
  expect(
    await row(page, 'hier.de')
      .getByText(/^läuft ab am /)
      .isVisible(),
  ).toBe(true)
  expect(await row(page, 'neu.de').getByText('noch nicht geprüft').isVisible()).toBe(true)
  // The details are titles, as text: the markup from DNS made no element.
  expect(await row(page, 'anderswo.de').getByText('zeigt nicht hierher').getAttribute('title')).toBe(`198.51.100.7 ${HOSTILE}`)
  expect(await page.locator('#console img').count()).toBe(0)
  expect(await axeViolations(page)).toEqual([])
})

test('the Übersicht lists the names that need attention, pointing elsewhere first, and links each to "Domains"', async ({ pages }) => {
  const page = await openConsole(pages, 'Übersicht')
  const section = page.getByRole('region', { name: /Domains mit Handlungsbedarf/ })
  await section.waitFor()
  expect(await section.getByRole('heading').textContent()).toBe('Domains mit Handlungsbedarf (2)')
  expect(await section.getByRole('rowheader').allTextContents()).toEqual(['anderswo.de', 'bald.de'])
  expect(await red(page, 'bald.de', /^läuft ab am /).count()).toBe(1)
  expect(await page.locator('#console img').count()).toBe(0)
  await section.getByRole('link', { name: 'bald.de' }).click()
  await page.waitForURL(/\/domains\?q=bald\.de$/)
  await page.getByText('1–1 von 1 Domains').waitFor()
})

test('GET /api/domain-checks needs a session, takes at most a page of names, and refuses anything else', async () => {
  const client = consoleClient(server, PASSWORD)
  expect((await client.call('/api/domain-checks?attention=1')).status).toBe(401)
  const { cookie } = await client.signIn()
  const names = await client.call('/api/domain-checks?names=hier.de,neu.de', { cookie })
  expect(names.status).toBe(200)
  expect(((await names.json()) as { checks: { domain: string; name: string }[] }).checks.map(({ domain, name }) => [domain, name])).toEqual([
    ['hier.de', 'hier.de'],
  ])
  const tooMany = Array.from({ length: 101 }, (_, i) => `n${i}.de`).join(',')
  for (const query of ['', 'attention=2', 'names=a.de&attention=1', `names=${tooMany}`]) {
    const refused = await client.call(`/api/domain-checks?${query}`, { cookie })
    expect(refused.status, query).toBe(400)
    expect(await refused.json()).toEqual({ error: 'Die Anfrage ist ungültig.' })
  }
})

test('the Postausgang lists a failed domain notification by host and event, and "Erneut senden" queues it again', async ({ pages }) => {
  const page = await openConsole(pages, 'Postausgang')
  const row = page.getByRole('row').filter({ hasText: 'Webhook an 127.0.0.1:9 (domain.unreachable)' })
  await expect
    .poll(async () => {
      await page.reload()
      return row.count()
    })
    .toBe(1)
  expect(await row.getByText('NOTIFY_SECRET is not set', { exact: false }).isVisible()).toBe(true)
  expect(await page.getByText('geheim').count()).toBe(0)
  const resent = page.waitForResponse((response) => /\/api\/outbox\/domain-notices\/\d+\/resend$/.test(response.url()))
  await row.getByRole('button', { name: 'Erneut senden' }).click()
  expect((await resent).status()).toBe(200)
})
