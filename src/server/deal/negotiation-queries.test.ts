// The negotiation's acceptance (actions.ts takeDealStep) and a deal's deadline reminder (deadlines.ts) as the store
// of the test project (SQLite, or a real PostgreSQL) runs them, statement by statement: each is one unit of work that
// reads its row once, and reads nothing of it outside (decision 060).
import { describe, expect, test } from 'vitest'
import { readsOf, transactionsOf } from '../../../tests/helpers/queries.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { takeDealStep } from './actions.ts'
import { sendDealReminders } from './deadlines.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const DAY = 86_400_000

async function setUp() {
  const storeConfig = await testStoreConfig('negotiation-queries-')
  let recording = false
  const statements: string[] = []
  const store = await openTestStore(storeConfig, { onQuery: (sql) => void (recording && statements.push(sql.trim())) })
  const config = loadConfig({ DATA_DIR: storeConfig.dataDir, MAIL_TO: 'owner@example.org' })
  const context = { store, config, domains: domainsConfigOf({}), secret: 's'.repeat(40) }
  const saved = await store.saveInquiry(newInquiry({ domain: 'angenommen.de', offer: { amount: 1000, currency: 'EUR' }, createdAt: T0 }), { queue: false })
  if (saved.status !== 'created') throw new Error('not created')
  /** Runs `run` and returns its outcome with the statements it ran. */
  async function recorded<T>(run: () => Promise<T>) {
    statements.length = 0
    recording = true
    const outcome = await run()
    recording = false
    return { outcome, ...transactionsOf(statements) }
  }
  return { store, context, inquiryId: saved.id, recorded }
}

describe('the negotiation in units of work', () => {
  test('an acceptance reads its inquiry once, in the one transaction that makes the deal and queues the mail', async () => {
    const { store, context, inquiryId, recorded } = await setUp()
    const { outcome, transactions, outside } = await recorded(() => takeDealStep(context, inquiryId, { kind: 'accept' }, T0))
    expect(outcome).toMatchObject({ status: 'queued', inquiryStatus: 'accepted', deal: { id: expect.any(Number) } })
    expect({ transactions: transactions.length, inquiryReads: transactions.map((t) => readsOf('inquiries', t)), outside }).toEqual({
      transactions: 1,
      inquiryReads: [1],
      outside: [],
    })
    expect(await store.getInquiry(inquiryId)).toMatchObject({ id: inquiryId })
  })

  test('a deadline reminder reads its deal once, in the transaction that marks it and queues its mail', async () => {
    const { context, inquiryId, recorded } = await setUp()
    const accepted = await takeDealStep(context, inquiryId, { kind: 'accept' }, T0)
    expect(accepted).toMatchObject({ status: 'queued', deal: { id: expect.any(Number) } })
    const { outcome, transactions, outside } = await recorded(() => sendDealReminders(context, T0 + 3.5 * DAY))
    expect(outcome).toBe(1)
    // Outside: only the list of the reminders due.
    expect({ transactions: transactions.length, dealReads: transactions.map((t) => readsOf('deals', t)), outside: readsOf('deals', outside) }).toEqual({
      transactions: 1,
      dealReads: [1],
      outside: 1,
    })
  })
})
