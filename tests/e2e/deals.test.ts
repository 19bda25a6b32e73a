// A whole sale in a real Chromium against the production server process and a real SMTP server: the owner accepts
// an offer in the console, the buyer opens the deal page from the mail on a phone, the GiroCode as Chromium drew it
// decodes (zbarimg) to the right IBAN, amount and reference, the owner marks the payment and enters the transfer
// code on "Verkäufe", the buyer reveals the code with their address, confirms "Domain erhalten", and the name's
// own page says sold.
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { decodeQrPng } from '../helpers/qr.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const BUYER = 'kaeuferin@example.net'
const CODE = 'Auth-9x!Transfer'

const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `domains:
  kaufbar.de:
    price: 2000
    minOffer: 500
    vat: included
    payment:
      bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
`,
})
let server: ServerProcess
let smtp: SmtpSink
let inquiryId: number

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  const client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  const { token, hash } = await fetchForm(server.url, 'kaufbar.de')
  const sent = await requestAs('kaufbar.de', `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: BUYER, offer: '1.234', token, hash },
  })
  expect(sent.status).toBe(200)
  const { cookie } = await client.signIn()
  inquiryId = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
})

const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
/** The page's address as the browser reaches it here: the mail's https://kaufbar.de/… on the test server's port. */
const local = (link: string) => link.replace('https://kaufbar.de', `http://kaufbar.de:${server.port}`)

test('accept → deal page from the mail → GiroCode decodes → paid → code → revealed → received → the page says sold', async ({ pages }) => {
  // The owner accepts in the console.
  const { page: owner } = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(owner, server.adminUrl!, PASSWORD)
  await owner.goto(`${server.adminUrl}/anfragen/${inquiryId}`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Annehmen' }).click()
  await owner.getByRole('button', { name: 'Annahme senden' }).click()
  await expect.poll(() => owner.getByText('Annahme gespeichert; sie wird gesendet.').count()).toBe(1)
  await expect.poll(() => owner.getByRole('heading', { name: 'Verkauf' }).count()).toBe(1)

  // The buyer opens the page from the mail, on a phone.
  await expect.poll(() => mailsTo(BUYER).length).toBe(1)
  const link = /https:\/\/kaufbar\.de\/kauf\/[A-Za-z0-9_.-]+/.exec(mailsTo(BUYER)[0]!.parsed.text ?? '')![0]
  const buyerWatch = await pages.watch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
  const buyer = buyerWatch.page
  await buyer.goto(local(link))
  expect(await buyer.getByRole('heading', { level: 1 }).innerText()).toBe('Ihr Kauf von kaufbar.de')
  const reference = /DL-20\d\d-\d{4}/.exec(await buyer.locator('.deal-facts').first().innerText())![0]
  // The code as Chromium drew it, read back by a real decoder.
  const qr = await buyer.locator('.deal-qr svg').screenshot()
  expect(decodeQrPng(qr)).toBe(`BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR1234.00\n\n\n${reference}`)
  expect(await axeViolations(buyer)).toEqual([])
  // Nothing but the page's own address was requested: no third party, no script.
  expect(buyerWatch.requests.every((url) => url.startsWith(`http://kaufbar.de:${server.port}/`))).toBe(true)

  // The owner marks the payment on "Verkäufe", then enters the transfer code.
  await owner.getByRole('link', { name: 'Verkäufe' }).click()
  await owner.waitForURL(`${server.adminUrl}/verkaeufe`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Zahlung erhalten', exact: true }).click()
  await owner.getByRole('button', { name: 'Zahlung erhalten: bestätigen' }).click()
  await expect.poll(() => owner.locator('.sale h2').first().innerText()).toContain('Bezahlt')
  await owner.getByRole('button', { name: 'Übertragen', exact: true }).click()
  await owner.getByLabel('Transfer-Code (AuthInfo)').fill(CODE)
  await owner.getByRole('button', { name: 'Übertragen: bestätigen' }).click()
  await expect.poll(() => owner.locator('.sale h2').first().innerText()).toContain('Übertragen')
  expect(await axeViolations(owner)).toEqual([])

  // The buyer reveals the code with their address, and confirms.
  await buyer.reload()
  expect(await buyer.content()).not.toContain(CODE)
  await buyer.getByLabel('Ihre E-Mail-Adresse').fill(BUYER.toUpperCase())
  await buyer.getByRole('button', { name: 'Code anzeigen' }).click()
  expect(await buyer.locator('.deal-code').innerText()).toBe(CODE)
  await buyer.getByRole('button', { name: 'Domain erhalten' }).click()
  await expect.poll(() => buyer.locator('.deal-sold').count()).toBe(1)
  expect(await buyer.locator('.deal-sold').innerText()).toBe('kaufbar.de: verkauft')

  // The name's own page says sold at once.
  await buyer.goto(`http://kaufbar.de:${server.port}/`)
  expect(await buyer.locator('body').innerText()).toMatch(/verkauft/i)
  for (const mail of smtp.messages) expect(mail.raw).not.toContain(CODE)
  expect(mailsTo(BUYER).map((mail) => mail.parsed.subject)).toEqual(
    expect.arrayContaining(['Re: Anfrage zu kaufbar.de: Zahlung erhalten', 'Re: Anfrage zu kaufbar.de: Übertragung der Domain']),
  )
}, 120_000)
