// A deal's deadlines on the store of the test project (SQLite, or a real PostgreSQL), with a clock the test sets:
// the buyer reminded halfway to the payment deadline, the owner told when it passes and reminded before the
// transfer deadline; each once, also when two processes run the job on one store at the same time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { databaseUrlFor } from '../../../tests/helpers/postgres.ts'
import { newInquiry } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { createScheduler } from '../scheduler/scheduler.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'
import { dealDeadlinesJob, sendDealReminders, transferCodeErasureJob } from './deadlines.ts'
import { newDealLink } from './link.ts'
import { dealKeyOf, sealLinkToken } from './seal.ts'
import { completeDeal, markPaid, recordTransfer, type DealStepContext } from './steps.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const DAY = 86_400_000
const log = pino({ level: 'silent' })

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Two handles on one store, as two processes (workers, or instances on PostgreSQL) have. */
async function setUp() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deal-deadlines-'))
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const storeConfig = { dataDir, databaseUrl: await databaseUrlFor(dataDir) }
  const stores = [await openStore(storeConfig), await openStore(storeConfig)] as [Store, Store]
  cleanups.push(() => Promise.all(stores.map((store) => store.close())))
  const config = { ...loadConfig({ DATA_DIR: dataDir }), mailTo: 'owner@example.org' }
  const contexts = stores.map((store): DealStepContext => ({ store, config, domains: domainsConfigOf({}) })) as [DealStepContext, DealStepContext]
  const store = stores[0]
  async function deal(domain: string, language: 'de' | 'en' = 'de') {
    const saved = await store.saveInquiry(newInquiry({ domain, language, email: `buyer@${domain}`, offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }), {
      queue: false,
    })
    if (saved.status !== 'created') throw new Error('not created')
    const link = newDealLink('a-secret-of-the-test-that-is-long-enough-0123456789')
    const accepted = await store.accept(saved.id, {
      body: 'Angenommen',
      to: `buyer@${domain}`,
      replyTo: 'owner@example.org',
      now: T0,
      amount: 900,
      deal: {
        linkHash: link.linkHash,
        linkSealed: sealLinkToken(dealKeyOf(config), link.linkHash, link.token),
        amount: 90_000,
        currency: 'EUR',
        paymentDueAt: T0 + 7 * DAY,
        transferDays: 5,
      },
    })
    return { dealId: (accepted as { dealId: number }).dealId, inquiryId: saved.id }
  }
  /** The deal's mails after the acceptance: kind, to whom, text. */
  async function mails(inquiryId: number) {
    const thread = (await store.inquiryThread(inquiryId))!
    const outbox = await store.listOutbox()
    return {
      kinds: thread.replies.filter((reply) => reply.kind !== 'accept').map((reply) => reply.kind),
      bodies: thread.replies.filter((reply) => reply.kind !== 'accept').map((reply) => reply.body),
      to: outbox.filter((row) => row.inquiryId === inquiryId && row.mailTo !== null).map((row) => row.mailTo),
    }
  }
  return { stores, contexts, deal, mails }
}

describe('the payment deadline', () => {
  test('the buyer is reminded once, halfway to the deadline, in their language; the owner is told once when it has passed', async () => {
    const { contexts, deal, mails } = await setUp()
    const [a] = contexts
    const { inquiryId } = await deal('reminder.de', 'en')
    expect(await sendDealReminders(a, T0 + 3.5 * DAY - 1)).toBe(0)
    expect(await sendDealReminders(a, T0 + 3.5 * DAY)).toBe(1)
    expect(await sendDealReminders(a, T0 + 4 * DAY)).toBe(0)
    let sent = await mails(inquiryId)
    expect(sent.kinds).toEqual(['deal-payment-reminder'])
    expect(sent.bodies[0]).toContain('a friendly reminder')
    expect(sent.bodies[0]).toContain('€900')
    expect(sent.bodies[0]).toContain('https://reminder.de/kauf/')
    expect(sent.bodies[0]).toContain('DL-2026-')
    expect(sent.to).toEqual(['buyer@reminder.de', 'buyer@reminder.de'])

    expect(await sendDealReminders(a, T0 + 7 * DAY - 1)).toBe(0)
    expect(await sendDealReminders(a, T0 + 7 * DAY)).toBe(1)
    expect(await sendDealReminders(a, T0 + 9 * DAY)).toBe(0)
    sent = await mails(inquiryId)
    expect(sent.kinds).toEqual(['deal-payment-reminder', 'deal-overdue'])
    // The owner's mail is German, says what to do, and names neither the buyer's page link nor any code.
    expect(sent.bodies[1]).toContain('Die Zahlungsfrist für reminder.de')
    expect(sent.bodies[1]).not.toContain('/kauf/')
    expect(sent.to).toEqual(['buyer@reminder.de', 'buyer@reminder.de', 'owner@example.org'])
  })

  test('a server down past the deadline tells the owner and sends the buyer no late reminder', async () => {
    const { contexts, deal, mails } = await setUp()
    const { inquiryId } = await deal('late.de')
    expect(await sendDealReminders(contexts[0], T0 + 8 * DAY)).toBe(1)
    expect((await mails(inquiryId)).kinds).toEqual(['deal-overdue'])
  })

  test('a paid or cancelled deal gets no payment reminder', async () => {
    const { contexts, deal, mails } = await setUp()
    const { dealId, inquiryId } = await deal('paid.de')
    await markPaid(contexts[0], dealId, T0 + DAY)
    await sendDealReminders(contexts[0], T0 + 3.5 * DAY)
    await sendDealReminders(contexts[0], T0 + 3.5 * DAY)
    expect((await mails(inquiryId)).kinds).toEqual(['deal-paid'])
  })
})

