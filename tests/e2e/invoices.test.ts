// A negotiated deal's invoice in a real Chromium against the production server process and a real SMTP server
// (decision 038): the owner marks it paid on "Verkäufe" before the buyer gave an address, and is told there is no
// invoice; the buyer types the billing address on the deal page (no script), found by its labels; the owner then
// issues the invoice with "Rechnung ausstellen"; both see it listed with its download.
import { expect } from 'vitest'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { pdfText, SELLER_ENV } from '../helpers/invoice.ts'
import { acceptedOffer, getBytes } from '../helpers/purchase.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'

const test = browserTest({
  env: {
    MIN_FILL_SECONDS: '0',
    CONTACT_RATE_LIMIT: '0',
    ...SELLER_ENV,
  },
  domains: 'domains:\n  rechnung.de: { minOffer: 100, vat: included }\n',
})
let server: ServerProcess
let smtp: SmtpSink
let deal: Awaited<ReturnType<typeof acceptedOffer>>

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  const client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  const { cookie } = await client.signIn()
  deal = await acceptedOffer(server.url, 'rechnung.de', client, cookie, '1.200')
})

test('paid without an address → the buyer gives it on the deal page → "Rechnung ausstellen" on Verkäufe → listed on both sides', async ({ pages }) => {
  const { page: owner } = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(owner, server.adminUrl!, PASSWORD)
  await owner.goto(`${server.adminUrl}/verkaeufe`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Zahlung erhalten', exact: true }).click()
  await owner.getByRole('button', { name: 'Zahlung erhalten: bestätigen' }).click()
  // The step's answer makes the page read the deal's invoices again: none, and why.
  await expect.poll(() => owner.getByText('Keine Rechnung: Der Käufer hat noch keine Rechnungsanschrift angegeben.', { exact: false }).count()).toBe(1)
  expect(await owner.getByRole('button', { name: 'Rechnung ausstellen' }).count()).toBe(0)

  // The buyer, from the acceptance mail's link, on the deal page without any script.
  await expect.poll(() => smtp.messages.filter((mail) => mail.envelope.to.includes(deal.email)).length).toBeGreaterThanOrEqual(1)
  const link = /https:\/\/rechnung\.de(\/kauf\/[A-Za-z0-9_.-]+)/.exec(
    smtp.messages.find((mail) => mail.envelope.to.includes(deal.email))!.parsed.text ?? '',
  )![1]!
  const { page: buyer, requests } = await pages.watch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, javaScriptEnabled: false })
  await buyer.goto(`http://rechnung.de:${server.port}${link}`)
  const form = buyer.getByRole('region', { name: 'Rechnungsanschrift' })
  expect(await form.getByLabel('Name').inputValue()).toBe('Erika Mustermann')
  await form.getByLabel('Name').fill('Erika Muster')
  await form.getByLabel('Straße und Hausnummer').fill('Musterweg 7')
  await form.getByLabel('PLZ').fill('80331')
  await form.getByLabel('Ort').fill('München')
  await form.getByLabel('Land').selectOption('DE')
  await form.getByRole('button', { name: 'Rechnungsanschrift speichern' }).click()
  await expect.poll(() => buyer.getByText('Ihre Rechnungsanschrift ist gespeichert.', { exact: false }).count()).toBe(1)
  expect(requests.every((url) => url.startsWith(`http://rechnung.de:${server.port}/`))).toBe(true)

  // The form as axe sees it (axe needs script: another page for it), with the saved address filled in.
  const { page: checked } = await pages.watch({ viewport: { width: 390, height: 844 } })
  await checked.goto(`http://rechnung.de:${server.port}${link}`)
  expect(await checked.getByRole('region', { name: 'Rechnungsanschrift' }).getByLabel('Straße und Hausnummer').inputValue()).toBe('Musterweg 7')
  expect(await axeViolations(checked)).toEqual([])

  await owner.reload()
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Rechnung ausstellen' }).click()
  await owner.getByRole('button', { name: 'Rechnung ausstellen: bestätigen' }).click()
  const listed = owner.getByRole('link', { name: 'Rechnung RE-00001' })
  await expect.poll(() => listed.count()).toBe(1)
  expect(await listed.getAttribute('href')).toMatch(/^\/api\/invoices\/\d+$/)
  expect(await owner.getByRole('button', { name: 'Rechnung ausstellen' }).count()).toBe(0)
  expect(await axeViolations(owner)).toEqual([])

  await buyer.reload()
  const download = buyer.getByRole('link', { name: 'Rechnung RE-00001 (PDF)' })
  expect(await download.count()).toBe(1)
  expect(await buyer.getByRole('region', { name: 'Rechnungsanschrift' }).count()).toBe(0)
  const pdf = await getBytes('rechnung.de', `${server.url}${await download.getAttribute('href')}`)
  expect(pdfText(pdf.body).replace(/\s+/g, ' ')).toContain('Erika Muster Musterweg 7 80331 München')
}, 120_000)
