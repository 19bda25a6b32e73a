// Instalment plans (decision 042) against the real server process, a real SMTP server and the test project's store
// (SQLite or PostgreSQL): "Annehmen" with a plan of 3 mails the buyer the plan and the page's link; the page shows the
// schedule, each rate with its reference and its own GiroCode; a bank statement marks the rate it pays, once; the CLI
// marks a rate and shows the plan; the last rate is the deal's payment. And what an attacker tries: another deal's
// rates on a page, the console's new routes without a session or from another site.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import type { DealSummary } from '../../src/shared/deal-api.ts'
import type { BankStatementResult } from '../../src/shared/payments-api.ts'
import { camtStatement } from '../helpers/camt.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR, type RawResponse } from '../helpers/contact.ts'
import { pdfText, SELLER_ENV } from '../helpers/invoice.ts'
import { confirmedPurchase } from '../helpers/purchase.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { decodeQrSvg } from '../helpers/qr.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { mailSettled, startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'instalments-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
domains:
  raten.de: { minOffer: 100 }
  andere.de: { minOffer: 100 }
  sofort.de: { minOffer: 100 }
  festpreis.de: { price: 1200, priceType: fixed, instalments: 3 }
  einmal.de: { price: 1200, priceType: fixed, instalments: 12 }
  anzahlung.de: { price: 1200, priceType: fixed, instalments: { rates: 2, downPayment: 200, transfer: at-once } }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({
    SMTP_URL: smtp.url,
    MAIL_TO: 'owner@example.org',
    DOMAINS_FILE: domainsFile,
    // Invoices on (decision 038): the instalment plan's one invoice, with its schedule.
    ...SELLER_ENV,
  })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const send = (pathName: string, body?: unknown) => client.call(pathName, { method: 'POST', body, cookie })
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }, ...args)
const open = (host: string, pathName: string) => requestAs(host, `${server.url}${pathName}`)
const textOf = (page: RawResponse) =>
  page.html
    .replace(/<(svg|style|head)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')

let visitors = 0
async function mailsTo(email: string, count: number, timeout?: number): Promise<ReceivedMail[]> {
  const to = () => smtp.messages.filter((m) => m.envelope.to.includes(email))
  await expect.poll(() => to().length, timeout === undefined ? {} : { timeout }).toBeGreaterThanOrEqual(count)
  return to()
}

/** A visitor offers `offer` for `host`; the owner accepts with `plan`. */
async function planDeal(host: string, offer: string, plan: unknown) {
  const email = `kaeufer${++visitors}@example.net`
  const { token, hash } = await fetchForm(server.url, host)
  const sent = await requestAs(host, `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, themail3h6: email, offer, token, hash } })
  expect(sent.status, sent.html).toBe(200)
  const id = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
  const accepted = await send(`/api/inquiries/${id}/accept`, { plan })
  expect(accepted.status, await accepted.clone().text()).toBe(200)
  const [mail] = await mailsTo(email, 1)
  const page = new RegExp(`https://${host.replace(/\./g, '\\.')}(/kauf/[A-Za-z0-9_.-]+)`).exec(mail!.parsed.text ?? '')![1]!
  const deal = ((await (await client.call(`/api/inquiries/${id}/deal`, { cookie })).json()) as { deal: DealSummary }).deal
  return { email, mail: mail!, page, deal }
}

describe('an instalment plan', () => {
  test('is mailed with the acceptance, and the page shows the schedule with a GiroCode for each rate', async () => {
    const { mail, page, deal } = await planDeal('raten.de', '1.000', { rates: 3 })
    expect(mail.parsed.text).toContain(
      'Ratenzahlung: 3 Monatsraten zu 333,34\u00a0€ (die letzten einen Cent weniger). Die Domain wird nach der letzten Rate übertragen.',
    )
    expect(deal.plan?.rates.map((rate) => [rate.label, rate.amount])).toEqual([
      ['Rate 1 von 3', '333,34\u00a0€'],
      ['Rate 2 von 3', '333,33\u00a0€'],
      ['Rate 3 von 3', '333,33\u00a0€'],
    ])
    const answer = await open('raten.de', page)
    expect(answer.status).toBe(200)
    const text = textOf(answer)
    expect(text).toContain('Zahlungsplan')
    expect(text).toContain('Sie zahlen in 3 Monatsraten, jede mit ihrem eigenen Verwendungszweck.')
    for (const rate of deal.plan!.rates) expect(text).toContain(rate.reference)
    expect(text).toContain('Bezahlt: 0 € · Offen: 1.000 €')
    expect(text).toContain('Für Rate 1 von 3, fällig am')
    const qr = (html: string) => decodeQrSvg(/<svg[\s\S]*?<\/svg>/.exec(html)![0])
    expect(qr(answer.html)).toBe(`BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR333.34\n\n\n${deal.reference}-R01`)
    // Each rate has its own QR code, on the same page (no script): ?rate=N.
    const second = await open('raten.de', `${page}?rate=2`)
    expect(qr(second.html)).toBe(`BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR333.33\n\n\n${deal.reference}-R02`)
  })

  test('a bank statement marks the rate by its reference and amount and mails the buyer; importing it again changes nothing', { timeout: 90_000 }, async () => {
    const { email, deal } = await planDeal('andere.de', '900', { rates: 3, downPayment: '300' })
    expect(deal.plan!.rates.map((rate) => rate.amount)).toEqual(['300\u00a0€', '200\u00a0€', '200\u00a0€', '200\u00a0€'])
    const statement = camtStatement([{ bankRef: `IT-${deal.id}-1`, amount: '300.00', remittance: `Anzahlung ${deal.reference}-R00` }])
    const applied = (await (await send('/api/payments/apply', { text: statement })).json()) as BankStatementResult
    expect(applied.paid).toEqual([{ dealId: deal.id, reference: `${deal.reference}-R00`, rate: 0 }])
    const mails = await mailsTo(email, 2)
    expect(mails).toHaveLength(2)
    expect(mails[1]!.parsed.subject).toBe('Re: Anfrage zu andere.de: Zahlung erhalten')
    expect(mails[1]!.parsed.text).toContain('Ihre Zahlung von 300\u00a0€ (Anzahlung) für andere.de')
    expect(mails[1]!.parsed.text).toContain(`Als Nächstes ist Rate 1 von 3 fällig: 200\u00a0€ bis`)
    const again = (await (await send('/api/payments/apply', { text: statement })).json()) as BankStatementResult
    expect(again).toMatchObject({ recorded: 0, paid: [] })
    // A mail the second import had queued would be in the outbox already: sent and kept once this holds.
    await mailSettled(smtp, server.dataDir)
    expect(smtp.messages.filter((m) => m.envelope.to.includes(email))).toHaveLength(2)

    // The CLI marks the next rates; the last one is the deal's payment.
    const show = await cli('deal', 'show', String(deal.id))
    expect(show.out).toContain('instalments, the name moves after the last rate')
    expect(show.out).toMatch(new RegExp(`0\\s+.*300\\s€\\s+${deal.reference}-R00\\s+received .* \\(statement\\)`))
    expect((await cli('deal', 'rate-paid', String(deal.id), '--rate', '1')).out).toContain('rate 1 received; 2 rates still open')
    expect((await cli('deal', 'rate-paid', String(deal.id), '--rate', '1')).code).toBe(2)
    expect((await cli('deal', 'rate-paid', String(deal.id))).err).toContain('needs --rate N')
    await cli('deal', 'rate-paid', String(deal.id), '--rate', '2')
    const last = await cli('deal', 'rate-paid', String(deal.id), '--rate', '3')
    expect(last.out).toContain('every rate is paid, the deal is now paid')
    // Mails of steps close together may arrive in any order.
    const final = await mailsTo(email, 5)
    expect(final.filter((m) => (m.parsed.text ?? '').includes('Ihre Zahlung von 900\u00a0€ für andere.de'))).toHaveLength(1)
  })

  test('a page shows only its own deal’s rates, and the buyer who paid a rate cannot cancel', async () => {
    const mine = await planDeal('sofort.de', '600', { rates: 2, transfer: 'at-once' })
    const other = (await (await client.call('/api/deals', { cookie })).json()) as { deals: DealSummary[] }
    const foreign = other.deals.filter((deal) => deal.id !== mine.deal.id && deal.plan).flatMap((deal) => deal.plan!.rates.map((rate) => rate.reference))
    expect(foreign.length).toBeGreaterThan(0)
    for (const query of ['', '?rate=0', '?rate=3', '?rate=99', '?rate=-1', '?rate=1e1']) {
      const answer = await open('sofort.de', `${mine.page}${query}`)
      expect(answer.status).toBe(200)
      for (const reference of foreign) expect(answer.html).not.toContain(reference)
    }
    // Another host's page for the deal: the one 404.
    expect((await open('raten.de', mine.page)).status).toBe(404)
    expect((await send(`/api/deals/${mine.deal.id}/rates/1/paid`, {})).status).toBe(200)
    const cancel = await requestAs('sofort.de', `${server.url}${mine.page}`, {
      method: 'POST',
      form: { action: 'cancel' },
      headers: { origin: 'http://sofort.de', 'sec-fetch-site': 'same-origin' },
    })
    expect(cancel.status).toBe(303)
    expect(((await (await client.call(`/api/deals/${mine.deal.id}`, { cookie })).json()) as DealSummary).status).toBe('awaiting_payment')
    expect(textOf(await open('sofort.de', mine.page))).not.toContain('Kauf abbrechen')
  })

  test('the console’s rate routes need a session and the same origin', async () => {
    const { deal } = await (async () => {
      const deals = ((await (await client.call('/api/deals', { cookie })).json()) as { deals: DealSummary[] }).deals
      return { deal: deals.find((d) => d.plan && d.status === 'awaiting_payment' && d.plan.rates.some((rate) => rate.paidAt === null))! }
    })()
    const open = deal.plan!.rates.find((rate) => rate.paidAt === null)!.number
    for (const action of ['paid', 'wait']) {
      const pathName = `/api/deals/${deal.id}/rates/${open}/${action}`
      expect((await client.call(pathName, { method: 'POST', body: {} })).status, pathName).toBe(401)
      expect(
        (await client.call(pathName, { method: 'POST', body: {}, cookie, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status,
        pathName,
      ).toBe(403)
    }
    const after = (await (await client.call(`/api/deals/${deal.id}`, { cookie })).json()) as DealSummary
    expect(after.plan!.rates.find((rate) => rate.number === open)).toMatchObject({ paidAt: null, waitedAt: null })
    // A rate the deal does not have, and one out of range.
    expect((await send(`/api/deals/${deal.id}/rates/59/paid`, {})).status).toBe(404)
    expect((await send(`/api/deals/${deal.id}/rates/61/paid`, {})).status).toBe(400)
  })

  test(
    'the checkout offers the domain’s plan; each of its 3 rates gets its Anzahlungsrechnung with its mail, the transfer the final invoice',
    { timeout: 240_000 },
    async () => {
      const form = await open('festpreis.de', '/kaufen')
      expect(textOf(form)).toContain('In 3 Monatsraten zu je 400 € (die Domain wird nach der letzten Rate übertragen)')
      const { dealId, email } = await confirmedPurchase(server.url, 'festpreis.de', client, cookie, { payment: 'instalments' })
      const deal = (await (await client.call(`/api/deals/${dealId}`, { cookie })).json()) as DealSummary
      expect(deal.plan?.rates).toHaveLength(3)
      expect(deal.plan?.rates.every((rate) => rate.amount === '400\u00a0€')).toBe(true)
      for (const rate of deal.plan!.rates) expect((await send(`/api/deals/${dealId}/rates/${rate.number}/paid`, {})).status).toBe(200)
      type Listed = { invoices: { id: number; number: number; kind: string; advanceRate: number | null }[] }
      let { invoices } = (await (await client.call(`/api/deals/${dealId}/invoices`, { cookie })).json()) as Listed
      // The rates were paid before the transfer: advance payments, each with its own invoice (decision 046).
      expect(invoices.map((invoice) => [invoice.kind, invoice.advanceRate])).toEqual(Array.from({ length: 3 }, (_, i) => ['advance', i + 1]))
      const numbers = invoices.map((invoice) => invoice.number)
      expect(numbers).toEqual(Array.from({ length: 3 }, (_, i) => numbers[0]! + i))
      // Each payment's mail (the confirmation after the purchase, then one per rate) carries its PDF.
      // Each mail waits for its PDF, drawn in a worker thread of its own: about a second each on a busy machine.
      const mails = await mailsTo(email, 4, 150_000)
      const pdfNames = mails
        .slice(-3)
        .map((mail) => mail.parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf').map((attachment) => attachment.filename))
      expect(pdfNames).toEqual(numbers.map((number) => [`RE-${String(number).padStart(5, '0')}.pdf`]))
      // The buyer's deal page lists them, each a download under the page's own link.
      const page = /https:\/\/festpreis\.de(\/kauf\/[A-Za-z0-9_.-]+)/.exec(mails[0]!.parsed.text ?? '')![1]!
      const dealPage = await open('festpreis.de', page)
      const listed = textOf(dealPage)
      for (const number of numbers) expect(listed).toContain(`Anzahlungsrechnung RE-${String(number).padStart(5, '0')} (PDF)`)
      // Several invoices: the heading over them says so.
      expect(dealPage.html).toContain('<h2 id="deal-invoices">Rechnungen</h2>')
      const advance = pdfText(Buffer.from(await (await client.call(`/api/invoices/${invoices[2]!.id}`, { cookie })).arrayBuffer()))
      expect(advance).toContain('Anzahlungsrechnung')
      expect(advance).toContain('Anzahlung (Rate 3 von 3) für die Übertragung der Domain festpreis.de')

      expect((await send(`/api/deals/${dealId}/transfer`, { code: 'AUTH-123456' })).status).toBe(200)
      ;({ invoices } = (await (await client.call(`/api/deals/${dealId}/invoices`, { cookie })).json()) as Listed)
      const final = invoices.at(-1)!
      expect(final).toMatchObject({ kind: 'invoice', number: numbers[2]! + 1 })
      const text = pdfText(Buffer.from(await (await client.call(`/api/invoices/${final.id}`, { cookie })).arrayBuffer()))
      expect(text).toContain('Schlussrechnung')
      expect(text).toContain('Zahlungsplan (Ratenzahlung)')
      expect(text).toMatch(/Rate 3, fällig am \d\d\.\d\d\.\d{4}, bezahlt am/)
      expect(text).toContain(`Anzahlungsrechnung RE-${String(numbers[0]).padStart(5, '0')} vom`)
      expect(text).toMatch(/Verbleibender Betrag: netto 0,00 EUR, USt 0,00 EUR, brutto 0,00 EUR/)
      // The owner's CLI gives the advance invoice's PDF as issued.
      const out = path.join(dir, 'advance.pdf')
      const cliOut = await cli('invoice', String(numbers[0]), '--out', out)
      expect(cliOut.code, cliOut.err).toBe(0)
      expect(pdfText(fs.readFileSync(out))).toContain('Anzahlung (Rate 1 von 3)')
    },
  )

  test('the checkout offers the domain’s down payment and transfer choice, and the deal made from it has them', async () => {
    const form = await open('anzahlung.de', '/kaufen')
    expect(textOf(form)).toContain('Anzahlung 200 €, dann 2 Monatsraten zu je 500 € (die Domain wird sofort, vor den Raten, übertragen)')
    const { dealId, inquiryId } = await confirmedPurchase(server.url, 'anzahlung.de', client, cookie, { payment: 'instalments' })
    const deal = (await (await client.call(`/api/deals/${dealId}`, { cookie })).json()) as DealSummary
    expect(deal.plan?.transfer).toBe('at-once')
    expect(deal.plan?.rates.map((rate) => [rate.label, rate.amount])).toEqual([
      ['Anzahlung', '200\u00a0€'],
      ['Rate 1 von 2', '500\u00a0€'],
      ['Rate 2 von 2', '500\u00a0€'],
    ])
    // The owner reads the plan in the purchase's message.
    const inquiry = (await (await client.call(`/api/inquiries/${inquiryId}`, { cookie })).json()) as { message: string }
    expect(inquiry.message).toContain('Zahlung in 2 Monatsraten nach einer Anzahlung von 200\u00a0€ (die Domain wird sofort übertragen)')
    // Moved at once: no advance payments, so no Anzahlungsrechnung for the down payment (decision 046).
    expect((await send(`/api/deals/${dealId}/rates/0/paid`, {})).status).toBe(200)
    const { invoices } = (await (await client.call(`/api/deals/${dealId}/invoices`, { cookie })).json()) as { invoices: unknown[] }
    expect(invoices).toEqual([])
  })

  test('a checkout without the choice is paid at once', async () => {
    const { dealId } = await confirmedPurchase(server.url, 'einmal.de', client, cookie, { payment: 'once' })
    expect(((await (await client.call(`/api/deals/${dealId}`, { cookie })).json()) as DealSummary).plan).toBeUndefined()
  })
})
