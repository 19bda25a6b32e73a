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
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { requestAs } from '../helpers/contact.ts'
import { embeddedXml, pdfText, schemaErrors, SELLER_ENV } from '../helpers/invoice.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { acceptedOffer, confirmedPurchase, getBytes } from '../helpers/purchase.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

// Mails with an invoice wait for its drawing (see mailTo).
vi.setConfig({ testTimeout: 90_000 })

const SELLER = {
  ...SELLER_ENV,
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
  tausch-eins.de: { price: 500, priceType: fixed, vat: included }
  tausch-zwei.de: { price: 600, priceType: fixed, vat: included }
  verhandelt.de: { minOffer: 100, vat: included }
  spaeter.de: { minOffer: 100, vat: included }
  negotiated.com: { minOffer: 100, language: en }
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
const dealInvoices = async (dealId: number) =>
  (await (await send(`/api/deals/${dealId}/invoices`, undefined, 'GET')).json()) as { invoices: Listed[]; canIssue: boolean; missingAddress: boolean }
const invoicesOf = async (dealId: number) => (await dealInvoices(dealId)).invoices

/** Posts a form of the deal page as the browser does (same origin), without script. */
const postPage = (host: string, pathName: string, form: Record<string, string>) =>
  requestAs(host, `${server.url}${pathName}`, { method: 'POST', form, headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' } })
const pdfsIn = (mail: ReceivedMail) => mail.parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf')
const storedAddress = async (inquiryId: number) =>
  (await queryStore<{ buyer_street: string | null }>(server.dataDir, 'SELECT buyer_street FROM inquiries WHERE id = ?', [inquiryId]))[0]!.buyer_street

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
    for (const field of [
      'Rechnung',
      'Jürgen Müller Domains',
      'Hauptstraße 5',
      '10115 Berlin',
      'Steuernummer: 27/123/45678',
      'USt-IdNr.: DE123456789',
      'Beispiel GmbH',
      'Hauptstraße 1',
      'USt-IdNr. des Käufers: DE123456789',
      'Übertragung der Domain fest.de',
      'Leistungszeitraum:',
      'Nettobetrag 4.117,65 EUR',
      'Umsatzsteuer 19 % 782,35 EUR',
      'Gesamtbetrag 4.900,00 EUR',
    ])
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
    expect(shown.html).toContain('<h2 id="deal-invoices">Rechnung</h2>')
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
    for (const pathName of [
      `${page}/rechnung/${theirs!.number}`,
      `${page}/rechnung/0`,
      `${page}/rechnung/${mine!.number}x`,
      `/kauf/AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA/rechnung/${mine!.number}`,
    ]) {
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
    const numbers = (await queryStore<{ number: number }>(server.dataDir, 'SELECT number FROM invoices ORDER BY number')).map((row) => Number(row.number))
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
  expect(result.out).toContain(
    `Kept 1 invoice (${number}) with the buyer's name and address on them: invoices are kept 8 years after the end of the year they were issued in (§147 Abs. 3 AO, §14b Abs. 1 UStG), which GDPR Art. 17(3)(b) allows.`,
  )
  expect((await send(`/api/deals/${purchase.dealId}`, undefined, 'GET')).status).toBe(404)
  const owner = await send(`/api/invoices/${invoice!.id}`, undefined, 'GET')
  expect(owner.status).toBe(200)
  expect(flat(pdfText(Buffer.from(await owner.arrayBuffer()), true))).toContain(number)
})

test("an invoice whose stored bytes were swapped for another's is refused on every read, loudly, and the other still reads", async () => {
  const [first, second] = [
    await confirmedPurchase(server.url, 'tausch-eins.de', client, cookie),
    await confirmedPurchase(server.url, 'tausch-zwei.de', client, cookie),
  ]
  for (const purchase of [first, second]) expect((await send(`/api/deals/${purchase.dealId}/paid`, {})).status).toBe(200)
  // Both mailed, so both PDFs drawn and kept with their hashes.
  const page = pageLinkIn(await mailTo(second.email, 1), 'tausch-zwei.de')
  const attached = pdfsIn(await mailTo(second.email, 2))[0]!.content
  await expect.poll(async () => (await invoicesOf(first.dealId))[0]?.sha256 ?? null).not.toBeNull()
  await expect.poll(async () => (await invoicesOf(second.dealId))[0]?.sha256).toBe(sha256(attached))
  const [theirs] = await invoicesOf(first.dealId)
  const [mine] = await invoicesOf(second.dealId)
  await queryStore(server.dataDir, 'UPDATE invoices SET pdf = (SELECT pdf FROM invoices WHERE id = ?) WHERE id = ?', [theirs!.id, mine!.id])

  // The console: 500 with the one error body, no bytes, no hash.
  const owner = await send(`/api/invoices/${mine!.id}`, undefined, 'GET')
  expect(owner.status).toBe(500)
  expect(owner.headers.get('x-content-sha256')).toBeNull()
  expect(await owner.json()).toEqual({ error: 'Interner Fehler.' })
  // The buyer's deal page: 500, no bytes.
  const buyer = await getBytes('tausch-zwei.de', `${server.url}${page}/rechnung/${mine!.number}`)
  expect(buyer.status).toBe(500)
  expect(buyer.body.includes(Buffer.from('%PDF'))).toBe(false)
  // The CLI: exit 1, the reason, no file.
  const out = path.join(dir, 'vertauscht.pdf')
  const cliRead = await cli('invoice', String(mine!.number), '--out', out)
  expect(cliRead.code).toBe(1)
  expect(cliRead.err).toContain(`invoice ${mine!.number}: hash mismatch`)
  expect(cliRead.out).not.toContain('written')
  expect(fs.existsSync(out)).toBe(false)
  // The log names the invoice and why, once for each request refused.
  const lines = () => server.output.filter((line) => line.includes(`invoice ${mine!.number}: hash mismatch`))
  await expect.poll(() => lines().length).toBe(2)
  for (const line of lines()) expect(JSON.parse(line)).toMatchObject({ level: 50 })

  // The other invoice, whose bytes are still its own, reads as before.
  const other = await send(`/api/invoices/${theirs!.id}`, undefined, 'GET')
  expect(other.status).toBe(200)
  expect(sha256(Buffer.from(await other.arrayBuffer()))).toBe(theirs!.sha256)
  // Its own bytes back: it reads again.
  await queryStore(server.dataDir, 'UPDATE invoices SET pdf = ? WHERE id = ?', [attached, mine!.id])
  const restored = await send(`/api/invoices/${mine!.id}`, undefined, 'GET')
  expect(restored.status).toBe(200)
  expect(restored.headers.get('x-content-sha256')).toBe(sha256(attached))
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
    expect(
      answers.map((answer) => answer.status),
      bodies.join('\n'),
    ).toEqual(deals.map(() => 200))
    const rows = await queryStore<{ number: number; deal_id: number }>(cluster.dataDir, 'SELECT number, deal_id FROM invoices ORDER BY number')
    expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
    expect(new Set(rows.map((row) => Number(row.deal_id)))).toEqual(new Set(deals))
  } finally {
    await cluster.stop()
    cluster.cleanup()
  }
}, 120_000)

describe('a deal from a negotiation (an accepted offer)', () => {
  /** The deals of verhandelt.de (invoiced with the payment) and spaeter.de (invoiced by the owner): page and id. */
  let first: { page: string; dealId: number } | undefined
  let later: { page: string; dealId: number } | undefined
  const address = {
    action: 'address',
    name58fnlsd: 'Erika Muster',
    company: 'Muster Handel GmbH',
    street: 'Musterweg 7',
    postcode: '80331',
    city: 'München',
    country: 'DE',
    vat_id: 'de 987 654 321',
  }

  test('asks the buyer for the invoice address on the deal page without script; the invoice of "Zahlung erhalten" carries it', async () => {
    const offer = await acceptedOffer(server.url, 'verhandelt.de', client, cookie)
    const page = pageLinkIn(await mailTo(offer.email, 1), 'verhandelt.de')
    first = { page, dealId: offer.dealId }
    const shown = await requestAs('verhandelt.de', `${server.url}${page}`)
    expect(shown.status).toBe(200)
    expect(shown.html).not.toMatch(/<script\b[^>]*src=/)
    expect(shown.html).toContain('<h2 id="deal-address">Rechnungsanschrift</h2>')
    const form = /<form[^>]*>(?:(?!<\/form>).)*<\/form>/gs.exec(shown.html.slice(shown.html.indexOf('id="deal-address"')))![0]
    expect(form).toContain(`action="${page}"`)
    expect(form).toContain('<input type="hidden" name="action" value="address"/>')
    // The name the buyer wrote with, to be corrected; the checkout's fields and labels.
    expect(form).toMatch(/<input id="address-name58fnlsd"[^>]*name="name58fnlsd" value="Erika Mustermann"\/>/)
    for (const label of ['Straße und Hausnummer', 'PLZ', 'Ort', 'Land', 'Firma (optional)', 'USt-IdNr. (optional)'])
      expect(shown.html).toContain(`>${label}</label>`)

    // A wrong field: the page again (400), each wrong field named, everything typed kept, as text.
    const wrong = await postPage('verhandelt.de', page, { ...address, name58fnlsd: 'Erika <b>Muster</b>', street: '', country: 'XX' })
    expect(wrong.status).toBe(400)
    expect(wrong.html).toContain('Bitte prüfen Sie die markierten Felder.')
    expect(wrong.html).toContain('Bitte geben Sie Straße und Hausnummer ein.')
    expect(wrong.html).toContain('Bitte wählen Sie Ihr Land.')
    expect(wrong.html).toContain('value="Erika &lt;b&gt;Muster&lt;/b&gt;"')
    expect(wrong.html).not.toContain('<b>Muster</b>')
    // From another site: refused, nothing kept.
    const cross = await requestAs('verhandelt.de', `${server.url}${page}`, {
      method: 'POST',
      form: address,
      headers: { origin: 'https://angreifer.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(cross.status).toBe(403)
    expect(await storedAddress(offer.inquiryId)).toBeNull()

    const saved = await postPage('verhandelt.de', page, address)
    expect(saved.status, saved.html).toBe(303)
    const again = await requestAs('verhandelt.de', `${server.url}${page}`)
    expect(again.html).toContain('Ihre Rechnungsanschrift ist gespeichert.')
    expect(again.html).toContain('value="Musterweg 7"')
    expect(again.html).toMatch(/<option value="DE" selected="">Deutschland<\/option>/)
    // The buyer's right of access (GDPR Art. 15) includes it.
    const access = await cli('access', '--email', offer.email)
    expect(
      (JSON.parse(access.out) as { inquiries: { id: number; invoiceAddress?: unknown }[] }).inquiries.find((entry) => entry.id === offer.inquiryId)
        ?.invoiceAddress,
    ).toEqual({
      name: 'Erika Muster',
      company: 'Muster Handel GmbH',
      street: 'Musterweg 7',
      postcode: '80331',
      city: 'München',
      country: 'DE',
      vatId: 'DE 987 654 321',
    })

    expect((await send(`/api/deals/${offer.dealId}/paid`, {})).status).toBe(200)
    const [pdf] = pdfsIn(await mailTo(offer.email, 2))
    expect(pdf, 'the payment mail carries the invoice').toBeDefined()
    const text = flat(pdfText(pdf!.content, true))
    for (const field of [
      'Rechnung',
      'Erika Muster',
      'Muster Handel GmbH',
      'Musterweg 7',
      '80331 München',
      'USt-IdNr. des Käufers: DE987654321',
      'Übertragung der Domain verhandelt.de',
      'Gesamtbetrag 1.500,00 EUR',
    ])
      expect(text).toContain(field)
    // A business buyer: the Factur-X inside passes the CII schema.
    expect(schemaErrors(embeddedXml(pdf!.content).xml!)).toEqual([])

    // Issued: the form is gone, and a late POST changes nothing on it.
    const after = await requestAs('verhandelt.de', `${server.url}${page}`)
    expect(after.html).not.toContain('deal-address')
    expect(after.html).toMatch(/Rechnung RE-\d{5} \(PDF\)/)
    expect((await postPage('verhandelt.de', page, { ...address, street: 'Anderer Weg 1' })).status).toBe(303)
    expect(await storedAddress(offer.inquiryId)).toBe('Musterweg 7')
  })

  test('in English for a buyer who wrote from an English page, hints included, and the invoice is English', async () => {
    const offer = await acceptedOffer(server.url, 'negotiated.com', client, cookie, '900')
    const page = pageLinkIn(await mailTo(offer.email, 1), 'negotiated.com')
    const shown = await requestAs('negotiated.com', `${server.url}${page}`)
    expect(shown.html).toContain('<h2 id="deal-address">Billing address</h2>')
    expect(shown.html).toContain('>Save billing address</button>')
    const wrong = await postPage('negotiated.com', page, { ...address, postcode: '', country: 'GB' })
    expect(wrong.status).toBe(400)
    expect(wrong.html).toContain('Please check the marked fields.')
    expect(wrong.html).toContain('Please enter your postcode.')
    expect(
      (
        await postPage('negotiated.com', page, {
          ...address,
          company: '',
          vat_id: '',
          street: '1 High Street',
          postcode: 'SW1A 1AA',
          city: 'London',
          country: 'GB',
        })
      ).status,
    ).toBe(303)
    expect((await requestAs('negotiated.com', `${server.url}${page}`)).html).toContain('Your billing address is saved.')
    expect((await send(`/api/deals/${offer.dealId}/paid`, {})).status).toBe(200)
    const text = flat(pdfText(pdfsIn(await mailTo(offer.email, 2))[0]!.content, true))
    for (const field of ['Invoice', 'Erika Muster', '1 High Street', 'London', 'Transfer of the domain negotiated.com', 'Not subject to German VAT'])
      expect(text).toContain(field)
  })

  test('paid before the address came: no invoice, then the owner issues it on "Verkäufe" (session and same origin only)', async () => {
    const offer = await acceptedOffer(server.url, 'spaeter.de', client, cookie, '800')
    const page = pageLinkIn(await mailTo(offer.email, 1), 'spaeter.de')
    later = { page, dealId: offer.dealId }
    // Marked paid with the CLI, which says why no invoice came with it.
    const paid = await cli('deal', 'paid', String(offer.dealId))
    expect(paid.code, paid.err).toBe(0)
    expect(paid.out).toContain(
      'No invoice: the buyer has not given a billing address yet; they can on the deal page, then "Rechnung ausstellen" on Verkäufe issues it.',
    )
    expect(pdfsIn(await mailTo(offer.email, 2))).toEqual([])
    expect(await dealInvoices(offer.dealId)).toEqual({ invoices: [], canIssue: false, missingAddress: true })
    const early = await send(`/api/deals/${offer.dealId}/invoice`, {})
    expect(early.status).toBe(409)
    expect(((await early.json()) as { error: string }).error).toContain('noch keine Rechnungsanschrift')

    // The buyer's page still asks for it while the deal is not invoiced.
    expect((await postPage('spaeter.de', page, address)).status).toBe(303)
    expect((await dealInvoices(offer.dealId)).canIssue).toBe(true)
    const sales = await send('/verkaeufe', undefined, 'GET')
    expect(await sales.text()).toMatch(/<button[^>]*>Rechnung ausstellen<\/button>/)

    // Without a session, without the console's header, or from another site: nothing is issued.
    const admin = client.admin
    const attempts: Record<string, string>[] = [
      { [CONSOLE_HEADER]: '1', origin: admin },
      { origin: admin, cookie },
      { [CONSOLE_HEADER]: '1', origin: 'https://angreifer.example', 'sec-fetch-site': 'cross-site', cookie },
    ]
    const refused = await Promise.all(
      attempts.map((headers) =>
        fetch(`${admin}/api/deals/${offer.dealId}/invoice`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }),
      ),
    )
    expect(refused.map((answer) => answer.status)).toEqual([401, 403, 403])
    expect(await invoicesOf(offer.dealId)).toEqual([])

    const answer = await send(`/api/deals/${offer.dealId}/invoice`, {})
    expect(answer.status, await answer.clone().text()).toBe(200)
    const issued = (await answer.json()) as Awaited<ReturnType<typeof dealInvoices>>
    expect(issued.invoices.map((invoice) => invoice.kind)).toEqual(['invoice'])
    expect(issued.canIssue).toBe(false)
    const twice = await send(`/api/deals/${offer.dealId}/invoice`, {})
    expect(twice.status).toBe(409)
    expect((await invoicesOf(offer.dealId)).length).toBe(1)

    // Listed on "Verkäufe" with its download, and on the buyer's page; the PDF names the address.
    const [invoice] = issued.invoices
    const number = `RE-${String(invoice!.number).padStart(5, '0')}`
    expect(await (await send('/verkaeufe', undefined, 'GET')).text()).toContain(
      `<a href="/api/invoices/${invoice!.id}" download="${number}.pdf">Rechnung ${number}</a>`,
    )
    const download = await getBytes('spaeter.de', `${server.url}${page}/rechnung/${invoice!.number}`)
    expect(download.status).toBe(200)
    const text = flat(pdfText(download.body, true))
    for (const field of [number, 'Erika Muster', 'Musterweg 7', '80331 München', 'Übertragung der Domain spaeter.de']) expect(text).toContain(field)
    const owner = await send(`/api/invoices/${invoice!.id}`, undefined, 'GET')
    expect(Buffer.from(await owner.arrayBuffer()).equals(download.body)).toBe(true)
  })

  test("a buyer's deal link fetches no other deal's invoice, neither by its number nor by its id, nor the console's API", async () => {
    const { page, dealId } = later!
    const [myInvoice] = await invoicesOf(dealId)
    const [theirInvoice] = await invoicesOf(first!.dealId)
    expect(theirInvoice!.number).not.toBe(myInvoice!.number)
    const paths = [
      `${page}/rechnung/${theirInvoice!.number}`,
      `${page}/rechnung/RE-${String(myInvoice!.number).padStart(5, '0')}`,
      `/api/invoices/${myInvoice!.id}`,
      `/api/invoices/${theirInvoice!.id}`,
    ]
    // Their invoice's id too, unless it happens to be this deal's own number.
    if (theirInvoice!.id !== myInvoice!.number) paths.push(`${page}/rechnung/${theirInvoice!.id}`)
    for (const pathName of paths) {
      const answer = await getBytes('spaeter.de', `${server.url}${pathName}`)
      expect(answer.status, pathName).toBe(404)
      expect(answer.body.includes(Buffer.from('%PDF')), pathName).toBe(false)
    }
  })
})
