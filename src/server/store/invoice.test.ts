// Invoices in the store (decision 038), on the store of the test project (SQLite, or a real PostgreSQL): issued in
// the step's transaction with one gapless number for every process; a failed step gives its number back; a deal is
// invoiced once and cancelled once; the PDF kept once is never replaced, and never read but with its own hash; an
// invoice outlives its inquiry.
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { invoiceAttachments, invoiceFile } from '../invoice/files.ts'
import { berlinTime } from '../lib/berlin.ts'
import { invoiceRetentionJob } from '../jobs/invoice-retention.ts'
import { eraseExpired } from '../jobs/retention.ts'
import { InvoiceHashMismatchError, type InvoiceIssue, type Store } from './types.ts'

const T0 = Date.UTC(2026, 10, 1, 12)
const DAY = 86_400_000

let links = 0
/** An inquiry accepted into a deal waiting for payment, each for a name of its own (one open deal per name); its id. */
async function dealIn(store: Store): Promise<number> {
  const domain = `rechnung-${++links}.de`
  const saved = await store.saveInquiry(newInquiry({ domain, offer: { amount: 1500, currency: 'EUR' }, createdAt: T0 }), { queue: true, mailTo: null })
  if (saved.status !== 'created') throw new Error('not created')
  const accepted = await store.accept(saved.id, {
    body: 'Angenommen',
    to: 'erika@example.de',
    replyTo: 'owner@example.org',
    now: T0,
    amount: 1500,
    deal: { linkHash: `invoice-link-${links}`, linkSealed: 'v1.sealed', amount: 150_000, currency: 'EUR', paymentDueAt: T0 + 7 * DAY, transferDays: 5 },
  })
  if (accepted.status !== 'queued' || accepted.dealId === undefined) throw new Error('no deal')
  return accepted.dealId
}

const issue: InvoiceIssue = { kind: 'invoice', build: (sequence) => ({ data: JSON.stringify({ sequence }), eInvoice: false }) }
const paid = (store: Store, id: number, invoice: InvoiceIssue = issue) =>
  store.changeDeal(id, {
    from: ['awaiting_payment'],
    to: 'paid',
    now: T0 + DAY,
    paidAt: T0 + DAY,
    mail: { kind: 'deal-paid', body: 'Bezahlt', to: 'erika@example.de', replyTo: 'owner@example.org' },
    invoice,
  })

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

async function numbers(store: Store) {
  return (await store.listInvoices()).map((invoice) => invoice.number).sort((a, b) => a - b)
}

describe('invoice numbers', () => {
  test('three stores on one database (three instances) issuing at once get 1..N, without a gap or a duplicate', async () => {
    const config = await testStoreConfig('invoice-numbers-')
    const stores = [await openTestStore(config), await openTestStore(config), await openTestStore(config)]
    const deals: number[] = []
    for (let i = 0; i < 24; i++) deals.push(await dealIn(stores[0]!))
    const results = await Promise.all(deals.map((id, i) => paid(stores[i % 3]!, id)))
    expect(results.every((result) => result.status === 'done')).toBe(true)
    expect(await numbers(stores[1]!)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1))
    // Each invoice's data was built with the number it got.
    for (const listed of await stores[2]!.listInvoices())
      expect(JSON.parse((await stores[2]!.getInvoice(listed.id))!.data)).toEqual({ sequence: listed.number })
  })

  test('a step that fails after taking a number gives it back: the next invoice has it', async () => {
    const store = await openTestStore()
    const [a, b] = [await dealIn(store), await dealIn(store)]
    await expect(
      paid(store, a, {
        kind: 'invoice',
        build: () => {
          throw new Error('drawing failed')
        },
      }),
    ).rejects.toThrow('drawing failed')
    expect((await store.getDeal(a))!.status).toBe('awaiting_payment')
    expect(await store.listInvoices()).toEqual([])
    expect(await paid(store, b)).toMatchObject({ status: 'done', invoiceId: expect.any(Number) })
    expect(await numbers(store)).toEqual([1])
  })

  test('a refused step (wrong state) takes no number', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    await paid(store, id)
    expect(await paid(store, id)).toMatchObject({ status: 'wrong-state' })
    expect(await numbers(store)).toEqual([1])
  })
})

