// Instalment plans on the store of the test project (SQLite, or a real PostgreSQL): the acceptance makes the rates,
// exact to the cent, each with its reference; a rate is received once (by the owner or a bank statement), the last
// one is the deal's "Zahlung erhalten"; the buyer is reminded 3 days before a rate's date, and 7 days after it the
// owner is told (mail and deal.overdue) and the buyer reminded, each once; the owner decides to wait or cancel.
import { describe, expect, test } from 'vitest'
import { camtStatement } from '../../../tests/helpers/camt.ts'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { dealNoticeOf, payloadOf } from '../notify/message.ts'
import { applyStatement, previewStatement } from '../payments/statement.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { takeDealStep, type PlanRequest } from './actions.ts'
import { markRatePaid, sendRateReminders, waitForRate } from './rates.ts'
import { cancelDeal, changeDeadlines, markPaid, recordTransfer } from './steps.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const DAY = 86_400_000

async function setUp() {
  const storeConfig = await testStoreConfig('deal-rates-')
  const store = await openTestStore(storeConfig)
  const config = loadConfig({
    DATA_DIR: storeConfig.dataDir,
    MAIL_TO: 'owner@example.org',
    NOTIFY_URLS: 'https://hooks.example/deals',
    NOTIFY_SECRET: 'x'.repeat(32),
  })
  const context = { store, config, domains: domainsConfigOf({}) }
  let n = 0
  async function deal(plan: PlanRequest | undefined, amount = 1000, language: 'de' | 'en' = 'de') {
    const domain = `rates-${++n}.de`
    const saved = await store.saveInquiry(newInquiry({ domain, language, email: `buyer@${domain}`, offer: { amount, currency: 'EUR' }, createdAt: T0 }), {
      queue: false,
    })
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', ...(plan && { plan }) }, T0)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error(`not accepted: ${outcome.status}`)
    return { id: outcome.deal.id, inquiryId: saved.id, body: outcome.body }
  }
  const replies = async (inquiryId: number) => (await store.inquiryThread(inquiryId))!.replies.filter((reply) => reply.kind !== 'accept')
  const overdueHooks = async (dealId: number) =>
    (
      await queryStore<{ deal_rate: number }>(
        storeConfig.dataDir,
        `SELECT deal_rate FROM outbox WHERE deal_id = ${dealId} AND deal_event = 'overdue' ORDER BY deal_rate`,
      )
    ).map((row) => Number(row.deal_rate))
  return { store, context, deal, replies, overdueHooks }
}

