// Invoices against the real server process, a real SMTP server and the test project's store (SQLite or PostgreSQL;
// decision 038): "Zahlung erhalten" issues the invoice, mailed to the buyer as a PDF (a Factur-X for a business);
// the buyer downloads the same bytes from the deal page, the owner from the console and the CLI; a cancellation
// after it issues a Stornorechnung; WORKERS=2 marking deals paid at once numbers them without a gap; and what an
// attacker tries.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { requestAs } from '../helpers/contact.ts'
import { embeddedXml, pdfText, schemaErrors } from '../helpers/invoice.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { confirmedPurchase, getBytes } from '../helpers/purchase.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

// Mails with an invoice wait for its drawing (see mailTo).
vi.setConfig({ testTimeout: 90_000 })

const SELLER = {
  SELLER_NAME: 'Jürgen Müller Domains',
  SELLER_STREET: 'Hauptstraße 5',
  SELLER_POSTCODE: '10115',
  SELLER_CITY: 'Berlin',
  SELLER_TAX_NUMBER: '27/123/45678',
  SELLER_VAT_ID: 'DE 123 456 789',
  SELLER_IBAN: 'DE89 3704 0044 0532 0130 00',
}

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoices-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
domains:
  fest.de: { price: 4900, priceType: fixed, vat: included }
  zweite.de: { price: 1190, priceType: fixed, vat: included }
  fixed.com: { price: 2000, priceType: fixed, language: en, currency: USD }
  dritte.de: { price: 990, priceType: fixed, vat: included }
${Array.from({ length: 12 }, (_, i) => `  los-${i + 1}.de: { price: ${100 * (i + 1)}, priceType: fixed, vat: included }`).join('\n')}
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, DOMAINS_FILE: domainsFile, ...SELLER })
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

const send = (pathName: string, body?: unknown, method = 'POST') => client.call(pathName, { method, body, cookie })
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile, ...SELLER }, ...args)
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const flat = (text: string) => text.replace(/\s+/g, ' ')