describe('an invoice', () => {
  test('goes with the mail of its step, and a cancellation issues one Stornorechnung under the next number', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    const result = await paid(store, id)
    if (result.status !== 'done') throw new Error('not paid')
    expect(await store.replyInvoices(result.replyId!)).toEqual([result.invoiceId])
    const cancellation: InvoiceIssue = {
      kind: 'cancellation',
      build: (sequence, original) => ({ data: JSON.stringify({ sequence, cancels: JSON.parse(original.data) }), eInvoice: original.eInvoice }),
    }
    const cancelled = await store.changeDeal(id, {
      from: ['paid'],
      to: 'cancelled',
      now: T0 + 2 * DAY,
      cancelledAt: T0 + 2 * DAY,
      cancelledBy: 'owner',
      invoice: cancellation,
    })
    expect(cancelled).toMatchObject({ status: 'done', invoiceId: expect.any(Number) })
    const invoices = await store.dealInvoices(id)
    expect(invoices.map(({ number, kind }) => ({ number, kind }))).toEqual([
      { number: 1, kind: 'invoice' },
      { number: 2, kind: 'cancellation' },
    ])
    const storno = (await store.getInvoice(invoices[1]!.id))!
    expect(storno.cancelsId).toBe(invoices[0]!.id)
    expect(JSON.parse(storno.data)).toEqual({ sequence: 2, cancels: { sequence: 1 } })
  })

  test('a cancellation of a deal without an invoice issues nothing and takes no number', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    const cancellation: InvoiceIssue = { kind: 'cancellation', build: () => ({ data: '{}', eInvoice: false }) }
    expect(
      await store.changeDeal(id, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'buyer', invoice: cancellation }),
    ).toMatchObject({ status: 'done', invoiceId: null })
    expect(await store.listInvoices()).toEqual([])
  })

  test('keeps the first PDF it is given: a second one (another process drawing at once) does not replace it', async () => {
    const store = await openTestStore()
    const result = await paid(store, await dealIn(store))
    if (result.status !== 'done') throw new Error('not paid')
    const id = result.invoiceId!
    expect((await store.getInvoice(id))!.pdf).toBeNull()
    // A hash that is not the bytes' is refused before anything is kept.
    await expect(store.keepInvoicePdf(id, Buffer.from('%PDF-first'), sha256(Buffer.from('%PDF-other')))).rejects.toThrow("the SHA-256 given is not the PDF's")
    const [one, two] = [Buffer.from('%PDF-first'), Buffer.from('%PDF-second')]
    const first = await store.keepInvoicePdf(id, one, sha256(one))
    const second = await store.keepInvoicePdf(id, two, sha256(two))
    expect(first).toEqual({ pdf: one, sha256: sha256(one) })
    expect(second).toEqual(first)
    expect((await store.getInvoice(id))!).toMatchObject({ pdf: one, sha256: sha256(one) })
  })

  test("is refused on every read whose stored bytes are not its hash's: another invoice's PDF swapped in, changed, or gone", async () => {
    const config = await testStoreConfig('invoice-swap-')
    const store = await openTestStore(config)
    const [one, two] = [await paid(store, await dealIn(store)), await paid(store, await dealIn(store))]
    if (one.status !== 'done' || two.status !== 'done') throw new Error('not paid')
    const [oneId, twoId] = [one.invoiceId!, two.invoiceId!]
    const [pdfOfOne, pdfOfTwo] = [Buffer.from('%PDF invoice 1'), Buffer.from('%PDF invoice 2')]
    await store.keepInvoicePdf(oneId, pdfOfOne, sha256(pdfOfOne))
    await store.keepInvoicePdf(twoId, pdfOfTwo, sha256(pdfOfTwo))
    const refused = async (why: RegExp) => {
      // The store's read, the file every download and the CLI take, and the mail's attachments.
      for (const read of [() => store.getInvoice(twoId), () => invoiceFile(store, twoId), () => invoiceAttachments(store, two.replyId!)]) {
        const error = await read().then(
          () => null,
          (thrown: unknown) => thrown,
        )
        expect(error).toBeInstanceOf(InvoiceHashMismatchError)
        expect((error as InvoiceHashMismatchError).invoice).toBe(2)
        expect((error as Error).message).toMatch(why)
      }
    }

    await queryStore(config.dataDir, 'UPDATE invoices SET pdf = (SELECT pdf FROM invoices WHERE id = ?) WHERE id = ?', [oneId, twoId])
    await refused(new RegExp(`^invoice 2: hash mismatch, its stored PDF has the SHA-256 ${sha256(pdfOfOne)}, not the stored ${sha256(pdfOfTwo)}`))
    // The listing still names the hash it was issued with; the other invoice reads as before.
    expect((await store.listInvoices()).find((invoice) => invoice.id === twoId)!.sha256).toBe(sha256(pdfOfTwo))
    expect((await store.getInvoice(oneId))!.pdf).toEqual(pdfOfOne)
    // Its own bytes back: read again.
    await queryStore(config.dataDir, 'UPDATE invoices SET pdf = ? WHERE id = ?', [pdfOfTwo, twoId])
    expect((await store.getInvoice(twoId))!.pdf).toEqual(pdfOfTwo)
    // Gone, or the hash gone: refused too, never drawn anew under the same number.
    await queryStore(config.dataDir, 'UPDATE invoices SET pdf = NULL WHERE id = ?', [twoId])
    await refused(/^invoice 2: hash mismatch, its SHA-256 is stored but its PDF is gone/)
    await queryStore(config.dataDir, 'UPDATE invoices SET pdf = ?, sha256 = NULL WHERE id = ?', [pdfOfTwo, twoId])
    await refused(/^invoice 2: hash mismatch, its PDF is stored without a SHA-256/)
  })

  test('outlives its inquiry: erasing the buyer (forget) keeps the invoice, its data and its PDF', async () => {
    const store = await openTestStore()
    const result = await paid(store, await dealIn(store))
    if (result.status !== 'done') throw new Error('not paid')
    await store.keepInvoicePdf(result.invoiceId!, Buffer.from('%PDF-kept'), sha256(Buffer.from('%PDF-kept')))
    const erased = await store.eraseByEmail('erika@example.de')
    expect(erased.inquiries).toHaveLength(1)
    expect(erased.keptInvoices).toEqual([1])
    expect(await store.getDeal(result.deal.id)).toBeNull()
    expect(await store.getInvoice(result.invoiceId!)).toMatchObject({
      dealId: null,
      number: 1,
      pdf: Buffer.from('%PDF-kept'),
      data: JSON.stringify({ sequence: 1 }),
    })
  })
})

