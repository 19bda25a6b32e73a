// Importing bank statements against the store of the test project (SQLite, or a real PostgreSQL): the preview changes
// nothing; applying records each booking once and marks paid, through the deal's own step (its mail to the buyer),
// the deals whose payments cover them, also from two partial transfers; a return never marks anything paid and is
// shown against a deal already paid; importing a file again, or a month's statement with the same bookings, changes
// nothing; an import that stopped after recording is completed by the next one; two imports at once mail once.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { camtStatement } from '../../../tests/helpers/camt.ts'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { takeDealStep } from '../deal/actions.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { Store } from '../store/types.ts'
import { parseCamt } from './camt-parse.ts'
import { matchStatement } from './match.ts'
import { applyStatement, previewStatement } from './statement.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/camt')
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name))
const SPARKASSE = fixture('sparkasse-053-02.xml')
const VOLKSBANK = fixture('volksbank-053-08-return.xml')
const USD_BATCH = fixture('usd-053-04-batch.xml')

/** The deals' references are made from their year: 2026 (T0) makes those the fixtures name. */
const T0 = Date.UTC(2026, 10, 1, 12)
const LATER = Date.UTC(2026, 10, 12, 12)
const OFFERS = [
  ['beispiel.de', 4900, 'EUR'],
  ['zweite.de', 2500, 'EUR'],
  ['dritte.de', 700, 'EUR'],
  ['vierte.de', 1200, 'EUR'],
  ['english.com', 900, 'USD'],
] as const

async function setUp(config?: Awaited<ReturnType<typeof testStoreConfig>>) {
  const storeConfig = config ?? (await testStoreConfig('payments-'))
  const store = await openTestStore(storeConfig)
  const context = { store, config: loadConfig({ DATA_DIR: storeConfig.dataDir, MAIL_TO: 'owner@example.org' }), domains: domainsConfigOf({}) }
  return { store, context, dataDir: storeConfig.dataDir }
}

