// The fixed-price checkout in a real Chromium against the production server process and a real SMTP server: the
// buyer clicks "Jetzt kaufen" on the name's page, fills in the checkout (no script on it), sees that it was sent;
// the owner confirms it in the console ("Bestätigen", then a second click before the mail goes), and the buyer
// opens the deal page from the mail, at the listed price.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { axeViolations, closePage, openPage, signInToConsole, startE2eStack, type E2eStack, type WatchedPage } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const BUYER = 'festkaeuferin@example.net'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-e2e-'))
const domainsFile = path.join(dir, 'domains.yaml')

let stack: E2eStack
let browser: Browser
let server: ServerProcess
let smtp: SmtpSink
const watched: WatchedPage[] = []

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `domains:
  festpreis.de:
    price: 3500
    priceType: fixed
    vat: included
    payment:
      bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
`,
  )
  stack = await startE2eStack({ MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0', DOMAINS_FILE: domainsFile })
  ;({ browser, server, smtp } = stack)
  expect((await consoleClient(server, PASSWORD).setPassword()).code).toBe(0)
})
afterAll(async () => {
  await stack?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})
afterEach(async () => {
  for (const page of watched.splice(0)) expect(await closePage(page)).toEqual([])
})

async function open(options: Parameters<typeof openPage>[1] = {}): Promise<WatchedPage> {
  const page = await openPage(browser, options)
  watched.push(page)
  return page
}

const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))
const site = () => `http://festpreis.de:${server.port}`

test('Jetzt kaufen → checkout → sent → the owner confirms in the console → the buyer opens the deal page from the mail', async () => {
  const buyerWatch = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
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
  const owner = (await open({ viewport: { width: 1280, height: 900 } })).page
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
  expect(await buyer.locator('.deal-facts').first().innerText()).toContain('3.500\u00a0€ inkl. MwSt.')
}, 120_000)
