// Anzahlungsrechnungen of instalment plans (decision 046) on the store of the test project (SQLite, or a real
// PostgreSQL): a plan whose name moves after the last rate gets one for each payment when it is received, by the owner
// or a bank statement, attached to that payment's mail, numbered in the one gapless sequence; the transfer issues the
// final invoice that deducts them; a plan moved at once keeps its one invoice; a cancellation cancels each of them.
import { describe, expect, test } from 'vitest'
import { camtStatement } from '../../../tests/helpers/camt.ts'
import { embeddedXml, pdfText, schemaErrors } from '../../../tests/helpers/invoice.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { remainingOf, sumOf, type InvoiceData } from '../invoice/document.ts'
import { facturXOf } from '../invoice/e-invoice.ts'
import { renderInvoicePdf } from '../invoice/pdf.ts'
import { invoiceAddressForm } from '../invoice/address.ts'
import { dealInvoices, issueMissingInvoice } from '../invoice/console.ts'
import { applyStatement } from '../payments/statement.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { InvoiceAddress } from '../store/types.ts'
import { takeDealStep, type PlanRequest } from './actions.ts'
import { markRatePaid } from './rates.ts'
import { cancelDeal, completeDeal, markPaid, recordTransfer } from './steps.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const DAY = 86_400_000
const CONSUMER: InvoiceAddress = { name: 'Erika Käufer', company: null, street: 'Marktplatz 1', postcode: '80331', city: 'München', country: 'DE', vatId: null }