test('retention (RETENTION_DAYS) erases the stale inquiry with its deal, keeps its invoice and says so', async () => {
  const config = await testStoreConfig('invoice-retention-')
  const store = await openTestStore(config)
  const result = await paid(store, await dealIn(store))
  if (result.status !== 'done') throw new Error('not paid')
  const erased = await eraseExpired({ store, dataDir: config.dataDir, days: 30, now: T0 + 400 * DAY })
  expect(erased).toMatchObject({ inquiries: 1, keptInvoices: 1 })
  expect(await store.getDeal(result.deal.id)).toBeNull()
  expect(await store.getInvoice(result.invoiceId!)).toMatchObject({ number: 1, dealId: null })
})

describe("the invoices' retention (INVOICE_RETENTION_YEARS, decision 038)", () => {
  const logged: unknown[] = []
  const log = { info: (...args: unknown[]) => logged.push(args) } as unknown as Parameters<typeof invoiceRetentionJob>[0]['log']
  const run = (store: Store, years: number, now: number) =>
    invoiceRetentionJob({ store, years, log }).run({ now, dueAt: now, period: 'test', signal: new AbortController().signal })

  test('keeps an invoice 8 years from the end of the year it was issued in, and erases it the first night after', async () => {
    const store = await openTestStore()
    // Issued on 2 November 2026 (T0 + a day): kept through 31 December 2034.
    const result = await paid(store, await dealIn(store))
    if (result.status !== 'done') throw new Error('not paid')
    await run(store, 8, berlinTime(2034, 12, 31, 23, 59))
    expect(await numbers(store)).toEqual([1])
    // Ten years, for a seller who must keep them longer, keeps it through 2036.
    await run(store, 10, berlinTime(2035, 1, 1, 3, 45))
    expect(await numbers(store)).toEqual([1])
    await run(store, 8, berlinTime(2035, 1, 1, 3, 45))
    expect(await store.listInvoices()).toEqual([])
    expect(await store.getInvoice(result.invoiceId!)).toBeNull()
    // Numbers only in the log: nothing an invoice said.
    expect(JSON.stringify(logged.at(-1))).toContain('"invoices":[1]')
    expect(JSON.stringify(logged)).not.toContain('sequence')
    // The sequence goes on: a later invoice never takes an erased number again.
    await paid(store, await dealIn(store))
    expect(await numbers(store)).toEqual([2])
  })

  test('keeps an invoice as long as its Stornorechnung of a later year is kept, then erases both', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    const result = await paid(store, id)
    if (result.status !== 'done') throw new Error('not paid')
    const january = Date.UTC(2027, 0, 10)
    const cancellation: InvoiceIssue = { kind: 'cancellation', build: (sequence) => ({ data: JSON.stringify({ sequence }), eInvoice: false }) }
    expect(
      await store.changeDeal(id, { from: ['paid'], to: 'cancelled', now: january, cancelledAt: january, cancelledBy: 'owner', invoice: cancellation }),
    ).toMatchObject({ status: 'done' })
    await run(store, 8, berlinTime(2035, 6, 1, 3, 45))
    expect(await numbers(store)).toEqual([1, 2])
    await run(store, 8, berlinTime(2036, 1, 1, 3, 45))
    expect(await numbers(store)).toEqual([])
  })
})