/** Five accepted offers at T0: deals 1-5, DL-2026-0001 … DL-2026-0005. */
async function makeDeals(setup: Awaited<ReturnType<typeof setUp>>) {
  for (const [domain, amount, currency] of OFFERS) {
    const saved = await setup.store.saveInquiry(newInquiry({ domain, email: `buyer@${domain}`, offer: { amount, currency }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...setup.context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept' }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error(`not accepted: ${outcome.status}`)
  }
  expect((await setup.store.listDeals()).map((deal) => deal.reference).sort()).toEqual([
    'DL-2026-0001',
    'DL-2026-0002',
    'DL-2026-0003',
    'DL-2026-0004',
    'DL-2026-0005',
  ])
}

const states = async (store: Store) => Object.fromEntries((await store.listDeals()).map((deal) => [deal.reference, deal.status]))
const paidMails = async (dataDir: string) =>
  (await queryStore<{ inquiry_id: number }>(dataDir, "SELECT inquiry_id FROM replies WHERE kind = 'deal-paid' ORDER BY inquiry_id")).map((row) =>
    Number(row.inquiry_id),
  )
const recorded = async (dataDir: string) => Number((await queryStore<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM bank_payments'))[0]!.n)

describe('importing bank statements', () => {
  test('the preview classifies every booking and changes nothing', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    const preview = await previewStatement(setup.store, SPARKASSE)
    expect(preview.counts).toEqual({ matched: 3, partial: 1, overpaid: 0, unmatched: 4, applied: 0, return: 0, ignored: 2 })
    expect(preview.items.map((item) => [item.class, item.reference, item.amount, item.currency, item.reason ?? null])).toEqual([
      ['matched', 'DL-2026-0001', 490_000, 'EUR', null],
      // Split over two remittance lines: "… DL-2026-00" and "02, …".
      ['partial', 'DL-2026-0002', 100_000, 'EUR', null],
      ['unmatched', null, 12_000, 'EUR', 'no-reference'],
      ['matched', 'DL-2026-0004', 120_000, 'EUR', null],
      // The batch booking's two transfers: the rest of deal 2 ("DL 2026 0002"), and a donation.
      ['matched', 'DL-2026-0002', 150_000, 'EUR', null],
      ['unmatched', null, 10_000, 'EUR', 'no-reference'],
      // Euros for a deal in dollars, dollars for a deal in euros: never matched.
      ['unmatched', 'DL-2026-0005', 90_000, 'EUR', 'currency'],
      ['unmatched', 'DL-2026-0001', 490_000, 'USD', 'currency'],
    ])
    expect(preview.deals.map((deal) => [deal.reference, deal.receivedAfter, deal.marksPaid])).toEqual([
      ['DL-2026-0001', 490_000, true],
      ['DL-2026-0002', 250_000, true],
      ['DL-2026-0004', 120_000, true],
    ])
    expect(await states(setup.store)).toEqual({
      'DL-2026-0001': 'awaiting_payment',
      'DL-2026-0002': 'awaiting_payment',
      'DL-2026-0003': 'awaiting_payment',
      'DL-2026-0004': 'awaiting_payment',
      'DL-2026-0005': 'awaiting_payment',
    })
    expect(await recorded(setup.dataDir)).toBe(0)
    expect(await paidMails(setup.dataDir)).toEqual([])
  })

  test('applying marks paid what is covered (two partial transfers too), mails each buyer once, and a second import changes nothing', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    const result = await applyStatement(setup.context, SPARKASSE, LATER)
    expect(result).toMatchObject({ applied: true, recorded: 4, paid: [{ dealId: 1 }, { dealId: 2 }, { dealId: 4 }] })
    expect(await states(setup.store)).toMatchObject({
      'DL-2026-0001': 'paid',
      'DL-2026-0002': 'paid',
      'DL-2026-0003': 'awaiting_payment',
      'DL-2026-0004': 'paid',
      'DL-2026-0005': 'awaiting_payment',
    })
    expect((await setup.store.getDeal(2))!.paidAt).toBe(LATER)
    expect(await paidMails(setup.dataDir)).toEqual([1, 2, 4])
    // The ledger keeps amounts, dates and references: no name, no remittance text.
    const rows = await queryStore<Record<string, unknown>>(setup.dataDir, 'SELECT * FROM bank_payments ORDER BY id')
    expect(rows.map((row) => [Number(row.deal_id), row.reference, Number(row.amount), row.currency, row.kind, row.booked_on, row.bank_ref])).toEqual([
      [1, 'DL-2026-0001', 490_000, 'EUR', 'payment', '2026-11-03', '2026110300001'],
      [2, 'DL-2026-0002', 100_000, 'EUR', 'payment', '2026-11-03', '2026110300002'],
      [4, 'DL-2026-0004', 120_000, 'EUR', 'payment', '2026-11-03', '2026110300005'],
      [2, 'DL-2026-0002', 150_000, 'EUR', 'payment', '2026-11-04', '2026110400001'],
    ])
    expect(JSON.stringify(rows)).not.toMatch(/Mustermann|Beispiel GmbH|Restzahlung/)

    const again = await applyStatement(setup.context, SPARKASSE, LATER + 1000)
    expect(again).toMatchObject({ recorded: 0, paid: [], counts: { matched: 0, partial: 0, applied: 4, unmatched: 4 } })
    expect(await recorded(setup.dataDir)).toBe(4)
    expect(await paidMails(setup.dataDir)).toEqual([1, 2, 4])
    // The month's statement has the same bookings under another statement id and other entry numbers.
    const monthly = SPARKASSE.toString('utf8')
      .replaceAll('camt53_20261103_1', 'camt53_202611_M')
      .replaceAll('<ElctrncSeqNb>212</ElctrncSeqNb>', '<ElctrncSeqNb>11</ElctrncSeqNb>')
    expect((await applyStatement(setup.context, monthly, LATER + 2000)).counts).toMatchObject({ applied: 4, matched: 0 })
    expect(await recorded(setup.dataDir)).toBe(4)
  })

  test('an overpayment pays the deal; a return never marks anything and shows against the deal it had paid', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    await applyStatement(setup.context, SPARKASSE, LATER)
    const preview = await previewStatement(setup.store, VOLKSBANK)
    expect(preview.items.map((item) => [item.class, item.reference, item.direction, item.amount, item.reason ?? null])).toEqual([
      ['overpaid', 'DL-2026-0003', 'credit', 75_000, null],
      ['return', 'DL-2026-0004', 'debit', 120_000, 'returned-after-payment'],
      ['return', null, 'credit', 2990, null],
    ])
    const result = await applyStatement(setup.context, VOLKSBANK, LATER)
    expect(result.paid).toEqual([{ dealId: 3, reference: 'DL-2026-0003' }])
    expect(result.deals.map((deal) => [deal.reference, deal.receivedBefore, deal.receivedAfter, deal.status, deal.marksPaid])).toEqual([
      ['DL-2026-0003', 0, 75_000, 'awaiting_payment', true],
      ['DL-2026-0004', 120_000, 0, 'paid', false],
    ])
    // The owner decides what a returned payment means: the deal stays as it was.
    expect(await states(setup.store)).toMatchObject({ 'DL-2026-0003': 'paid', 'DL-2026-0004': 'paid' })
    expect((await setup.store.receivedByDeal([3, 4])).get(4)).toBe(0)
    expect(await paidMails(setup.dataDir)).toEqual([1, 2, 3, 4])
    expect((await applyStatement(setup.context, VOLKSBANK, LATER)).counts).toMatchObject({ applied: 2, return: 1, overpaid: 0 })
  })

  test('a payment returned before it was applied leaves the deal unpaid', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    // The return of deal 4's payment (the Volksbank statement) in the same file as the payment itself.
    const returned = /<camt:Stmt>[\s\S]*<\/camt:Stmt>/.exec(VOLKSBANK.toString('utf8'))![0].replace(/camt:/g, '')
    const both = SPARKASSE.toString('utf8').replace('</BkToCstmrStmt>', `${returned}</BkToCstmrStmt>`)
    const result = await applyStatement(setup.context, both, LATER)
    expect(result.counts).toMatchObject({ return: 2, overpaid: 1 })
    expect((await setup.store.getDeal(4))!.status).toBe('awaiting_payment')
    expect(result.paid.map((deal) => deal.dealId)).toEqual([1, 2, 3])
  })

  test("money leaving with a deal's reference never counts as a payment, nor takes the deal below what it received", async () => {
    const setup = await setUp()
    await makeDeals(setup)
    // Deal 3 (700 €) has received 30 €; then the bank reverses a booking of 50 € naming it, and the owner pays 20 € out.
    const file = camtStatement([
      { bankRef: 'REV-1', amount: '30.00', remittance: 'Anzahlung DL-2026-0003' },
      { bankRef: 'REV-2', amount: '50.00', remittance: 'Storno DL-2026-0003', debit: true, reversal: true },
      { bankRef: 'REV-3', amount: '20.00', remittance: 'Erstattung DL-2026-0003', debit: true },
      { bankRef: 'REV-4', amount: '50.00', remittance: 'Storno DL-2026-0001', debit: true, reversal: true },
    ])
    const result = await applyStatement(setup.context, file, LATER)
    expect(result.items.map((item) => [item.class, item.reference, item.direction, item.amount, item.reason ?? null])).toEqual([
      ['partial', 'DL-2026-0003', 'credit', 3000, null],
      ['unmatched', 'DL-2026-0003', 'debit', 5000, 'return-exceeds-received'],
      ['unmatched', 'DL-2026-0001', 'debit', 5000, 'return-exceeds-received'],
    ])
    expect(result.counts).toMatchObject({ ignored: 1, return: 0, unmatched: 2 })
    expect(result.recorded).toBe(1)
    expect(result.deals.map((deal) => [deal.reference, deal.receivedAfter])).toEqual([['DL-2026-0003', 3000]])
    const received = await setup.store.receivedByDeal([1, 3])
    expect([received.get(1) ?? 0, received.get(3)]).toEqual([0, 3000])
    expect(await states(setup.store)).toMatchObject({ 'DL-2026-0001': 'awaiting_payment', 'DL-2026-0003': 'awaiting_payment' })
  })

  test('a batch of two partial payments in dollars completes a deal in dollars', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    const result = await applyStatement(setup.context, USD_BATCH, LATER)
    expect(result.items.map((item) => [item.class, item.transaction, item.amount])).toEqual([
      ['partial', 1, 40_000],
      ['matched', 2, 50_000],
    ])
    expect(result.paid).toEqual([{ dealId: 5, reference: 'DL-2026-0005' }])
  })

  test('an import that stopped after recording the payments is completed by importing the file again', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    const deals = await setup.store.listDeals()
    const { records } = matchStatement({
      document: parseCamt(SPARKASSE),
      targets: new Map(
        deals.map((deal) => [
          deal.reference,
          { reference: deal.reference, dealId: deal.id, domain: deal.domain, amount: deal.amount, currency: deal.currency, status: deal.status, received: 0 },
        ]),
      ),
      recorded: new Map(),
    })
    expect(await setup.store.recordBankPayments(records, LATER)).toBe(4)
    expect(await paidMails(setup.dataDir)).toEqual([])
    const preview = await previewStatement(setup.store, SPARKASSE)
    expect(preview.deals.filter((deal) => deal.marksPaid).map((deal) => deal.dealId)).toEqual([1, 2, 4])
    const result = await applyStatement(setup.context, SPARKASSE, LATER)
    expect(result).toMatchObject({ recorded: 0, paid: [{ dealId: 1 }, { dealId: 2 }, { dealId: 4 }] })
    expect(await paidMails(setup.dataDir)).toEqual([1, 2, 4])
  })

  test('two imports of the same file at once (two processes) record each booking once and mail each buyer once', async () => {
    const storeConfig = await testStoreConfig('payments-race-')
    const first = await setUp(storeConfig)
    await makeDeals(first)
    const second = await setUp(storeConfig)
    const results = await Promise.all([applyStatement(first.context, SPARKASSE, LATER), applyStatement(second.context, SPARKASSE, LATER)])
    expect(results[0].recorded + results[1].recorded).toBe(4)
    expect([...results[0].paid, ...results[1].paid].map((deal) => deal.dealId).sort()).toEqual([1, 2, 4])
    expect(await paidMails(first.dataDir)).toEqual([1, 2, 4])
  })

  test('a deal paid by hand before the import: its payment is recorded, nothing is mailed again', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    const { markPaid } = await import('../deal/steps.ts')
    expect((await markPaid(setup.context, 1, LATER)).status).toBe('done')
    const result = await applyStatement(setup.context, SPARKASSE, LATER)
    expect(result.items[0]).toMatchObject({ class: 'matched', reason: 'deal-already-paid', dealId: 1 })
    expect(result.paid.map((deal) => deal.dealId)).toEqual([2, 4])
    expect(await paidMails(setup.dataDir)).toEqual([1, 2, 4])
  })

  test('erasing a buyer keeps the bare bookings, unlinked, so that the old statement still changes nothing', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    await applyStatement(setup.context, SPARKASSE, LATER)
    expect((await setup.store.eraseByEmail('buyer@zweite.de')).inquiries).toHaveLength(1)
    const rows = await queryStore<{ deal_id: number | null; reference: string }>(setup.dataDir, 'SELECT deal_id, reference FROM bank_payments ORDER BY id')
    expect(rows.map((row) => [row.deal_id === null ? null : Number(row.deal_id), row.reference])).toEqual([
      [1, 'DL-2026-0001'],
      [null, 'DL-2026-0002'],
      [4, 'DL-2026-0004'],
      [null, 'DL-2026-0002'],
    ])
    const again = await applyStatement(setup.context, SPARKASSE, LATER)
    expect(again).toMatchObject({ recorded: 0, paid: [], counts: { applied: 4 } })
    expect(again.items.filter((item) => item.class === 'applied').map((item) => item.dealId)).toEqual([1, null, 4, null])
  })

  test('a statement that cannot be read applies nothing', async () => {
    const setup = await setUp()
    await makeDeals(setup)
    await expect(applyStatement(setup.context, SPARKASSE.subarray(0, 5000), LATER)).rejects.toMatchObject({ name: 'CamtError' })
    await expect(
      applyStatement(setup.context, SPARKASSE.toString('utf8').replace('<Amt Ccy="EUR">1600.00</Amt>', '<Amt Ccy="EUR">16OO.00</Amt>'), LATER),
    ).rejects.toMatchObject({
      problem: { code: 'amount' },
    })
    expect(await recorded(setup.dataDir)).toBe(0)
    expect(await paidMails(setup.dataDir)).toEqual([])
  })
})
