// The negotiation path with an English buyer in a real Chromium against the production server process, a real SMTP
// server and the test project's store: the buyer makes an offer on the English page, the owner counter-offers and,
// once the buyer has taken it up, accepts it in the console; the buyer opens the deal page from the mail, in English
// (its GiroCode at the counter-offer's amount), reveals the transfer code and confirms "Domain received"; the mails
// of the negotiation and of the deal's steps are English.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { requestAs } from '../helpers/contact.ts'
import { decodeQrPng } from '../helpers/qr.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const EN = TEXTS.en
const PASSWORD = 'Kanzlei-Rheinblick-2026'
const BUYER = 'john.smith@example.com'
const CODE = 'EN-Transfer-Code-9'

// No console error or warning, no hydration mismatch on any page.
const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `domains:
  english.com:
    language: en
    price: 5000
    minOffer: 1000
    payment:
      bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
`,
})
let server: ServerProcess
let smtp: SmtpSink

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})

const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
const site = 'http://english.com'
const local = (link: string) => link.replace('https://english.com', `${site}:${server.port}`)
const field = (page: Page, name: string | RegExp) => page.getByRole('textbox', { name, exact: typeof name === 'string' })

test('offer on the English page → counter-offer → accepted → the deal page and the step mails in English → code → received', async ({ pages }) => {
  // The buyer makes an offer on the English page (hydrated, exactly as the server rendered it).
  const visitor = await pages.open('english.com', { locale: 'en-GB' })
  await field(visitor.page, EN.labelName).fill('John Smith')
  await field(visitor.page, EN.labelEmail).fill(BUYER)
  await field(visitor.page, EN.labelMessage).fill('Would you sell it for 2,000 euros?')
  await field(visitor.page, /^Your offer in EUR/).fill('€2,000')
  await visitor.page.getByRole('button', { name: EN.submit }).click()
  await expect.poll(() => visitor.page.getByRole('status').textContent()).toBe(EN.success)

  // The owner counter-offers in the console.
  const client = consoleClient(server, PASSWORD)
  const { cookie } = await client.signIn()
  const id = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
  const owner = (await pages.watch({ viewport: { width: 1280, height: 900 } })).page
  await signInToConsole(owner, server.adminUrl!, PASSWORD)
  await owner.goto(`${server.adminUrl}/anfragen/${id}`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Gegenangebot', exact: true }).click()
  await owner.getByLabel('Betrag (EUR)').fill('3.500')
  await owner.getByRole('button', { name: 'Gegenangebot senden' }).click()
  await expect.poll(() => owner.getByText('Gegenangebot gespeichert; es wird gesendet.').count()).toBe(1)
  await expect.poll(() => mailsTo(BUYER).length).toBe(1)
  const counterMail = mailsTo(BUYER)[0]!.parsed
  expect(counterMail.subject).toMatch(/^Re: Inquiry about english\.com:/)
  expect(counterMail.text).toContain('I can offer you the domain for €3,500.')
  expect(counterMail.text).not.toMatch(/Guten Tag|schrieben Sie/)

  // The buyer takes it up (by mail, outside the product); the owner accepts: the deal is at the counter-offer's amount.
  await owner.getByRole('button', { name: 'Annehmen' }).click()
  await owner.getByRole('button', { name: 'Annahme senden' }).click()
  await expect.poll(() => owner.getByText('Annahme gespeichert; sie wird gesendet.').count()).toBe(1)
  await expect.poll(() => owner.getByRole('heading', { name: 'Verkauf' }).count()).toBe(1)
  await expect.poll(() => mailsTo(BUYER).length).toBe(2)
  const acceptMail = mailsTo(BUYER)[1]!.parsed
  expect(acceptMail.subject).toMatch(/^Re: Inquiry about english\.com:/)
  expect(acceptMail.text).toContain('Agreed amount: €3,500')
  expect(acceptMail.text).not.toMatch(/Guten Tag|schrieben Sie/)
  const link = /https:\/\/english\.com\/kauf\/[A-Za-z0-9_.-]+/.exec(acceptMail.text ?? '')![0]

  // The deal page from the mail, on a phone: English throughout.
  const buyerWatch = await pages.watch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'de-DE' })
  const buyer = buyerWatch.page
  await buyer.goto(local(link))
  expect(await buyer.getAttribute('html', 'lang')).toBe('en')
  expect(await buyer.getByRole('heading', { level: 1 }).innerText()).toBe('Your purchase of english.com')
  const facts = await buyer.locator('.deal-facts').first().innerText()
  expect(facts).toContain('Agreed amount')
  expect(facts).toContain('€3,500')
  expect(await buyer.locator('body').innerText()).toContain('Please pay the agreed amount in one of the ways below')
  const reference = /DL-20\d\d-\d{4}/.exec(facts)![0]
  const qr = await buyer.locator('.deal-qr svg').screenshot()
  expect(decodeQrPng(qr)).toBe(`BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR3500.00\n\n\n${reference}`)
  expect(await axeViolations(buyer)).toEqual([])

  // The owner's steps mail the buyer in English.
  const deal = (await (await client.call(`/api/inquiries/${id}/deal`, { cookie })).json()) as { deal: { id: number } }
  expect((await client.call(`/api/deals/${deal.deal.id}/paid`, { method: 'POST', body: {}, cookie })).status).toBe(200)
  await expect.poll(() => mailsTo(BUYER).length).toBe(3)
  expect(mailsTo(BUYER)[2]!.parsed.subject).toBe('Re: Inquiry about english.com: Payment received')
  expect(mailsTo(BUYER)[2]!.parsed.text).toContain(`your payment of €3,500 for english.com (purchase number ${reference}) has arrived`)
  expect((await client.call(`/api/deals/${deal.deal.id}/transfer`, { method: 'POST', body: { code: CODE }, cookie })).status).toBe(200)
  await expect.poll(() => mailsTo(BUYER).length).toBe(4)
  expect(mailsTo(BUYER)[3]!.parsed.subject).toBe('Re: Inquiry about english.com: Transfer of the domain')

  // The buyer reveals the code and confirms, in English.
  await buyer.reload()
  await buyer.getByLabel('Your email address').fill(BUYER)
  await buyer.getByRole('button', { name: 'Show code' }).click()
  expect(await buyer.locator('.deal-code').innerText()).toBe(CODE)
  await buyer.getByRole('button', { name: 'Domain received' }).click()
  await expect.poll(() => buyer.locator('.deal-sold').count()).toBe(1)
  expect(await buyer.locator('.deal-sold').innerText()).toBe('english.com: sold')
  expect(await buyer.locator('body').innerText()).toContain('The purchase is complete. The domain is yours now. Thank you!')
  await expect.poll(() => mailsTo(BUYER).length).toBe(5)
  expect(mailsTo(BUYER)[4]!.parsed.subject).toBe('Re: Inquiry about english.com: Purchase completed')
  for (const mail of smtp.messages) expect(mail.raw).not.toContain(CODE)
  expect((await requestAs('english.com', `${server.url}/sitemap.xml`)).html).not.toContain('<loc>')
}, 120_000)
