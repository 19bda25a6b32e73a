// English pages in a real Chromium against the production server process and a real SMTP server: the visitor reads,
// types and sends in English, hydration renders the same English the server did, and `auto` follows the browser's
// language.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { browserTest } from '../helpers/chromium.ts'

const EN = TEXTS.en
// No console error or warning, no hydration mismatch: React renders exactly the English the server sent.
const test = browserTest({
  domains: `unknownHosts: not-found
domains:
  english.com: { language: en, price: 4900, minOffer: 1500 }
  both.de: { language: auto }
`,
})

const field = (page: Page, name: string | RegExp) => page.getByRole('textbox', { name, exact: typeof name === 'string' })
const status = (page: Page) => page.getByRole('status')

test('an English page: the visitor types and sends in English, and is told in English that it was sent', async ({ pages, stack }) => {
  const { page } = await pages.open('english.com', { locale: 'de-DE' })
  expect(await page.getAttribute('html', 'lang')).toBe('en')
  expect(await page.title()).toBe('english.com is for sale')
  expect(await page.locator('.price').textContent()).toBe('Price: €4,900')
  expect(await page.getByText('Minimum offer: €1,500').isVisible()).toBe(true)
  await field(page, EN.labelName).fill('John Smith')
  await field(page, EN.labelEmail).fill('john@example.com')
  await field(page, EN.labelMessage).fill('Would you take 2,000 euros for it?')
  await field(page, /^Your offer in EUR/).fill('€2,000')
  await page.getByRole('button', { name: EN.submit }).click()
  await expect.poll(() => status(page).textContent()).toBe(EN.success)
  await expect.poll(() => stack.smtp.messages.some((mail) => mail.parsed.text?.includes('Would you take 2,000 euros'))).toBe(true)
  const mail = stack.smtp.messages.find((m) => m.parsed.text?.includes('Would you take 2,000 euros'))!
  expect(mail.parsed.text).toContain('Sprache: Englisch')
  expect(mail.parsed.text).toContain('Angebot: 2.000\u00a0€')
})

test('an invalid send on an English page shows English hints, which go once the field is right', async ({ pages }) => {
  const { page } = await pages.open('english.com')
  await field(page, EN.labelEmail).fill('john@')
  await page.getByRole('button', { name: EN.submit }).click()
  await expect.poll(() => status(page).textContent()).toBe(EN.invalid)
  for (const hint of [EN.hintName, EN.hintEmail, EN.hintMessage]) expect(await page.getByText(hint).isVisible()).toBe(true)
  expect(await field(page, EN.labelEmail).getAttribute('aria-invalid')).toBe('true')
  await field(page, EN.labelEmail).fill('john@example.com')
  await expect.poll(() => page.getByText(EN.hintEmail).count()).toBe(0)
  await field(page, /^Your offer in EUR/).fill('lots')
  await page.getByRole('button', { name: EN.submit }).click()
  await expect.poll(() => page.getByText(EN.hintOffer).isVisible()).toBe(true)
})

test.for([
  ['en-US', 'en', 'both.de is for sale'],
  ['de-DE', 'de', 'both.de steht zum Verkauf'],
])('language: auto in a browser set to %s shows the %s page and hydrates it without a mismatch', async ([locale, language, title], { pages }) => {
  const { page } = await pages.open('both.de', { locale })
  expect(await page.getAttribute('html', 'lang')).toBe(language)
  expect(await page.title()).toBe(title)
  await page.getByRole('button', { name: TEXTS[language as 'de' | 'en'].submit }).click()
  await expect.poll(() => status(page).textContent()).toBe(TEXTS[language as 'de' | 'en'].invalid)
})
