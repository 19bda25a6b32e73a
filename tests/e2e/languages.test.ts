// French, Spanish, Italian, Dutch and Polish pages in a real Chromium against the production server process and a
// real SMTP server (decision 048): each page is in its language, hydrates from its own table of texts without a
// mismatch, answers a wrong send in it, and the buyer's confirmation mail comes in it; `auto` picks among the
// languages the owner allows by the browser's preference.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { LANGUAGE_NAME, type Language } from '../../src/shared/language.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { BUYER_WORDS } from '../../src/server/mail/buyer-words.ts'
import { browserTest } from '../helpers/chromium.ts'

/** One name per new language, with the price as its readers write it. */
const SITES = [
  { language: 'fr', host: 'vente.fr', price: 'Prix\u00a0: 4\u202f900\u00a0€' },
  { language: 'es', host: 'venta.es', price: 'Precio: 4900\u00a0€' },
  { language: 'it', host: 'vendita.it', price: 'Prezzo: 4900\u00a0€' },
  { language: 'nl', host: 'tekoop.nl', price: 'Prijs: €\u00a04.900' },
  { language: 'pl', host: 'sprzedam.pl', price: 'Cena: 4900\u00a0€' },
] as const

// No console error or warning, no hydration mismatch: React renders exactly the words the server sent.
const test = browserTest({
  domains: `unknownHosts: not-found
default: { confirm: notice, price: 4900 }
domains:
${SITES.map((site) => `  ${site.host}: { language: ${site.language} }`).join('\n')}
  europa.eu: { language: auto, languages: [de, en, fr, es, it, nl, pl] }
  nur-zwei.de: { language: auto }
`,
})

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })
const status = (page: Page) => page.getByRole('status')

test.for(SITES.map((site) => [site.language, site.host, site.price] as const))(
  'the %s page of %s speaks its language, answers a wrong send in it, and the confirmation mail is in it',
  async ([language, host, price], { pages, stack }) => {
    const text = TEXTS[language]
    // A browser set to German: the domain's fixed language wins.
    const { page } = await pages.open(host, { locale: 'de-DE' })
    expect(await page.getAttribute('html', 'lang')).toBe(language)
    expect(await page.title()).toBe(text.title(host))
    expect(await page.getByRole('heading', { level: 2, name: text.interested }).isVisible()).toBe(true)
    expect(await page.locator('.price').textContent()).toBe(price)

    await field(page, text.labelEmail).fill('kupiec@')
    await page.getByRole('button', { name: text.submit }).click()
    await expect.poll(() => status(page).textContent()).toBe(text.invalid)
    for (const hint of [text.hintName, text.hintEmail, text.hintMessage]) expect(await page.getByText(hint).isVisible(), hint).toBe(true)

    const email = `buyer-${language}@example.org`
    await field(page, text.labelName).fill(`Buyer ${language}`)
    await field(page, text.labelEmail).fill(email)
    await field(page, text.labelMessage).fill(`Message from the ${language} page`)
    await page.getByRole('button', { name: text.submit }).click()
    await expect.poll(() => status(page).textContent()).toBe(text.success)

    const words = BUYER_WORDS[language].confirm
    await expect.poll(() => stack.smtp.messages.some((mail) => mail.envelope.to.includes(email))).toBe(true)
    const confirmation = stack.smtp.messages.find((mail) => mail.envelope.to.includes(email))!
    expect(confirmation.parsed.subject).toBe(words.subject.notice(host))
    expect(confirmation.parsed.text).toContain(words.lead.notice(host))
    expect(confirmation.parsed.text).toContain(words.signature(host))
    // The owner's mail stays German and names the buyer's language.
    const owner = stack.smtp.messages.find((mail) => mail.parsed.text?.includes(`Message from the ${language} page`) && !mail.envelope.to.includes(email))!
    expect(owner.parsed.text).toContain(`Sprache: ${LANGUAGE_NAME[language]}`)
  },
)

test.for([
  ['pl-PL', 'pl'],
  ['fr-CH', 'fr'],
  ['nl-BE', 'nl'],
  ['ja-JP', 'de'],
] as const)(
  'language: auto with all seven allowed, in a browser set to %s, is a %s page that hydrates without a mismatch',
  async ([locale, language], { pages }) => {
    const { page } = await pages.open('europa.eu', { locale })
    expect(await page.getAttribute('html', 'lang')).toBe(language)
    await page.getByRole('button', { name: TEXTS[language as Language].submit }).click()
    await expect.poll(() => status(page).textContent()).toBe(TEXTS[language as Language].invalid)
  },
)

test('language: auto without a list of languages stays German for a Polish browser', async ({ pages }) => {
  const { page } = await pages.open('nur-zwei.de', { locale: 'pl-PL' })
  expect(await page.getAttribute('html', 'lang')).toBe('de')
})