describe("a negotiated deal's invoice address", () => {
  const address = {
    name: 'Erika Mustermann',
    company: 'Beispiel GmbH',
    street: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    vatId: 'DE123456789',
  }

  test('is kept on the inquiry while the deal is not invoiced, may be changed until then, and never after', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    const deal = (await store.getDeal(id))!
    expect((await store.getInquiry(deal.inquiryId))!.invoiceAddress).toBeUndefined()
    expect(await store.keepInvoiceAddress(id, { ...address, name: 'E. Mustermann' })).toBe('done')
    expect(await store.keepInvoiceAddress(id, address)).toBe('done')
    const inquiry = (await store.getInquiry(deal.inquiryId))!
    expect(inquiry.invoiceAddress).toEqual(address)
    // Still an offer's inquiry: the console shows no checkout for it, and the search keeps its own name.
    expect(inquiry.checkout).toBeUndefined()
    expect(inquiry.name).toBe('Erika Mustermann')
    await paid(store, id)
    expect(await store.keepInvoiceAddress(id, { ...address, street: 'Andere Straße 2' })).toBe('invoiced')
    expect((await store.getInquiry(deal.inquiryId))!.invoiceAddress!.street).toBe('Hauptstraße 1')
  })

  test('is refused for a cancelled deal and for an unknown one', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    await store.changeDeal(id, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'buyer' })
    expect(await store.keepInvoiceAddress(id, address)).toBe('cancelled')
    expect(await store.keepInvoiceAddress(999_999, address)).toBe('not-found')
  })

  test('an invoice issued later (the address came after the payment) only for a paid deal, once, taking a number only then', async () => {
    const store = await openTestStore()
    const id = await dealIn(store)
    expect(await store.issueLateInvoice(id, issue, T0)).toEqual({ status: 'wrong-state', current: 'awaiting_payment' })
    // Marked paid without an invoice: the buyer had not given the address yet.
    expect(await store.changeDeal(id, { from: ['awaiting_payment'], to: 'paid', now: T0 + DAY, paidAt: T0 + DAY })).toMatchObject({
      status: 'done',
      invoiceId: null,
    })
    expect(await store.listInvoices()).toEqual([])
    const late = await store.issueLateInvoice(id, issue, T0 + 3 * DAY)
    expect(late).toEqual({ status: 'done', invoiceId: expect.any(Number) })
    expect(await store.issueLateInvoice(id, issue, T0 + 4 * DAY)).toEqual({ status: 'invoiced' })
    expect(await store.dealInvoices(id)).toEqual([expect.objectContaining({ number: 1, kind: 'invoice', issuedAt: T0 + 3 * DAY })])
    expect(await store.issueLateInvoice(999_999, issue, T0)).toEqual({ status: 'not-found' })
  })
})
