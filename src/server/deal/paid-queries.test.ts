// "Zahlung erhalten" (steps.ts markPaid) as the store of the test project (SQLite, or a real PostgreSQL) runs it,
// statement by statement: the step is one transaction, and it reads its deal's row once (decision 060), with its mail
// and its invoice, for a deal paid at once and for an instalment plan marked paid as a whole.
import { describe, expect, test } from 'vitest'
import { readsOf, transactionsOf } from '../../../tests/helpers/queries.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { InvoiceAddress } from '../store/types.ts'
import { takeDealStep, type PlanRequest } from './actions.ts'
import { markPaid } from './steps.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const DAY = 86_400_000
const ADDRESS: InvoiceAddress = { name: 'Erika Käufer', company: null, street: 'Marktplatz 1', postcode: '80331', city: 'München', country: 'DE', vatId: null }

/** How many of these statements read the deals table (a join of it included). */
const dealReads = (statements: readonly string[]) => readsOf('deals', statements)

async function setUp() {
  const storeConfig = await testStoreConfig('paid-queries-')
  let recording = false
  const statements: string[] = []
  const store = await openTestStore(storeConfig, { onQuery: (sql) => void (recording && statements.push(sql.trim())) })
  const config = loadConfig({
    DATA_DIR: storeConfig.dataDir,
    MAIL_TO: 'owner@example.org',
    SELLER_NAME: 'Jürgen Müller Domains',
    SELLER_STREET: 'Hauptstraße 5',
    SELLER_POSTCODE: '10115',
    SELLER_CITY: 'Berlin',
    SELLER_TAX_NUMBER: '27/123/45678',
  })
  const context = { store, config, domains: domainsConfigOf({}) }
  /** An accepted deal whose buyer gave an invoice address, so that "paid" issues the invoice. */
  async function deal(plan: PlanRequest | null) {
    const saved = await store.saveInquiry(newInquiry({ domain: 'bezahlt.de', offer: { amount: 1000, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', plan }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error(`not accepted: ${outcome.status}`)
    expect(await store.keepInvoiceAddress(outcome.deal.id, ADDRESS)).toBe('done')
    return outcome.deal.id
  }
  /** Marks the deal paid and returns what it ran. */
  async function paid(id: number) {
    statements.length = 0
    recording = true
    const outcome = await markPaid(context, id, T0 + DAY)
    recording = false
    return { outcome, ...transactionsOf(statements) }
  }
  return { store, deal, paid }
}

describe('marking a deal paid', () => {
  test('reads the deal once, in the one transaction that mails the buyer and issues the invoice', async () => {
    const { store, deal, paid } = await setUp()
    const id = await deal(null)
    const { outcome, transactions, outside } = await paid(id)
    expect(outcome).toMatchObject({
      status: 'done',
      deal: { id, status: 'paid', paidAt: T0 + DAY },
      replyId: expect.any(Number),
      invoiceId: expect.any(Number),
    })
    expect({ transactions: transactions.length, dealReads: transactions.map(dealReads), outside: dealReads(outside) }).toEqual({
      transactions: 1,
      dealReads: [1],
      outside: 0,
    })
    // What the step returned is what it stored.
    expect(outcome.status === 'done' && outcome.deal).toEqual(await store.getDeal(id))
  })

  test('reads an instalment plan’s deal once too, every open rate received with it', async () => {
    const { store, deal, paid } = await setUp()
    const id = await deal({ rates: 2, transfer: 'at-once' })
    const { outcome, transactions, outside } = await paid(id)
    expect(outcome).toMatchObject({ status: 'done', deal: { status: 'paid' } })
    expect({ transactions: transactions.length, dealReads: transactions.map(dealReads), outside: dealReads(outside) }).toEqual({
      transactions: 1,
      dealReads: [1],
      outside: 0,
    })
    const stored = await store.getDeal(id)
    expect(stored!.plan!.rates.every((rate) => rate.paidAt === T0 + DAY && rate.paidBy === 'owner')).toBe(true)
    expect(outcome.status === 'done' && outcome.deal).toEqual(stored)
  })
})
