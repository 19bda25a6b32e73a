// The owner's portfolio in a real Chromium against the production server: "Weitere Domains" hydrates with the page,
// and /domains is searched, sorted and paged without any script.
import { expect } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { axeViolations, browserTest } from '../helpers/chromium.ts'

const filler = Array.from({ length: 55 }, (_, i) => `  name-${String(i).padStart(2, '0')}.de:\n    price: ${1000 + i}\n`).join('')
const test = browserTest({
  domains: `unknownHosts: not-found
portfolio: true
domains:
  kaffee-shop.de:
    price: 4900
  kaffee-bar.de:
    price: 2500
  münchen-kaffee.de:
    price: 3000
${filler}`,
})

test('a page lists the other names with links to their pages, and hydrates without a mismatch', async ({ pages }) => {
  const { page } = await pages.open('kaffee-shop.de')
  const section = page.getByRole('region', { name: TEXT.portfolio })
  expect(await section.getByRole('listitem').count()).toBe(12)
  expect(await section.getByRole('link', { name: 'münchen-kaffee.de' }).getAttribute('href')).toBe('https://xn--mnchen-kaffee-wob.de/')
  expect(await axeViolations(page)).toEqual([])
})

test('/domains has no accessibility violation, sorted or searched', async ({ pages, stack: { server } }) => {
  const watched = await pages.watch()
  for (const query of ['', '?q=kaffee&sort=price&order=desc']) {
    await watched.page.goto(`http://kaffee-shop.de:${server.port}/domains${query}`)
    expect(await axeViolations(watched.page)).toEqual([])
  }
})

test('/domains is searched, sorted and paged without script', async ({ pages, stack: { server } }) => {
  // axe needs script, so it runs in the test above; the page has none either way.
  const watched = await pages.watch({ javaScriptEnabled: false })
  const { page } = watched
  await page.goto(`http://kaffee-shop.de:${server.port}/`)
  await page.getByRole('link', { name: TEXT.portfolioAll }).click()
  await page.waitForURL(/\/domains$/)
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TEXT.domainListTitle)
  expect(await page.getByRole('row').count()).toBe(51)

  await page.getByRole('link', { name: TEXT.domainListNext }).click()
  await page.waitForURL(/page=2/)
  expect(await page.getByRole('row').count()).toBe(9)

  await page.getByRole('searchbox', { name: TEXT.domainListSearch }).fill('kaffee')
  await page.getByRole('button', { name: TEXT.domainListSubmit }).click()
  await page.waitForURL(/q=kaffee/)
  const names = () => page.locator('tbody tr td:first-child').allTextContents()
  expect(await names()).toEqual(['kaffee-bar.de', 'kaffee-shop.de', 'münchen-kaffee.de'])

  await page.getByRole('link', { name: TEXT.domainListPrice }).click()
  await page.waitForURL(/sort=price/)
  expect(await names()).toEqual(['kaffee-bar.de', 'münchen-kaffee.de', 'kaffee-shop.de'])
  await page.getByRole('link', { name: new RegExp(`^${TEXT.domainListPrice}`) }).click()
  await page.waitForURL(/order=desc/)
  expect(await names()).toEqual(['kaffee-shop.de', 'münchen-kaffee.de', 'kaffee-bar.de'])
  expect(await page.getByRole('searchbox', { name: TEXT.domainListSearch }).inputValue()).toBe('kaffee')
  expect(watched.requests.every((url) => new URL(url).hostname === 'kaffee-shop.de')).toBe(true)
})