describe('the transfer deadline', () => {
  test('the owner is reminded once, a day before the transfer deadline', async () => {
    const { contexts, deal, mails } = await setUp()
    const { dealId, inquiryId } = await deal('transfer.de')
    await markPaid(contexts[0], dealId, T0 + DAY)
    // Paid on day 1: the transfer is due on day 6, the reminder on day 5.
    expect(await sendDealReminders(contexts[0], T0 + 5 * DAY - 1)).toBe(0)
    expect(await sendDealReminders(contexts[0], T0 + 5 * DAY)).toBe(1)
    expect(await sendDealReminders(contexts[0], T0 + 8 * DAY)).toBe(0)
    const sent = await mails(inquiryId)
    expect(sent.kinds).toEqual(['deal-paid', 'deal-transfer-reminder'])
    expect(sent.bodies[1]).toContain('Die Frist für die Übertragung von transfer.de')
    expect(sent.to.at(-1)).toBe('owner@example.org')
  })
})

describe('once across processes', () => {
  test('two processes running the job at the same moment queue each reminder once', async () => {
    const { contexts, deal, mails } = await setUp()
    const deals = [await deal('one.de'), await deal('two.de'), await deal('three.de')]
    const counts = await Promise.all([sendDealReminders(contexts[0], T0 + 4 * DAY), sendDealReminders(contexts[1], T0 + 4 * DAY)])
    expect(counts[0] + counts[1]).toBe(3)
    for (const { inquiryId } of deals) expect((await mails(inquiryId)).kinds).toEqual(['deal-payment-reminder'])
  })

  test('on the scheduler with a set clock: two processes, one run an hour, each reminder once', async () => {
    const { stores, contexts, deal, mails } = await setUp()
    const { inquiryId } = await deal('scheduled.de')
    let now = T0 + 3.5 * DAY + 60_000
    let kicks = 0
    const start = () =>
      stores.map((store, i) => {
        const scheduler = createScheduler({ store, log, owner: `p${i}`, now: () => now })
        scheduler.add(dealDeadlinesJob({ ...contexts[i]!, log, kick: () => kicks++ }))
        scheduler.start()
        return scheduler
      })
    let schedulers = start()
    await expect.poll(() => kicks).toBe(1)
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))
    expect((await mails(inquiryId)).kinds).toEqual(['deal-payment-reminder'])
    // Restarted an hour later (a new period): nothing is due twice.
    now += 3_600_000
    schedulers = start()
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))
    now = T0 + 7 * DAY + 60_000
    schedulers = start()
    await expect.poll(() => kicks).toBe(2)
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))
    expect((await mails(inquiryId)).kinds).toEqual(['deal-payment-reminder', 'deal-overdue'])
  })
})

describe('the transfer code after the sale', () => {
  test('is erased 30 days after the deal completed, not before, and a deal still open keeps its code', async () => {
    const { contexts, deal } = await setUp()
    const [a] = contexts
    const done = await deal('done.de')
    const open = await deal('open.de')
    for (const { dealId } of [done, open]) {
      await markPaid(a, dealId, T0 + DAY)
      await recordTransfer(a, dealId, { code: 'AUTH-1' }, T0 + 2 * DAY)
    }
    await completeDeal(a, done.dealId, 'buyer', T0 + 3 * DAY)
    const job = transferCodeErasureJob({ store: a.store, log })
    const signal = new AbortController().signal
    await job.run({ now: T0 + 33 * DAY - 1, dueAt: 0, period: 'a', signal })
    expect(await a.store.dealTransferCode(done.dealId)).not.toBeNull()
    await job.run({ now: T0 + 33 * DAY, dueAt: 0, period: 'b', signal })
    expect(await a.store.dealTransferCode(done.dealId)).toBeNull()
    expect((await a.store.getDeal(done.dealId))!).toMatchObject({ status: 'completed', hasTransferCode: false })
    expect(await a.store.dealTransferCode(open.dealId)).not.toBeNull()
  })
})