async function mailTo(email: string, count: number): Promise<ReceivedMail> {
  const to = () => smtp.messages.filter((m) => m.envelope.to.includes(email))
  // A mail with an invoice waits for its PDF to be drawn (a worker thread that loads the PDF libraries first): on a
  // busy machine that may take longer than the default poll. Speed is the benchmark's business, not this test's.
  await expect.poll(() => to().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(count)
  return to()[count - 1]!
}

function pageLinkIn(mail: ReceivedMail, host: string): string {
  const match = new RegExp(`https://${host.replace(/\./g, '\\.')}(/kauf/[A-Za-z0-9_.-]+)`).exec(mail.parsed.text ?? '')
  expect(match, mail.parsed.text).not.toBeNull()
  return match![1]!
}

interface Listed {
  id: number
  number: number
  kind: string
  sha256: string | null
  eInvoice: boolean
}
const invoicesOf = async (dealId: number) => ((await (await send(`/api/deals/${dealId}/invoices`, undefined, 'GET')).json()) as { invoices: Listed[] }).invoices

describe('marking a deal paid', () => {
  let purchase: Awaited<ReturnType<typeof confirmedPurchase>>
  let attached: Buffer
  let page: string

  beforeAll(async () => {
    purchase = await confirmedPurchase(server.url, 'fest.de', client, cookie)
    const paid = await send(`/api/deals/${purchase.dealId}/paid`, {})
    expect(paid.status, await paid.clone().text()).toBe(200)
  }, 60_000)

  test('mails the buyer the invoice as a PDF with every mandatory field, a Factur-X for a business buyer', async () => {
    page = pageLinkIn(await mailTo(purchase.email, 1), 'fest.de')
    const mail = await mailTo(purchase.email, 2)
    expect(mail.parsed.subject).toContain('Zahlung erhalten')
    const pdfs = mail.parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf')
    expect(pdfs.map((attachment) => attachment.filename)).toEqual([expect.stringMatching(/^RE-\d{5}\.pdf$/)])
    attached = pdfs[0]!.content
    const text = flat(pdfText(attached, true))
    for (const field of ['Rechnung', 'Jürgen Müller Domains', 'Hauptstraße 5', '10115 Berlin', 'Steuernummer: 27/123/45678', 'USt-IdNr.: DE123456789', 'Beispiel GmbH', 'Hauptstraße 1', 'USt-IdNr. des Käufers: DE123456789', 'Übertragung der Domain fest.de', 'Leistungszeitraum:', 'Nettobetrag 4.117,65 EUR', 'Umsatzsteuer 19 % 782,35 EUR', 'Gesamtbetrag 4.900,00 EUR'])
      expect(text).toContain(field)
    expect(text).toMatch(/Rechnungsnummer RE-\d{5}/)
    expect(text).toMatch(/Rechnungsdatum \d{2}\.\d{2}\.\d{4}/)
    const { xml } = embeddedXml(attached)
    expect(schemaErrors(xml!)).toEqual([])
  })

  test('stores the invoice with the hash of the very bytes mailed; the buyer downloads the same bytes from the deal page, never cached', async () => {
    await expect.poll(async () => (await invoicesOf(purchase.dealId))[0]?.sha256).toBe(sha256(attached))
    const [invoice] = await invoicesOf(purchase.dealId)
    const shown = await requestAs('fest.de', `${server.url}${page}`)
    expect(shown.html).toContain(`<a href="${page}/rechnung/${invoice!.number}" download="">Rechnung RE-${String(invoice!.number).padStart(5, '0')} (PDF)</a>`)
    const download = await getBytes('fest.de', `${server.url}${page}/rechnung/${invoice!.number}`)
    expect(download.status, download.body.toString()).toBe(200)
    expect(download.headers['content-type']).toBe('application/pdf')
    expect(download.headers['cache-control']).toBe('no-store')
    expect(download.headers['content-disposition']).toBe(`attachment; filename="RE-${String(invoice!.number).padStart(5, '0')}.pdf"`)
    expect(download.body.equals(attached)).toBe(true)
    // Again: immutable, the same bytes and hash.
    const again = await getBytes('fest.de', `${server.url}${page}/rechnung/${invoice!.number}`)
    expect(sha256(again.body)).toBe(invoice!.sha256)
    const [row] = await queryStore<{ sha256: string }>(server.dataDir, 'SELECT sha256 FROM invoices WHERE id = ?', [invoice!.id])
    expect(row!.sha256).toBe(sha256(attached))
  })

  test('the owner downloads it in the console (with a session only) and with the CLI, the same bytes', async () => {
    const [invoice] = await invoicesOf(purchase.dealId)
    const owner = await send(`/api/invoices/${invoice!.id}`, undefined, 'GET')
    expect(owner.status).toBe(200)
    expect(Buffer.from(await owner.arrayBuffer()).equals(attached)).toBe(true)
    for (const pathName of [`/api/invoices/${invoice!.id}`, `/api/deals/${purchase.dealId}/invoices`]) {
      const anonymous = await client.call(pathName)
      expect(anonymous.status).toBe(401)
      expect(Buffer.from(await anonymous.arrayBuffer()).includes(Buffer.from('%PDF'))).toBe(false)
    }
    const out = path.join(dir, 'rechnung.pdf')
    const result = await cli('invoice', String(invoice!.number), '--out', out)
    expect(result.code, result.err).toBe(0)
    expect(result.out).toContain(`SHA-256 ${invoice!.sha256}`)
    expect(fs.readFileSync(out).equals(attached)).toBe(true)
    // An existing file is never overwritten.
    expect((await cli('invoice', String(invoice!.number), '--out', out)).code).toBe(2)
    const list = await cli('invoices')
    expect(list.out).toMatch(new RegExp(`^${invoice!.number} +invoice +${purchase.dealId} .* Factur-X +${invoice!.sha256!.slice(0, 32)}`, 'm'))
  })

  test("another deal's invoice cannot be fetched through this deal's link, nor with a forged link", async () => {
    // Another name: a name has one open deal at a time (decision 037).
    const other = await confirmedPurchase(server.url, 'dritte.de', client, cookie)
    expect((await send(`/api/deals/${other.dealId}/paid`, {})).status).toBe(200)
    const [theirs] = await invoicesOf(other.dealId)
    const [mine] = await invoicesOf(purchase.dealId)
    expect(theirs!.number).not.toBe(mine!.number)
    for (const pathName of [`${page}/rechnung/${theirs!.number}`, `${page}/rechnung/0`, `${page}/rechnung/${mine!.number}x`, `/kauf/AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA/rechnung/${mine!.number}`]) {
      const answer = await getBytes('fest.de', `${server.url}${pathName}`)
      expect(answer.status, pathName).toBe(404)
      expect(answer.body.includes(Buffer.from('%PDF'))).toBe(false)
    }
    // Nor on another host with this deal's link.
    expect((await getBytes('zweite.de', `${server.url}${page}/rechnung/${mine!.number}`)).status).toBe(404)
  })

  test('cancelling it afterwards issues a Stornorechnung under the next number, mailed with the cancellation; the invoice stays', async () => {
    const before = await invoicesOf(purchase.dealId)
    const cancelled = await send(`/api/deals/${purchase.dealId}/cancel`, { reason: 'Zahlung zurückgebucht' })
    expect(cancelled.status, await cancelled.clone().text()).toBe(200)
    const mail = await mailTo(purchase.email, 3)
    const [storno] = mail.parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf')
    const text = flat(pdfText(storno!.content, true))
    expect(text).toContain('Stornorechnung')
    expect(text).toContain(`Storniert die Rechnung RE-${String(before[0]!.number).padStart(5, '0')}`)
    expect(text).toContain('Gesamtbetrag -4.900,00 EUR')
    const after = await invoicesOf(purchase.dealId)
    expect(after.map((invoice) => invoice.kind)).toEqual(['invoice', 'cancellation'])
    expect(after[0]).toEqual(before[0])
    const numbers = ((await queryStore<{ number: number }>(server.dataDir, 'SELECT number FROM invoices ORDER BY number')).map((row) => Number(row.number)))
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1))
  })
})

