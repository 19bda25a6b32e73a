// The rules of decision 037 on the store of the test project (SQLite, or a real PostgreSQL), with a fixed clock:
// "bereits verkauft" to the other inquirers, queued with the completion; a deal's deadlines moved; one checkout
// confirmed per name at a time; nothing accepted for a sold name.
import pino from 'pino'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../config.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { NewInquiry } from '../store/types.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { dealAutoCompleteJob } from './auto-complete.ts'
import { changeDeadlines, completeDeal, markPaid, recordTransfer, type DealStepContext } from './steps.ts'

const T0 = Date.UTC(2026, 10, 1, 12)
const DAY = 86_400_000
const signal = new AbortController().signal

async function setUp() {
  const storeConfig = await testStoreConfig('deal-rules-')
  const store = await openTestStore(storeConfig)
  const config = loadConfig({ DATA_DIR: storeConfig.dataDir, MAIL_TO: 'owner@example.org' })
  const context: DealStepContext = { store, config, domains: domainsConfigOf({}) }
  let links = 0

  async function inquiry(overrides: Partial<NewInquiry> = {}) {
    const saved = await store.saveInquiry(newInquiry({ domain: 'name.de', createdAt: T0, ...overrides }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    return saved.id
  }
  const accept = (id: number, to = 'kaeufer@example.net') =>
    store.accept(id, {
      body: 'Angenommen',
      to,
      replyTo: 'owner@example.org',
      now: T0,
      amount: 900,
      deal: { linkHash: `hash-${++links}`, linkSealed: 'v1.x', amount: 90_000, currency: 'EUR', paymentDueAt: T0 + 7 * DAY, transferDays: 5 },
    })
  /** A deal of `domain` for the buyer `email`, accepted at T0. */
  async function deal(domain = 'name.de', email = 'kaeufer@example.net') {
    const id = await inquiry({ domain, email, offer: { amount: 900, currency: 'EUR' } })
    const accepted = await accept(id, email)
    if (accepted.status !== 'queued' || accepted.dealId === undefined) throw new Error(`not accepted: ${accepted.status}`)
    return accepted.dealId
  }
  /** The kinds and bodies of an inquiry's replies. */
  const replies = async (id: number) =>
    (await store.inquiryThread(id))!.replies.map((reply) => ({ kind: reply.kind, body: reply.body, queued: reply.mail !== null }))
  return { store, context, inquiry, accept, deal, replies }
}

describe('"bereits verkauft" when a deal completes', () => {
  test('reaches every other open inquiry of the name once per address, in its language, in the completion’s step', async () => {
    const { store, context, inquiry, deal, replies } = await setUp()
    const dealId = await deal()
    const older = await inquiry({ email: 'anna@example.net', createdAt: T0 - DAY })
    const german = await inquiry({ email: 'Anna@Example.net' })
    const english = await inquiry({ email: 'john@example.com', language: 'en' })
    const buyerAgain = await inquiry({ email: 'KAEUFER@example.net' })
    const declined = await inquiry({ email: 'nein@example.net' })
    await store.decline(declined, { body: 'Nein', to: 'nein@example.net', replyTo: 'owner@example.org', now: T0 })
    const spam = await inquiry({ email: 'bot@example.net', spamReason: 'honeypot' })
    const archived = await inquiry({ email: 'alt@example.net' })
    await store.setArchived(archived, true)
    const elsewhere = await inquiry({ domain: 'andere.de', email: 'andere@example.net' })

    await markPaid(context, dealId, T0 + DAY)
    const done = await completeDeal(context, dealId, 'owner', T0 + 2 * DAY, true)
    expect(done).toMatchObject({ status: 'done', soldNotices: 2 })

    expect(await replies(german)).toEqual([
      { kind: 'sold-notice', body: expect.stringContaining('Die Domain ist inzwischen verkauft') as string, queued: true },
    ])
    expect(await replies(english)).toEqual([
      { kind: 'sold-notice', body: expect.stringContaining('The domain has been sold in the meantime') as string, queued: true },
    ])
    // The same address once (its newest inquiry), never the buyer, never a declined, spam, archived or other name's one.
    for (const id of [older, buyerAgain, declined, spam, archived, elsewhere])
      expect((await replies(id)).filter((reply) => reply.kind === 'sold-notice')).toEqual([])
    // Told is answered, as by any reply.
    expect((await store.inquiryThread(german))!.inquiry.status).toBe('answered')

    // A completion refused (taken already) tells no one again.
    expect(await completeDeal(context, dealId, 'owner', T0 + 3 * DAY, true)).toMatchObject({ status: 'wrong-state' })
    expect((await replies(german)).length).toBe(1)
  })

  test('the owner’s own template is used, with the name in place of {domain}', async () => {
    const { store, context, inquiry, deal, replies } = await setUp()
    await store.setDealTemplate('sold', 'Leider ist {domain} weg.')
    const dealId = await deal('xn--bcher-kva.de')
    const other = await inquiry({ domain: 'xn--bcher-kva.de', email: 'anna@example.net' })
    await markPaid(context, dealId, T0 + DAY)
    await completeDeal(context, dealId, 'owner', T0 + 2 * DAY, true)
    expect((await replies(other))[0]!.body).toBe('Leider ist bücher.de weg.')
  })

  test('without the owner’s choice nobody else is mailed', async () => {
    const { context, inquiry, deal, replies } = await setUp()
    const dealId = await deal()
    const other = await inquiry({ email: 'anna@example.net' })
    await markPaid(context, dealId, T0 + DAY)
    expect(await completeDeal(context, dealId, 'owner', T0 + 2 * DAY, false)).toMatchObject({ status: 'done' })
    expect(await replies(other)).toEqual([])
  })

  test.each([
    [true, 1],
    [false, 0],
  ])('completing by itself (or by the buyer) follows the choice made with "Übertragen" (%s)', async (choice, told) => {
    const { store, context, inquiry, deal, replies } = await setUp()
    const dealId = await deal()
    const other = await inquiry({ email: 'anna@example.net' })
    await markPaid(context, dealId, T0)
    await recordTransfer(context, dealId, { code: 'AUTH-1', notifyOthers: choice }, T0)
    expect((await store.getDeal(dealId))!.notifyOthers).toBe(choice)
    const job = dealAutoCompleteJob({ ...context, log: pino({ level: 'silent' }), onCompleted: () => {}, kick: () => {} })
    await job.run({ now: T0 + 14 * DAY, dueAt: 0, period: 'a', signal })
    expect((await store.getDeal(dealId))!.status).toBe('completed')
    expect((await replies(other)).filter((reply) => reply.kind === 'sold-notice')).toHaveLength(told)
  })
})

describe('a deal’s deadlines moved', () => {
  test('the payment deadline moves, and its halfway reminder is planned again from the new date', async () => {
    const { store, context, deal } = await setUp()
    const dealId = await deal()
    // Halfway (3.5 days) the reminder is due and sent.
    expect(await store.dealRemindersDue(T0 + 4 * DAY)).toEqual([{ id: dealId, reminder: 'payment-reminder' }])
    expect(
      await store.queueDealReminder(
        dealId,
        'payment-reminder',
        { kind: 'deal-payment-reminder', body: 'x', to: 'k@example.net', replyTo: 'o@example.org' },
        T0 + 4 * DAY,
      ),
    ).toBe(true)
    expect(await store.dealRemindersDue(T0 + 5 * DAY)).toEqual([])

    const moved = await changeDeadlines(context, dealId, { paymentDueAt: T0 + 21 * DAY }, T0 + 5 * DAY)
    expect(moved).toMatchObject({ status: 'done', deal: { paymentDueAt: T0 + 21 * DAY } })
    // The new halfway point is day 10.5; nothing before it, and the old deadline passes without an overdue notice.
    expect(await store.dealRemindersDue(T0 + 8 * DAY)).toEqual([])
    expect(await store.dealRemindersDue(T0 + 11 * DAY)).toEqual([{ id: dealId, reminder: 'payment-reminder' }])
    expect(await store.dealRemindersDue(T0 + 21 * DAY)).toEqual([{ id: dealId, reminder: 'payment-overdue' }])
  })

  test('days from now set the deadline the deal waits for: the payment’s, then the transfer’s once paid', async () => {
    const { store, context, deal } = await setUp()
    const dealId = await deal()
    expect(await changeDeadlines(context, dealId, { days: 10 }, T0 + DAY)).toMatchObject({ status: 'done', deal: { paymentDueAt: T0 + 11 * DAY } })
    await markPaid(context, dealId, T0 + 2 * DAY)
    expect(
      await store.queueDealReminder(
        dealId,
        'transfer-reminder',
        { kind: 'deal-transfer-reminder', body: 'x', to: 'o@example.org', replyTo: 'o@example.org' },
        T0 + 6 * DAY,
      ),
    ).toBe(true)
    const moved = await changeDeadlines(context, dealId, { days: 3 }, T0 + 6 * DAY)
    expect(moved).toMatchObject({ status: 'done', deal: { status: 'paid', transferDueAt: T0 + 9 * DAY, paymentDueAt: T0 + 11 * DAY } })
    expect(await store.dealRemindersDue(T0 + 8 * DAY)).toEqual([{ id: dealId, reminder: 'transfer-reminder' }])
  })

  test('a date in the past, too far ahead, or for a step the deal is not at is refused and changes nothing', async () => {
    const { store, context, deal } = await setUp()
    const dealId = await deal()
    expect(await changeDeadlines(context, dealId, { paymentDueAt: T0 - 1 }, T0)).toEqual({ status: 'past-date' })
    expect(await changeDeadlines(context, dealId, { paymentDueAt: T0 }, T0)).toEqual({ status: 'past-date' })
    expect(await changeDeadlines(context, dealId, { paymentDueAt: T0 + 366 * DAY }, T0)).toEqual({ status: 'too-far' })
    expect(await changeDeadlines(context, dealId, { transferDueAt: T0 + DAY }, T0)).toEqual({ status: 'wrong-state', current: 'awaiting_payment' })
    expect(await changeDeadlines(context, 999_999, { days: 3 }, T0)).toEqual({ status: 'not-found' })
    expect((await store.getDeal(dealId))!.paymentDueAt).toBe(T0 + 7 * DAY)
  })
})

describe('one sale of a name', () => {
  test('a checkout is not confirmed while another deal for its name is open; once that is cancelled it is', async () => {
    const { store, inquiry, accept, deal } = await setUp()
    const first = await deal()
    const checkout = await inquiry({
      email: 'zweiter@example.net',
      offer: { amount: 900, currency: 'EUR' },
      checkout: { company: null, street: 'Weg 1', postcode: '10115', city: 'Berlin', country: 'DE', vatId: null },
    })
    expect(await accept(checkout, 'zweiter@example.net')).toEqual({ status: 'domain-deal-open', dealId: first })
    expect((await store.inquiryThread(checkout))!.replies).toEqual([])
    await store.changeDeal(first, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'owner' })
    expect(await accept(checkout, 'zweiter@example.net')).toMatchObject({ status: 'queued' })
  })

  test('an offer is not accepted either while another deal for its name is open; once that is cancelled it is', async () => {
    const { store, inquiry, accept, deal } = await setUp()
    const first = await deal()
    const offer = await inquiry({ email: 'zweiter@example.net', offer: { amount: 1200, currency: 'EUR' } })
    expect(await accept(offer, 'zweiter@example.net')).toEqual({ status: 'domain-deal-open', dealId: first })
    expect((await store.inquiryThread(offer))!.replies).toEqual([])
    await store.changeDeal(first, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'owner' })
    expect(await accept(offer, 'zweiter@example.net')).toMatchObject({ status: 'queued' })
  })

  test('a sold name accepts nothing more, checkout or offer', async () => {
    const { store, context, inquiry, accept, deal } = await setUp()
    const dealId = await deal()
    await markPaid(context, dealId, T0)
    await completeDeal(context, dealId, 'owner', T0)
    const offer = await inquiry({ email: 'spaet@example.net', offer: { amount: 2000, currency: 'EUR' } })
    expect(await accept(offer, 'spaet@example.net')).toEqual({ status: 'sold', dealId })
    const checkout = await inquiry({
      email: 'kasse@example.net',
      offer: { amount: 900, currency: 'EUR' },
      checkout: { company: null, street: 'Weg 1', postcode: '10115', city: 'Berlin', country: 'DE', vatId: null },
    })
    expect(await accept(checkout, 'kasse@example.net')).toEqual({ status: 'sold', dealId })
    expect(await store.dealOfDomain('name.de')).toEqual({ id: dealId, status: 'completed' })
  })
})
