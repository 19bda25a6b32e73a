// The job that completes a transferred deal by itself, on the store of the test project (SQLite, or a real
// PostgreSQL), with a fixed clock: only deals whose time has come, each once, each with its mail to the buyer.
import fs from 'node:fs'
import pino from 'pino'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../config.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { dealAutoCompleteJob } from './auto-complete.ts'
import { markPaid, recordTransfer, type DealStepContext } from './steps.ts'

const T0 = Date.UTC(2026, 10, 1, 12)
const DAY = 86_400_000

async function setUp() {
  const storeConfig = await testStoreConfig('auto-complete-')
  const store = await openTestStore(storeConfig)
  const config = loadConfig({ DATA_DIR: storeConfig.dataDir })
  const context: DealStepContext = { store, config, domains: domainsConfigOf({}) }
  let links = 0
  async function transferredDeal(domain: string, at: number) {
    const saved = await store.saveInquiry(newInquiry({ domain, offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const accepted = await store.accept(saved.id, {
      body: 'Angenommen',
      to: 'erika@example.de',
      replyTo: 'owner@example.org',
      now: T0,
      amount: 900,
      deal: { linkHash: `hash-${domain}-${++links}`, linkSealed: 'v1.x', amount: 90_000, currency: 'EUR', paymentDueAt: T0 + 7 * DAY, transferDays: 5 },
    })
    const dealId = (accepted as { dealId: number }).dealId
    await markPaid(context, dealId, at)
    await recordTransfer(context, dealId, { code: 'AUTH-1' }, at)
    return dealId
  }
  return { store, context, transferredDeal, dataDir: storeConfig.dataDir }
}

describe('completing by itself', () => {
  test('completes the transferred deals whose 14 days have passed, mails each buyer once, and says which names are sold', async () => {
    const { store, context, transferredDeal, dataDir } = await setUp()
    const early = await transferredDeal('early.de', T0)
    const late = await transferredDeal('late.de', T0 + 3 * DAY)
    const completed: string[] = []
    const job = dealAutoCompleteJob({ ...context, log: pino({ level: 'silent' }), onCompleted: (domain) => completed.push(domain), kick: () => {} })
    const signal = new AbortController().signal
    await job.run({ now: T0 + 14 * DAY - 1, dueAt: 0, period: 'a', signal })
    expect(completed).toEqual([])
    await job.run({ now: T0 + 14 * DAY, dueAt: 0, period: 'b', signal })
    expect(completed).toEqual(['early.de'])
    expect((await store.getDeal(early))!).toMatchObject({ status: 'completed', completedAt: T0 + 14 * DAY })
    expect((await store.getDeal(late))!.status).toBe('transferred')
    // Run again (another process, a retry): nothing twice.
    await job.run({ now: T0 + 15 * DAY, dueAt: 0, period: 'c', signal })
    expect(completed).toEqual(['early.de'])
    expect(await store.soldDomains()).toEqual(['early.de'])
    const thread = (await store.inquiryThread((await store.getDeal(early))!.inquiryId))!
    expect(thread.replies.map((reply) => reply.kind)).toEqual(['accept', 'deal-paid', 'deal-transferred', 'deal-completed'])
    expect(fs.existsSync(`${dataDir}/deal-key`)).toBe(true)
  })
})