async function setUp() {
  const storeConfig = await testStoreConfig('advance-invoices-')
  const store = await openTestStore(storeConfig)
  const config = loadConfig({
    DATA_DIR: storeConfig.dataDir,
    MAIL_TO: 'owner@example.org',
    SELLER_NAME: 'Jürgen Müller Domains',
    SELLER_STREET: 'Hauptstraße 5',
    SELLER_POSTCODE: '10115',
    SELLER_CITY: 'Berlin',
    SELLER_TAX_NUMBER: '27/123/45678',
    SELLER_VAT_ID: 'DE123456789',
  })
  const context = { store, config, domains: domainsConfigOf({}) }
  let n = 0
  /** A deal of `amount` € in a plan, whose buyer gave `address` on the deal page. */
  async function deal(plan: PlanRequest, amount = 1000, address: InvoiceAddress = CONSUMER) {
    const domain = `anzahlung-${++n}.de`
    const saved = await store.saveInquiry(newInquiry({ domain, email: `buyer@${domain}`, offer: { amount, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', plan }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error(`not accepted: ${outcome.status}`)
    expect(await store.keepInvoiceAddress(outcome.deal.id, address)).toBe('done')
    return { id: outcome.deal.id, inquiryId: saved.id, reference: (await store.getDeal(outcome.deal.id))!.reference }
  }
  const invoices = async (dealId: number) =>
    Promise.all(
      (await store.dealInvoices(dealId)).map(async (listed) => ({ listed, data: JSON.parse((await store.getInvoice(listed.id))!.data) as InvoiceData })),
    )
  /** Each mail of the inquiry after the acceptance, with the numbers of the invoices attached to it. */
  const mails = async (inquiryId: number) =>
    Promise.all(
      (await store.inquiryThread(inquiryId))!.replies
        .filter((reply) => reply.kind !== 'accept')
        .map(async (reply) => ({
          kind: reply.kind,
          body: reply.body,
          attached: await Promise.all((await store.replyInvoices(reply.id)).map(async (id) => (await store.getInvoice(id))!.number)),
        })),
    )
  return { store, context, deal, invoices, mails }
}

const flat = (text: string) => text.replace(/\s+/g, ' ')
const pdfOf = async (data: InvoiceData, eInvoice: boolean) => {
  const pdf = await renderInvoicePdf(data)
  return eInvoice ? facturXOf(data, pdf) : pdf
}

describe('a plan whose name moves after the last rate', () => {
  test('yields an Anzahlungsrechnung per rate with its mail, and with the transfer the final invoice that deducts them', { timeout: 60_000 }, async () => {
    const { context, deal, invoices, mails } = await setUp()
    const { id, inquiryId, reference } = await deal({ rates: 3 })
    expect(await markRatePaid(context, id, 1, 'owner', T0 + DAY)).toMatchObject({ status: 'done', allPaid: false })
    expect(await markRatePaid(context, id, 1, 'owner', T0 + DAY)).toEqual({ status: 'already-paid' })
    await markRatePaid(context, id, 2, 'owner', T0 + 31 * DAY)
    // The last one from the bank statement: the import takes the same step.
    const applied = await applyStatement(context, camtStatement([{ bankRef: 'B-3', amount: '333.33', remittance: `${reference}-R03` }]), T0 + 61 * DAY)
    expect(applied).toMatchObject({ applied: true, paid: [expect.anything()] })
    let issued = await invoices(id)
    expect(issued.map(({ listed }) => [listed.number, listed.kind, listed.advanceRate])).toEqual([
      [1, 'advance', 1],
      [2, 'advance', 2],
      [3, 'advance', 3],
    ])
    expect(issued.map(({ data }) => data.amounts.gross)).toEqual([33_334, 33_333, 33_333])
    // Each payment's mail carries its Anzahlungsrechnung; the last rate's is the deal's "payment received".
    expect((await mails(inquiryId)).map((mail) => [mail.kind, mail.attached])).toEqual([
      ['deal-paid', [1]],
      ['deal-paid', [2]],
      ['deal-paid', [3]],
    ])
    expect((await context.store.getDeal(id))!.status).toBe('paid')

    const transferred = await recordTransfer(context, id, { code: 'AUTH-1234' }, T0 + 62 * DAY)
    expect(transferred).toMatchObject({ status: 'done', invoiceId: expect.any(Number) })
    issued = await invoices(id)
    expect(issued.map(({ listed }) => [listed.number, listed.kind])).toEqual([
      [1, 'advance'],
      [2, 'advance'],
      [3, 'advance'],
      [4, 'invoice'],
    ])
    expect((await mails(inquiryId)).at(-1)).toMatchObject({ kind: 'deal-transferred', attached: [4] })
    const final = issued[3]!.data
    // The tax of the advance invoices and what remains add up to the whole price, to the cent.
    expect(sumOf(issued.slice(0, 3).map(({ data }) => data.amounts))).toEqual(final.amounts)
    expect(final.amounts).toMatchObject({ gross: 100_000, net: 84_034, vat: 15_966 })
    expect(remainingOf(final)).toMatchObject({ net: 0, vat: 0, gross: 0 })
    const text = flat(pdfText(await pdfOf(final, false), true))
    expect(text).toContain('Schlussrechnung')
    expect(text).toContain('Rechnungsnummer RE-00004')
    expect(text).toContain('Gesamtbetrag 1.000,00 EUR')
    expect(text).toContain('Anzahlungsrechnung RE-00001 vom 03.11.2026 (Rate 1 von 3): netto 280,12 EUR, USt 53,22 EUR, brutto 333,34 EUR')
    expect(text).toContain('Anzahlungsrechnung RE-00002 vom 03.12.2026 (Rate 2 von 3): netto 280,11 EUR, USt 53,22 EUR, brutto 333,33 EUR')
    expect(text).toContain('Anzahlungsrechnung RE-00003 vom 02.01.2027 (Rate 3 von 3): netto 280,11 EUR, USt 53,22 EUR, brutto 333,33 EUR')
    expect(text).toContain('Verbleibender Betrag: netto 0,00 EUR, USt 0,00 EUR, brutto 0,00 EUR')
    // Completing the deal issues nothing more: the final invoice exists.
    await completeDeal(context, id, 'buyer', T0 + 63 * DAY)
    expect((await invoices(id)).length).toBe(4)
  })

  test('an Anzahlungsrechnung says what it is, when the supply is expected, and is a prepayment E-Rechnung for a business', { timeout: 60_000 }, async () => {
    const { context, deal, invoices } = await setUp()
    const { id } = await deal({ rates: 2, downPayment: '200' }, 1200, { ...CONSUMER, company: 'Beispiel GmbH', vatId: 'DE987654321' })
    await markRatePaid(context, id, 0, 'bank', T0 + DAY)
    const [advance] = await invoices(id)
    expect(advance!.listed).toMatchObject({ kind: 'advance', advanceRate: 0, eInvoice: true })
    const pdf = await pdfOf(advance!.data, true)
    const text = flat(pdfText(pdf, true))
    expect(text).toContain('Anzahlungsrechnung')
    expect(text).toContain('Anzahlung für die Übertragung der Domain anzahlung-1.de')
    expect(text).toContain('Anzahlung vereinnahmt am 03.11.2026')
    expect(text).toMatch(
      /Die Leistung ist noch nicht erbracht: Die Domain wird nach der letzten Rate übertragen, voraussichtlich im Januar 2027 \(bis \d\d\.01\.2027\)\./,
    )
    expect(text).toContain('Gesamtbetrag 200,00 EUR')
    const { xml } = embeddedXml(pdf)
    expect(schemaErrors(xml!)).toEqual([])
    expect(xml).toContain('<ram:TypeCode>386</ram:TypeCode>')
  })

  test('"Zahlung erhalten" on the whole plan issues an Anzahlungsrechnung for each rate it receives, with its one mail', async () => {
    const { context, deal, invoices, mails } = await setUp()
    const { id, inquiryId } = await deal({ rates: 3 })
    await markRatePaid(context, id, 1, 'owner', T0 + DAY)
    expect(await markPaid(context, id, T0 + 2 * DAY)).toMatchObject({ status: 'done' })
    expect((await invoices(id)).map(({ listed }) => [listed.number, listed.kind, listed.advanceRate])).toEqual([
      [1, 'advance', 1],
      [2, 'advance', 2],
      [3, 'advance', 3],
    ])
    expect((await mails(inquiryId)).map((mail) => mail.attached)).toEqual([[1], [2, 3]])
  })

  test('a buyer without an address gets none until they give it; then the next payment catches up the ones before', async () => {
    const { store, context, invoices } = await setUp()
    const saved = await store.saveInquiry(newInquiry({ domain: 'spaet.de', offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', plan: { rates: 3 } }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error('not accepted')
    const id = outcome.deal.id
    await markRatePaid(context, id, 1, 'owner', T0 + DAY)
    expect(await invoices(id)).toEqual([])
    expect(await store.keepInvoiceAddress(id, CONSUMER)).toBe('done')
    await markRatePaid(context, id, 2, 'owner', T0 + 2 * DAY)
    expect((await invoices(id)).map(({ listed, data }) => [listed.number, listed.advanceRate, data.paidAt])).toEqual([
      [1, 1, T0 + DAY],
      [2, 2, T0 + 2 * DAY],
    ])
    // The address is on issued invoices now: the deal page no longer asks for it, and the store refuses a change.
    expect(await invoiceAddressForm(context, (await store.getDeal(id))!, await store.dealInvoices(id))).toBeUndefined()
    expect(await store.keepInvoiceAddress(id, { ...CONSUMER, street: 'Andere Straße 2' })).toBe('invoiced')
  })

  test('paid in full before the buyer gave an address: "Rechnung ausstellen" only after the transfer, over the whole price', async () => {
    const { store, context, invoices } = await setUp()
    const saved = await store.saveInquiry(newInquiry({ domain: 'ohne-anschrift.de', offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', plan: { rates: 2 } }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error('not accepted')
    const id = outcome.deal.id
    await markPaid(context, id, T0 + DAY)
    expect(await store.keepInvoiceAddress(id, CONSUMER)).toBe('done')
    // Paid, not yet supplied: the invoice over the whole price waits for the transfer.
    expect(await dealInvoices(context, (await store.getDeal(id))!)).toMatchObject({ canIssue: false })
    expect(await issueMissingInvoice(context, id, T0 + 2 * DAY)).toEqual({ status: 'wrong-state', current: 'paid' })
    await recordTransfer(context, id, { code: 'AUTH-9' }, T0 + 3 * DAY)
    // The transfer issued it, the address being known by then.
    expect((await invoices(id)).map(({ listed, data }) => [listed.kind, data.deductions, data.supplyBy])).toEqual([['invoice', undefined, T0 + 3 * DAY]])
    expect(await dealInvoices(context, (await store.getDeal(id))!)).toMatchObject({ canIssue: false })
  })

  test('cancelled after two rates: each Anzahlungsrechnung gets its own Stornorechnung, and nothing is deleted', async () => {
    const { context, deal, invoices, mails } = await setUp()
    const { id, inquiryId } = await deal({ rates: 3 })
    await markRatePaid(context, id, 1, 'owner', T0 + DAY)
    await markRatePaid(context, id, 2, 'owner', T0 + 31 * DAY)
    expect(await cancelDeal(context, id, 'owner', 'Käufer zahlt nicht', T0 + 70 * DAY)).toMatchObject({ status: 'done' })
    const issued = await invoices(id)
    expect(issued.map(({ listed }) => [listed.number, listed.kind, listed.advanceRate])).toEqual([
      [1, 'advance', 1],
      [2, 'advance', 2],
      [3, 'cancellation', 1],
      [4, 'cancellation', 2],
    ])
    expect(issued[2]!.data).toMatchObject({ cancels: { number: 'RE-00001' }, amounts: { gross: -33_334 }, advance: { rate: 1, count: 3 } })
    expect(issued[3]!.data).toMatchObject({ cancels: { number: 'RE-00002' }, amounts: { gross: -33_333 } })
    expect((await mails(inquiryId)).at(-1)).toMatchObject({ kind: 'deal-cancelled', attached: [3, 4] })
    // Cancelled twice changes nothing.
    expect(await cancelDeal(context, id, 'owner', '', T0 + 71 * DAY)).toMatchObject({ status: 'wrong-state' })
    expect((await invoices(id)).length).toBe(4)
  })
})

describe('a plan whose name moves at once', () => {
  test('has no advance payments: one invoice with the schedule, issued with the transfer', async () => {
    const { context, deal, invoices, mails } = await setUp()
    const { id, inquiryId } = await deal({ rates: 3, transfer: 'at-once' })
    expect(await recordTransfer(context, id, { code: 'AUTH-1' }, T0 + DAY)).toMatchObject({ status: 'done', invoiceId: expect.any(Number) })
    for (const number of [1, 2, 3]) await markRatePaid(context, id, number, 'owner', T0 + number * 30 * DAY)
    const issued = await invoices(id)
    expect(issued.map(({ listed }) => [listed.number, listed.kind])).toEqual([[1, 'invoice']])
    expect(issued[0]!.data.deductions).toBeUndefined()
    expect(issued[0]!.data.instalments?.map((rate) => rate.paidAt)).toEqual([null, null, null])
    expect((await mails(inquiryId)).flatMap((mail) => mail.attached)).toEqual([1])
  })
})