describe('an instalment plan', () => {
  test('is made with the acceptance: rates exact to the cent, monthly, each with its own reference', async () => {
    const { store, deal } = await setUp()
    const { id, body } = await deal({ rates: 3 })
    const stored = (await store.getDeal(id))!
    expect(stored.plan?.transfer).toBe('after-last')
    expect(stored.plan?.rates.map((rate) => [rate.number, rate.amount, rate.reference])).toEqual([
      [1, 33_334, `${stored.reference}-R01`],
      [2, 33_333, `${stored.reference}-R02`],
      [3, 33_333, `${stored.reference}-R03`],
    ])
    // The first rate when a payment at once would be due (7 days, to the day's end), then monthly; the deal is due with the last.
    expect(new Date(stored.plan!.rates[0]!.dueAt).toISOString()).toBe('2026-11-09T22:59:00.000Z')
    expect(new Date(stored.plan!.rates[2]!.dueAt).toISOString()).toBe('2027-01-09T22:59:00.000Z')
    expect(stored.paymentDueAt).toBe(stored.plan!.rates[2]!.dueAt)
    expect(body).toMatch(/Ratenzahlung: 3 Monatsraten zu 333,34\s€ \(die letzten einen Cent weniger\)\. Die Domain wird nach der letzten Rate übertragen\./)
  })

  test('with a down payment has it first, and refuses a plan that cannot split the amount', async () => {
    const { store, context, deal } = await setUp()
    const { id } = await deal({ rates: 2, downPayment: '200', transfer: 'at-once' })
    expect((await store.getDeal(id))!.plan).toMatchObject({
      transfer: 'at-once',
      rates: [
        { number: 0, amount: 20_000 },
        { number: 1, amount: 40_000 },
        { number: 2, amount: 40_000 },
      ],
    })
    const saved = await store.saveInquiry(newInquiry({ domain: 'refused.de', offer: { amount: 100, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const take = (plan: PlanRequest) => takeDealStep({ ...context, secret: 's'.repeat(40) }, saved.id, { kind: 'accept', plan }, T0)
    expect(await take({ rates: 61 })).toEqual({ status: 'bad-plan', problem: 'rates' })
    expect(await take({ rates: 1 })).toEqual({ status: 'bad-plan', problem: 'rates' })
    expect(await take({ rates: 12, downPayment: '100' })).toEqual({ status: 'bad-plan', problem: 'down-payment' })
    expect(await take({ rates: 12, downPayment: 'viel' })).toEqual({ status: 'bad-plan', problem: 'down-payment-amount' })
    expect(await store.openDealOf(saved.id)).toBeNull()
  })

  test('offered with a counter-offer is the plan of the acceptance that follows, unless the owner says otherwise', async () => {
    const { store, context } = await setUp()
    const saved = await store.saveInquiry(newInquiry({ domain: 'counter.de', offer: { amount: 800, currency: 'EUR' }, createdAt: T0 }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const deal = { ...context, secret: 's'.repeat(40) }
    const countered = await takeDealStep(deal, saved.id, { kind: 'counter', amount: '1200', plan: { rates: 12 } }, T0)
    expect(countered).toMatchObject({ status: 'queued' })
    expect((countered as { body: string }).body).toMatch(/Ratenzahlung: 12 Monatsraten zu 100\s€\./)
    const accepted = await takeDealStep(deal, saved.id, { kind: 'accept' }, T0 + DAY)
    const stored = (await store.getDeal((accepted as { deal: { id: number } }).deal.id))!
    expect(stored.amount).toBe(120_000)
    expect(stored.plan?.rates).toHaveLength(12)
    // Accepted again while nothing is paid, at once this time: the plan is gone.
    await takeDealStep(deal, saved.id, { kind: 'accept', plan: null }, T0 + 2 * DAY)
    expect((await store.getDeal(stored.id))!.plan).toBeNull()
  })

  test('a rate is received once; the last one is the deal’s payment, with its own mail', async () => {
    const { store, context, deal, replies } = await setUp()
    const { id, inquiryId } = await deal({ rates: 3 }, 1000, 'en')
    expect(await markRatePaid(context, id, 1, 'owner', T0 + DAY)).toMatchObject({ status: 'done', allPaid: false })
    expect(await markRatePaid(context, id, 1, 'owner', T0 + DAY)).toEqual({ status: 'already-paid' })
    expect(await markRatePaid(context, id, 9, 'owner', T0 + DAY)).toEqual({ status: 'not-found' })
    let mails = await replies(inquiryId)
    expect(mails.map((reply) => reply.kind)).toEqual(['deal-paid'])
    expect(mails[0]!.body).toContain('your payment of €333.34 (Rate 1 of 3)')
    expect(mails[0]!.body).toContain('Next due: Rate 2 of 3, €333.33')
    // The buyer who has paid a rate cancels no more; the owner still can.
    expect(await cancelDeal(context, id, 'buyer', '', T0 + DAY)).toMatchObject({ status: 'wrong-state' })
    await markRatePaid(context, id, 3, 'owner', T0 + 2 * DAY)
    const last = await markRatePaid(context, id, 2, 'owner', T0 + 3 * DAY)
    expect(last).toMatchObject({ status: 'done', allPaid: true, deal: { status: 'paid', paidAt: T0 + 3 * DAY } })
    mails = await replies(inquiryId)
    // Two rate mails, then the deal's "payment received" (in place of the last rate's).
    expect(mails.map((reply) => reply.kind)).toEqual(['deal-paid', 'deal-paid', 'deal-paid'])
    expect(mails[2]!.body).toContain('your payment of €1,000 for')
    expect((await store.getDeal(id))!.plan!.rates.every((rate) => rate.paidBy === 'owner')).toBe(true)
  })

  test('"Zahlung erhalten" on the whole plan receives every rate still open', async () => {
    const { store, context, deal } = await setUp()
    const { id } = await deal({ rates: 4 })
    await markRatePaid(context, id, 1, 'owner', T0 + DAY)
    expect(await markPaid(context, id, T0 + 2 * DAY)).toMatchObject({ status: 'done', deal: { status: 'paid' } })
    expect((await store.getDeal(id))!.plan!.rates.map((rate) => rate.paidAt)).toEqual([T0 + DAY, T0 + 2 * DAY, T0 + 2 * DAY, T0 + 2 * DAY])
  })

  test('has no payment deadline of its own to move: its rates are due on their dates', async () => {
    const { context, deal } = await setUp()
    const { id } = await deal({ rates: 2 })
    expect(await changeDeadlines(context, id, { paymentDueAt: T0 + 30 * DAY }, T0)).toMatchObject({ status: 'wrong-state' })
    expect(await changeDeadlines(context, id, { days: 30 }, T0)).toMatchObject({ status: 'wrong-state' })
  })

  test('moves the name at once only when the owner chose so', async () => {
    const { context, deal } = await setUp()
    const later = await deal({ rates: 3 })
    expect(await recordTransfer(context, later.id, { note: 'Push' }, T0 + DAY)).toMatchObject({ status: 'wrong-state', current: 'awaiting_payment' })
    const atOnce = await deal({ rates: 3, transfer: 'at-once' })
    expect(await recordTransfer(context, atOnce.id, { note: 'Push' }, T0 + DAY)).toMatchObject({ status: 'done', deal: { status: 'transferred' } })
    // Its rates are still received one by one, and the last one leaves the deal where it is.
    for (const number of [1, 2, 3]) await markRatePaid(context, atOnce.id, number, 'owner', T0 + 2 * DAY)
    expect((await context.store.getDeal(atOnce.id))!.status).toBe('transferred')
  })

  test('reminds the buyer 3 days before a rate, and 7 days after it tells the owner and reminds the buyer, each once', async () => {
    const { store, context, deal, replies, overdueHooks } = await setUp()
    const { id, inquiryId } = await deal({ rates: 2 })
    const [first, second] = (await store.getDeal(id))!.plan!.rates
    expect(await sendRateReminders(context, first!.dueAt - 3 * DAY - 1)).toBe(0)
    expect(await sendRateReminders(context, first!.dueAt - 3 * DAY)).toBe(1)
    expect(await sendRateReminders(context, first!.dueAt - DAY)).toBe(0)
    expect((await replies(inquiryId)).map((reply) => [reply.kind, reply.body.includes(first!.reference)])).toEqual([['deal-payment-reminder', true]])
    expect(await sendRateReminders(context, first!.dueAt + 7 * DAY - 1)).toBe(0)
    expect(await sendRateReminders(context, first!.dueAt + 7 * DAY)).toBe(1)
    expect(await sendRateReminders(context, first!.dueAt + 8 * DAY)).toBe(0)
    const mails = await replies(inquiryId)
    expect(mails.map((reply) => reply.kind)).toEqual(['deal-payment-reminder', 'deal-overdue', 'deal-payment-reminder'])
    expect(mails[1]!.body).toContain('Rate 1 von 2')
    expect(mails[1]!.body).toContain('Sie entscheiden')
    const outbox = (await store.listOutbox()).filter((row) => row.inquiryId === inquiryId && row.mailTo !== null).map((row) => row.mailTo)
    // The acceptance's mail, the reminder, then the owner's notice and the buyer's reminder.
    expect(outbox).toEqual(['buyer@rates-1.de', 'buyer@rates-1.de', 'owner@example.org', 'buyer@rates-1.de'])
    expect(await overdueHooks(id)).toEqual([1])
    // The webhook names the rate: claimed from the outbox with its number, its payload with its reference and amount.
    const hook = (await store.claimDueMail(Date.now() + DAY, 50, 'test', 60_000)).find((item) => item.deal?.event === 'overdue')!
    expect(hook.deal).toEqual({ id, event: 'overdue', rate: 1 })
    const payload = payloadOf({
      deliveryId: String(hook.id),
      inquiry: hook.inquiry,
      link: null,
      personal: false,
      deal: dealNoticeOf((await store.getDeal(id))!, 'overdue', T0, 1),
    })
    expect(payload).toMatchObject({
      event: 'deal.overdue',
      rate: { number: 1, reference: first!.reference, amount: { minor: 50_000, currency: 'EUR' }, dueAt: new Date(first!.dueAt).toISOString() },
    })
    // The owner waits; the next rate has its own reminder and its own deal.overdue.
    expect(await waitForRate(context, id, 1, first!.dueAt + 8 * DAY)).toMatchObject({
      status: 'done',
      deal: { plan: { rates: [{ waitedAt: first!.dueAt + 8 * DAY }, { waitedAt: null }] } },
    })
    expect(await sendRateReminders(context, second!.dueAt + 7 * DAY)).toBe(1)
    expect(await overdueHooks(id)).toEqual([1, 2])
    // A paid rate and a cancelled deal are not reminded of.
    await markRatePaid(context, id, 2, 'owner', second!.dueAt + 7 * DAY)
    await cancelDeal(context, id, 'owner', 'Keine Zahlung', second!.dueAt + 9 * DAY)
    expect(await sendRateReminders(context, second!.dueAt + 60 * DAY)).toBe(0)
  })

  test('a bank statement marks the rate its reference and amount name, once; another deal’s reference marks only that deal', async () => {
    const { store, context, deal } = await setUp()
    const mine = await deal({ rates: 3 })
    const other = await deal({ rates: 3 })
    const [myRef, otherRef] = [(await store.getDeal(mine.id))!.reference, (await store.getDeal(other.id))!.reference]
    const file = camtStatement([
      { bankRef: 'B-1', amount: '333.34', remittance: `Rate 1 ${myRef}-R01` },
      { bankRef: 'B-2', amount: '100.00', remittance: `${otherRef} R02 Teilzahlung` },
      { bankRef: 'B-3', amount: '333.33', remittance: `Kaufpreis ${myRef}` },
    ])
    const preview = await previewStatement(store, file)
    expect(preview.counts).toMatchObject({ matched: 1, partial: 1, unmatched: 1 })
    expect(preview.deals.map((target) => [target.reference, target.rate, target.marksPaid]).sort()).toEqual([
      [`${myRef}-R01`, 1, true],
      [`${otherRef}-R02`, 2, false],
    ])
    const applied = await applyStatement(context, file, T0 + DAY)
    expect(applied.paid).toEqual([{ dealId: mine.id, reference: `${myRef}-R01`, rate: 1 }])
    const rates = (await store.getDeal(mine.id))!.plan!.rates
    expect(rates.map((rate) => rate.paidBy)).toEqual(['bank', null, null])
    expect((await store.getDeal(other.id))!.plan!.rates.every((rate) => rate.paidAt === null)).toBe(true)
    // The same file again changes nothing.
    const again = await applyStatement(context, file, T0 + 2 * DAY)
    expect(again).toMatchObject({ recorded: 0, paid: [] })
    expect((await store.getDeal(mine.id))!.plan!.rates[0]!.paidAt).toBe(T0 + DAY)
    // The rest of the other deal's rate 2 arrives: now it is received.
    const rest = await applyStatement(context, camtStatement([{ bankRef: 'B-4', amount: '233.33', remittance: `${otherRef}-R02` }]), T0 + 3 * DAY)
    expect(rest.paid).toEqual([{ dealId: other.id, reference: `${otherRef}-R02`, rate: 2 }])
  })

  test('the last rate from a bank statement marks the deal paid', async () => {
    const { store, context, deal } = await setUp()
    const { id } = await deal({ rates: 2 })
    const reference = (await store.getDeal(id))!.reference
    await applyStatement(
      context,
      camtStatement([
        { bankRef: 'L-1', amount: '500.00', remittance: `${reference}-R01` },
        { bankRef: 'L-2', amount: '500.00', remittance: `${reference.replace(/-/g, ' ')} R02` },
      ]),
      T0 + DAY,
    )
    expect((await store.getDeal(id))!.status).toBe('paid')
  })
})