test('a buyer who wrote in English gets the invoice in English with the German legal notes kept', async () => {
  const purchase = await confirmedPurchase(server.url, 'fixed.com', client, cookie, { country: 'US', vat_id: '', company: 'Example Inc.' })
  expect((await send(`/api/deals/${purchase.dealId}/paid`, {})).status).toBe(200)
  const mail = await mailTo(purchase.email, 2)
  const text = flat(pdfText(mail.parsed.attachments.find((attachment) => attachment.contentType === 'application/pdf')!.content, true))
  expect(text).toContain('Invoice')
  expect(text).toContain('Transfer of the domain fixed.com')
  expect(text).toContain('Total USD 2,000.00')
  expect(text).toContain('Nicht im Inland steuerbare Leistung')
  expect(text).toContain('Not subject to German VAT')
})

test('forget erases the buyer but keeps the invoice, and says which and why; the invoice is still downloadable by the owner', async () => {
  const purchase = await confirmedPurchase(server.url, 'zweite.de', client, cookie)
  // Marked paid with the CLI this time: it issues the invoice too, and says so.
  const paid = await cli('deal', 'paid', String(purchase.dealId))
  expect(paid.code, paid.err).toBe(0)
  const [invoice] = await invoicesOf(purchase.dealId)
  expect(paid.out).toContain(`Invoice ${invoice!.number} issued and attached to the mail (npx domain-lander invoice ${invoice!.number}).`)
  const result = await cli('forget', '--email', purchase.email)
  expect(result.code, result.err).toBe(0)
  const number = `RE-${String(invoice!.number).padStart(5, '0')}`
  expect(result.out).toContain(`Kept 1 invoice (${number}) with the buyer's name and address on them: invoices are kept 10 years (§147 AO, §14b UStG), which GDPR Art. 17(3)(b) allows.`)
  expect((await send(`/api/deals/${purchase.dealId}`, undefined, 'GET')).status).toBe(404)
  const owner = await send(`/api/invoices/${invoice!.id}`, undefined, 'GET')
  expect(owner.status).toBe(200)
  expect(flat(pdfText(Buffer.from(await owner.arrayBuffer()), true))).toContain(number)
})

test('two server processes (WORKERS=2) marking twelve deals paid at once number the invoices 1..12 without a gap', async () => {
  const cluster = await startServerProcess({ WORKERS: '2', SMTP_URL: smtp.url, DOMAINS_FILE: domainsFile, ...SELLER })
  try {
    const owner = consoleClient(cluster)
    expect((await owner.setPassword()).code).toBe(0)
    const session = (await owner.signIn()).cookie
    const deals: number[] = []
    // Twelve names: a name has one open deal at a time (decision 037).
    for (let i = 0; i < 12; i++) deals.push((await confirmedPurchase(cluster.url, `los-${i + 1}.de`, owner, session)).dealId)
    const answers = await Promise.all(deals.map((id) => owner.call(`/api/deals/${id}/paid`, { method: 'POST', body: {}, cookie: session })))
    const bodies = await Promise.all(answers.map((answer) => answer.text()))
    expect(answers.map((answer) => answer.status), bodies.join('\n')).toEqual(deals.map(() => 200))
    const rows = await queryStore<{ number: number; deal_id: number }>(cluster.dataDir, 'SELECT number, deal_id FROM invoices ORDER BY number')
    expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
    expect(new Set(rows.map((row) => Number(row.deal_id)))).toEqual(new Set(deals))
  } finally {
    await cluster.stop()
    cluster.cleanup()
  }
}, 120_000)
