// The buyer's side of a sale in a real Chromium with JavaScript switched off, against the production server process
// and a real SMTP server: "Jetzt kaufen" and the checkout are a link and a plain form; on the deal page opened from
// the mail, "Kauf abbrechen", the code behind the e-mail check and "Domain erhalten" are plain form posts, each
// answered with the page as it now is. (The owner's steps go through the console's API: the console is not under
// test here.)
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { InboxPage, InquiryDetail } from '../../src/shared/console-api.ts'
import { browserTest, type Pages, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { requestAs } from '../helpers/contact.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const CODE = 'Ohne-Skript-Code-42'

const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
domains:
  ohneskript.de: { price: 1200, priceType: fixed, vat: included }
  abbrechen.de: { price: 1300, priceType: fixed, vat: included }
`,
})
let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
/** A phone with JavaScript switched off. */
const openWithoutScript = (pages: Pages): Promise<WatchedPage> =>
  pages.watch({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true })

const site = (host: string) => `http://${host}:${server.port}`
const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
const send = (pathName: string, body: unknown = {}) => client.call(pathName, { method: 'POST', body, cookie })

/** "Jetzt kaufen" on the name's page, the checkout filled in and sent: all without script. */
async function checkOut(page: Page, host: string, email: string) {
  await page.goto(`${site(host)}/`)
  await page.getByRole('link', { name: 'Jetzt kaufen' }).click()
  await page.waitForURL(`${site(host)}/kaufen`)
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Erika Mustermann')
  await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(email)
  await page.getByRole('textbox', { name: 'Straße und Hausnummer', exact: true }).fill('Hauptstraße 1')
  await page.getByRole('textbox', { name: 'PLZ', exact: true }).fill('10115')
  await page.getByRole('textbox', { name: 'Ort', exact: true }).fill('Berlin')
  await page.getByRole('combobox', { name: 'Land' }).selectOption('DE')
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Verbindlich kaufen' }).click()
  await page.waitForURL(`${site(host)}/kaufen?gesendet=1`)
  expect(await page.locator('body').innerText()).toContain('Vielen Dank! Ihr Kauf ist eingegangen.')
}

/** The owner confirms the checkout of `email`; resolves with the deal's id and its page's path from the buyer's mail. */
async function confirmed(host: string, email: string) {
  const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const id = inbox.items.find((item) => item.email === email)!.id
  const answer = await send(`/api/inquiries/${id}/accept`)
  expect(answer.status, await answer.clone().text()).toBe(200)
  const deal = ((await answer.json()) as InquiryDetail).deal!
  await expect.poll(() => mailsTo(email).length).toBe(1)
  const link = new RegExp(`https://${host.replace('.', '\\.')}(/kauf/[A-Za-z0-9_.-]+)`).exec(mailsTo(email)[0]!.parsed.text ?? '')![1]!
  return { dealId: deal.id, link }
}

test('without script: checkout, then "Kauf abbrechen" on the deal page cancels the purchase and mails the buyer', async ({ pages }) => {
  const email = 'abbrecherin@example.net'
  const { page } = await openWithoutScript(pages)
  await checkOut(page, 'abbrechen.de', email)
  const { link } = await confirmed('abbrechen.de', email)
  await page.goto(`${site('abbrechen.de')}${link}`)
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Ihr Kauf von abbrechen.de')
  await page.getByRole('button', { name: 'Kauf abbrechen' }).click()
  await page.waitForURL(`${site('abbrechen.de')}${link}`)
  expect(await page.locator('body').innerText()).toContain('Sie haben den Kauf abgebrochen.')
  expect(await page.getByRole('button', { name: 'Kauf abbrechen' }).count()).toBe(0)
  await expect.poll(() => mailsTo(email).map((mail) => mail.parsed.subject)).toContain('Re: Anfrage zu abbrechen.de: Kauf abgebrochen')
  // The name is for sale again.
  await page.goto(`${site('abbrechen.de')}/`)
  expect(await page.getByRole('link', { name: 'Jetzt kaufen' }).count()).toBe(1)
})

test('without script: the code behind the e-mail check (a wrong address refused), then "Domain erhalten": sold', async ({ pages }) => {
  const email = 'ohneskript@example.net'
  const watchedPage = await openWithoutScript(pages)
  const { page } = watchedPage
  await checkOut(page, 'ohneskript.de', email)
  const { dealId, link } = await confirmed('ohneskript.de', email)
  expect((await send(`/api/deals/${dealId}/paid`)).status).toBe(200)
  expect((await send(`/api/deals/${dealId}/transfer`, { code: CODE })).status).toBe(200)
  await page.goto(`${site('ohneskript.de')}${link}`)
  expect(await page.content()).not.toContain(CODE)
  // Paid: the buyer's cancel is gone.
  expect(await page.getByRole('button', { name: 'Kauf abbrechen' }).count()).toBe(0)

  await page.getByLabel('Ihre E-Mail-Adresse').fill('jemand-anderes@example.net')
  await page.getByRole('button', { name: 'Code anzeigen' }).click()
  await page.waitForLoadState()
  expect(await page.locator('body').innerText()).toContain('Diese E-Mail-Adresse passt nicht zu diesem Kauf.')
  expect(await page.content()).not.toContain(CODE)
  // The refusal is answered 400, which Chromium reports on its console: that, and nothing else.
  expect(watchedPage.problems.splice(0)).toEqual(['console error: Failed to load resource: the server responded with a status of 400 (Bad Request)'])

  await page.getByLabel('Ihre E-Mail-Adresse').fill(email)
  await page.getByRole('button', { name: 'Code anzeigen' }).click()
  await expect.poll(() => page.locator('.deal-code').count()).toBe(1)
  expect(await page.locator('.deal-code').innerText()).toBe(CODE)

  await page.getByRole('button', { name: 'Domain erhalten' }).click()
  await page.waitForURL(`${site('ohneskript.de')}${link}`)
  await expect.poll(() => page.locator('.deal-sold').count()).toBe(1)
  expect(await page.locator('.deal-sold').innerText()).toBe('ohneskript.de: verkauft')
  await expect.poll(() => mailsTo(email).map((mail) => mail.parsed.subject)).toContain('Re: Anfrage zu ohneskript.de: Kauf abgeschlossen')
  await page.goto(`${site('ohneskript.de')}/`)
  expect(await page.locator('body').innerText()).toMatch(/verkauft/i)
  expect((await requestAs('ohneskript.de', `${server.url}/sitemap.xml`)).html).not.toContain('<loc>')
})
