// The fixed-price sale in a real Chromium against the production server process, a real SMTP server and the test
// project's store (SQLite, and PostgreSQL in the project "postgres"): the buyer clicks "Jetzt kaufen" on the name's
// page, fills in the checkout (no script on it), sees that it was sent; the owner confirms it in the console
// ("Bestätigen", then a second click before the mail goes), the buyer opens the deal page from the mail, at the
// listed price, and the GiroCode as Chromium drew it decodes (zbarimg) to the right IBAN, amount and reference; the
// owner marks the payment and enters the transfer code on "Verkäufe", the buyer reveals the code and confirms
// "Domain erhalten", and the name's page says sold and leaves the sitemap.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { requestAs } from '../helpers/contact.ts'
import { decodeQrPng } from '../helpers/qr.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const BUYER = 'festkaeuferin@example.net'
const CODE = 'Fest-Auth#2026'

const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `domains:
  festpreis.de:
    price: 3500
    priceType: fixed
    vat: included
    payment:
      bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
`,
})
let server: ServerProcess
let smtp: SmtpSink

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})

const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
const site = () => `http://festpreis.de:${server.port}`

test('Jetzt kaufen → checkout → the owner confirms → deal page from the mail → GiroCode decodes → paid → code → revealed → received → sold', async ({
  pages,
}) => {
  const buyerWatch = await pages.watch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const buyer: Page = buyerWatch.page
  await buyer.goto(`${site()}/`)
  await buyer.getByRole('link', { name: 'Jetzt kaufen' }).click()
  await buyer.waitForURL(`${site()}/kaufen`)
  expect(await buyer.getByRole('heading', { level: 1 }).innerText()).toBe('festpreis.de kaufen')
  expect(await axeViolations(buyer)).toEqual([])
  await buyer.getByRole('textbox', { name: 'Name', exact: true }).fill('Erika Mustermann')
  await buyer.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(BUYER)
  await buyer.getByRole('textbox', { name: 'Firma (optional)', exact: true }).fill('Muster GmbH')
  await buyer.getByRole('textbox', { name: 'Straße und Hausnummer', exact: true }).fill('Hauptstraße 1')
  await buyer.getByRole('textbox', { name: 'PLZ', exact: true }).fill('10115')
  await buyer.getByRole('textbox', { name: 'Ort', exact: true }).fill('Berlin')
  await buyer.getByRole('combobox', { name: 'Land' }).selectOption('DE')
  // The browser itself holds the form back until the binding tick is set (required).
  expect(await buyer.getByRole('checkbox').evaluate((box: HTMLInputElement) => box.validity.valueMissing)).toBe(true)
  await buyer.getByRole('checkbox').check()
  await buyer.getByRole('button', { name: 'Verbindlich kaufen' }).click()
  await buyer.waitForURL(`${site()}/kaufen?gesendet=1`)
  expect(await buyer.locator('body').innerText()).toContain('Vielen Dank! Ihr Kauf ist eingegangen.')
  // Nothing but the page's own address was requested.
  expect(buyerWatch.requests.every((url) => url.startsWith(`${site()}/`))).toBe(true)

  // The owner is told at once, and confirms in the console: "Bestätigen", then the second click that mails.
  await expect.poll(() => mailsTo('owner@example.org').some((mail) => (mail.parsed.text ?? '').includes('Kauf zum Festpreis: 3.500'))).toBe(true)
  const client = consoleClient(server, PASSWORD)
  const { cookie } = await client.signIn()
  const id = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
  const owner = (await pages.watch({ viewport: { width: 1280, height: 900 } })).page
  await signInToConsole(owner, server.adminUrl!, PASSWORD)
  await owner.goto(`${server.adminUrl}/anfragen/${id}`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(await owner.getByRole('heading', { name: 'Kauf zum Festpreis' }).count()).toBe(1)
  expect(await owner.getByRole('button', { name: 'Gegenangebot' }).count()).toBe(0)
  await owner.getByRole('button', { name: 'Bestätigen' }).click()
  expect(mailsTo(BUYER)).toHaveLength(0)
  await owner.getByRole('button', { name: 'Bestätigung senden' }).click()
  await expect.poll(() => owner.getByText('Kauf bestätigt; der Käufer erhält den Link zur Kaufseite.').count()).toBe(1)

  // The buyer opens the deal page from the mail: the listed price, nothing the form could have changed.
  await expect.poll(() => mailsTo(BUYER).length).toBe(1)
  const link = /https:\/\/festpreis\.de(\/kauf\/[A-Za-z0-9_.-]+)/.exec(mailsTo(BUYER)[0]!.parsed.text ?? '')![1]!
  await buyer.goto(`${site()}${link}`)
  expect(await buyer.getByRole('heading', { level: 1 }).innerText()).toBe('Ihr Kauf von festpreis.de')
  const facts = await buyer.locator('.deal-facts').first().innerText()
  expect(facts).toContain('3.500\u00a0€ inkl. MwSt.')
  const reference = /DL-20\d\d-\d{4}/.exec(facts)![0]
  // The code as Chromium drew it, read back by a real decoder (no BIC configured: its line stays empty).
  const qr = await buyer.locator('.deal-qr svg').screenshot()
  expect(decodeQrPng(qr)).toBe(`BCD\n002\n1\nSCT\n\nJürgen Müller\nDE89370400440532013000\nEUR3500.00\n\n\n${reference}`)
  expect(await axeViolations(buyer)).toEqual([])
  // Listed in the sitemap while it is for sale.
  expect((await requestAs('festpreis.de', `${server.url}/sitemap.xml`)).html).toContain('<loc>')

  // The owner marks the payment on "Verkäufe", then enters the transfer code.
  await owner.getByRole('link', { name: 'Verkäufe' }).click()
  await owner.waitForURL(`${server.adminUrl}/verkaeufe`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(await owner.locator('.sale').first().innerText()).toContain(reference)
  await owner.getByRole('button', { name: 'Zahlung erhalten', exact: true }).click()
  await owner.getByRole('button', { name: 'Zahlung erhalten: bestätigen' }).click()
  await expect.poll(() => owner.locator('.sale h2').first().innerText()).toContain('Bezahlt')
  await owner.getByRole('button', { name: 'Übertragen', exact: true }).click()
  await owner.getByLabel('Transfer-Code (AuthInfo)').fill(CODE)
  await owner.getByRole('button', { name: 'Übertragen: bestätigen' }).click()
  await expect.poll(() => owner.locator('.sale h2').first().innerText()).toContain('Übertragen')
  await expect.poll(() => mailsTo(BUYER).length).toBe(3)

  // The buyer reveals the code with their address, and confirms.
  await buyer.reload()
  expect(await buyer.content()).not.toContain(CODE)
  await buyer.getByLabel('Ihre E-Mail-Adresse').fill(BUYER)
  await buyer.getByRole('button', { name: 'Code anzeigen' }).click()
  expect(await buyer.locator('.deal-code').innerText()).toBe(CODE)
  await buyer.getByRole('button', { name: 'Domain erhalten' }).click()
  await expect.poll(() => buyer.locator('.deal-sold').count()).toBe(1)
  expect(await buyer.locator('.deal-sold').innerText()).toBe('festpreis.de: verkauft')

  // The name's own page says sold at once, without "Jetzt kaufen"; the sitemap drops it.
  await buyer.goto(`${site()}/`)
  expect(await buyer.locator('body').innerText()).toMatch(/verkauft/i)
  expect(await buyer.getByRole('link', { name: 'Jetzt kaufen' }).count()).toBe(0)
  expect((await requestAs('festpreis.de', `${server.url}/sitemap.xml`)).html).not.toContain('<loc>')
  await expect.poll(() => mailsTo(BUYER).map((mail) => mail.parsed.subject)).toContain('Re: Anfrage zu festpreis.de: Kauf abgeschlossen')
  expect(mailsTo(BUYER).map((mail) => mail.parsed.subject)).toEqual(
    expect.arrayContaining(['Re: Anfrage zu festpreis.de: Zahlung erhalten', 'Re: Anfrage zu festpreis.de: Übertragung der Domain']),
  )
  for (const mail of smtp.messages) expect(mail.raw).not.toContain(CODE)
}, 120_000)
