// An instalment plan in a real Chromium against the production server process and a real SMTP server: the owner
// accepts an offer with a plan of 3 in the console, the buyer opens the deal page from the mail (the schedule, each
// rate's reference, the GiroCode of the first rate as Chromium drew it), a bank statement imported on "Kontoauszug"
// marks the first rate, the app's jobs run at a time past a rate's date (runDue, on the server's configuration and
// store) find it overdue (the owner and the buyer mailed), and the last rate marked on "Verkäufe" completes the payment.
import { expect, onTestFinished } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import type { DealSummary } from '../../src/shared/deal-api.ts'
import { buildTestApp } from '../helpers/app.ts'
import { camtStatement } from '../helpers/camt.ts'
import { axeViolations, browserTest, signInToConsole } from '../helpers/chromium.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { decodeQrPng } from '../helpers/qr.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const BUYER = 'ratenkaeufer@example.net'
const DAY = 86_400_000

const test = browserTest({
  env: { MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' },
  domains: `domains:
  ratenkauf.de:
    minOffer: 500
    payment:
      bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
`,
})
let server: ServerProcess
let smtp: SmtpSink
let domainsFile: string
let inquiryId: number

test.beforeAll(async ({ stack }) => {
  ;({ server, smtp } = stack)
  domainsFile = stack.domainsFile!
  const client = consoleClient(server, PASSWORD)
  expect((await client.setPassword()).code).toBe(0)
  const { token, hash } = await fetchForm(server.url, 'ratenkauf.de')
  const sent = await requestAs('ratenkauf.de', `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: BUYER, offer: '1.000', token, hash },
  })
  expect(sent.status).toBe(200)
  const { cookie } = await client.signIn()
  inquiryId = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
})

const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.envelope.to.includes(email))

test('a plan of 3: accepted in the console, paid by a statement, a rate overdue under a fixed clock, the last rate pays the deal', async ({ pages }) => {
  // The owner accepts with a plan of 3 monthly rates.
  const { page: owner } = await pages.watch({ viewport: { width: 1280, height: 900 } })
  await signInToConsole(owner, server.adminUrl!, PASSWORD)
  await owner.goto(`${server.adminUrl}/anfragen/${inquiryId}`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Annehmen' }).click()
  await owner.getByLabel('Ratenzahlung anbieten').check()
  await owner.getByLabel('Monatsraten (2–60)').fill('3')
  await owner.getByLabel('Übertragung sofort').check()
  await owner.getByText('Risiko: Der Käufer hat die Domain, bevor er alles bezahlt hat.').waitFor()
  await owner.getByLabel('Übertragung nach der letzten Rate (empfohlen)').check()
  expect(await axeViolations(owner)).toEqual([])
  await owner.getByRole('button', { name: 'Annahme senden' }).click()
  await expect.poll(() => owner.getByText('Annahme gespeichert; sie wird gesendet.').count()).toBe(1)

  // The buyer opens the page from the mail.
  await expect.poll(() => mailsTo(BUYER).length).toBe(1)
  const mail = mailsTo(BUYER)[0]!.parsed.text ?? ''
  expect(mail).toContain('Ratenzahlung: 3 Monatsraten zu 333,34\u00a0€')
  const link = /https:\/\/ratenkauf\.de\/kauf\/[A-Za-z0-9_.-]+/.exec(mail)![0].replace('https://ratenkauf.de', `http://ratenkauf.de:${server.port}`)
  const buyerWatch = await pages.watch({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
  const buyer = buyerWatch.page
  await buyer.goto(link)
  const schedule = buyer.getByRole('table')
  const rows = await schedule.getByRole('row').allInnerTexts()
  expect(rows).toHaveLength(4)
  const reference = /DL-20\d\d-\d{4}/.exec(rows[1]!)![0]
  expect(rows[1]).toMatch(new RegExp(`^Rate 1 von 3\\s+.+\\s+333,34\\s€\\s+${reference}-R01\\s+als Nächstes fällig Diese Rate bezahlen$`))
  expect(rows[3]).toMatch(new RegExp(`^Rate 3 von 3\\s+.+\\s+333,33\\s€\\s+${reference}-R03\\s+offen Diese Rate bezahlen$`))
  expect(decodeQrPng(await buyer.locator('.deal-qr svg').screenshot())).toBe(
    `BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR333.34\n\n\n${reference}-R01`,
  )
  expect(await axeViolations(buyer)).toEqual([])
  expect(buyerWatch.requests.every((url) => url.startsWith(`http://ratenkauf.de:${server.port}/`))).toBe(true)

  // A bank statement with the first rate, imported in the console, marks it.
  await owner.goto(`${server.adminUrl}/kontoauszug`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  const statement = camtStatement([{ bankRef: 'E2E-RATE-1', amount: '333.34', remittance: `Rate 1 ${reference}-R01` }])
  await owner.getByLabel('Datei (CAMT.053, höchstens 5 MB)').setInputFiles({ name: 'camt053.xml', mimeType: 'application/xml', buffer: Buffer.from(statement) })
  await owner.getByRole('button', { name: 'Vorschau' }).click()
  await owner.getByText('Rate 1 wird als erhalten markiert').waitFor()
  await owner.getByRole('button', { name: 'Übernehmen' }).click()
  await owner.getByText('Übernommen: 1 Buchungen verbucht, 0 Käufe als bezahlt markiert, 1 Raten als erhalten markiert.').waitFor()
  await expect.poll(() => mailsTo(BUYER).length).toBe(2)
  expect(mailsTo(BUYER)[1]!.parsed.text).toContain('Ihre Zahlung von 333,34\u00a0€ (Rate 1 von 3)')
  await buyer.reload()
  expect(await buyer.getByRole('row').nth(1).innerText()).toMatch(/bezahlt am/)
  expect(await buyer.getByText('Für Rate 2 von 3, fällig am').count()).toBe(1)

  // 8 days past rate 2's date, on a clock the test holds: the app's jobs, built in this process for the server's
  // configuration and store, run what is due then. The rate is overdue, the owner told, the buyer reminded; the mails
  // go out from this app's outbox (drain) or the server's, whichever claims them first, never from both.
  const client = consoleClient(server, PASSWORD)
  const { cookie } = await client.signIn()
  const deal = ((await (await client.call('/api/deals', { cookie })).json()) as { deals: DealSummary[] }).deals[0]!
  const secondDue = deal.plan!.rates[1]!.dueAt
  const jobs = await buildTestApp(
    { DATA_DIR: server.dataDir, SMTP_URL: smtp.url, MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0', DOMAINS_FILE: domainsFile, ADMIN_PORT: 'off' },
    { clusterWorker: true },
  )
  onTestFinished(() => jobs.close())
  expect(await jobs.app.jobs.runDue(secondDue + 8 * DAY)).toContainEqual({ job: 'deal-deadlines', period: expect.any(String), result: 'done' })
  await jobs.app.outbox.drain()
  await expect
    .poll(() => mailsTo('owner@example.org').filter((m) => m.parsed.subject === 'Re: Anfrage zu ratenkauf.de: Zahlungsfrist verstrichen').length)
    .toBe(1)
  const notice = mailsTo('owner@example.org').find((m) => m.parsed.subject === 'Re: Anfrage zu ratenkauf.de: Zahlungsfrist verstrichen')!
  expect(notice.parsed.text).toContain(`Rate 2 von 3 für ratenkauf.de (Kaufnummer ${reference}, 333,33\u00a0€, Verwendungszweck ${reference}-R02)`)
  await expect.poll(() => mailsTo(BUYER).length).toBe(3)
  expect(mailsTo(BUYER)[2]!.parsed.text).toContain(`bei uns ist sie noch nicht eingegangen. Bitte überweisen Sie sie mit dem Verwendungszweck ${reference}-R02`)
  // Rate 3 is not due yet at that clock, and nothing goes out twice.
  expect(mailsTo(BUYER).filter((m) => (m.parsed.text ?? '').includes(`${reference}-R03`))).toHaveLength(0)

  // The owner marks rates 2 and 3 received on "Verkäufe": the last one is the deal's payment.
  await owner.goto(`${server.adminUrl}/verkaeufe`)
  await owner.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await owner.getByRole('button', { name: 'Rate 2 von 3: Rate erhalten' }).click()
  await expect.poll(() => owner.getByRole('button', { name: 'Rate 2 von 3: Rate erhalten' }).count()).toBe(0)
  expect(await axeViolations(owner)).toEqual([])
  await owner.getByRole('button', { name: 'Rate 3 von 3: Rate erhalten' }).click()
  await expect.poll(() => owner.locator('.sale h2').first().innerText()).toContain('Bezahlt')
  await expect.poll(() => mailsTo(BUYER).length).toBe(5)
  expect(mailsTo(BUYER).filter((m) => (m.parsed.text ?? '').includes('Ihre Zahlung von 1.000\u00a0€ für ratenkauf.de'))).toHaveLength(1)
  await buyer.goto(link)
  expect(await buyer.getByText('Alle Raten sind bezahlt. Vielen Dank!').count()).toBe(1)
  expect(await buyer.getByText('Bezahlt: 1.000 € · Offen: 0 €').count()).toBe(1)
}, 180_000)
