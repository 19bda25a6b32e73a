// Deals in the store (docs/deals.md), on the store of the test project (SQLite, or a real PostgreSQL): made with the
// acceptance in one transaction, found by their link's hash, moved on only from the states a step allows, each step
// with its mail to the buyer; the transfer code kept as given (sealed by the caller) and never in a listing.
import { describe, expect, test } from 'vitest'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import type { NewDeal, Store } from './types.ts'

const T0 = Date.UTC(2026, 10, 1, 12)
const DAY = 86_400_000

async function open() {
  const config = await testStoreConfig('deal-record-')
  return { store: await openTestStore(config), dataDir: config.dataDir }
}

async function save(store: Store, domain = 'example.de') {
  const saved = await store.saveInquiry(newInquiry({ domain, offer: { amount: 1500, currency: 'EUR' }, createdAt: T0 }), { queue: true, mailTo: null })
  if (saved.status !== 'created') throw new Error('not created')
  return saved.id
}

let links = 0
const newDeal = (overrides: Partial<NewDeal> = {}): NewDeal => ({
  linkHash: `hash-${++links}`,
  linkSealed: 'v1.sealed-link',
  amount: 150_000,
  currency: 'EUR',
  paymentDueAt: T0 + 7 * DAY,
  transferDays: 5,
  ...overrides,
})
const acceptWith = (store: Store, id: number, deal: NewDeal, now = T0) =>
  store.accept(id, { body: 'Angenommen', to: 'erika@example.de', replyTo: 'owner@example.org', now, amount: 1500, deal })

describe('a deal', () => {
  test('is made with the acceptance, with a unique reference of its year and number, found by its link hash', async () => {
    const { store } = await open()
    const a = await save(store)
    const b = await save(store, 'zweite.de')
    const first = await acceptWith(store, a, newDeal({ linkHash: 'aaa' }))
    const second = await acceptWith(store, b, newDeal({ linkHash: 'bbb', amount: 99, currency: 'USD' }))
    expect(first).toMatchObject({ status: 'queued', inquiryStatus: 'accepted', dealId: expect.any(Number) })
    const deal = (await store.dealByLink('aaa'))!
    expect(deal).toMatchObject({
      inquiryId: a,
      domain: 'example.de',
      status: 'awaiting_payment',
      amount: 150_000,
      currency: 'EUR',
      paymentDueAt: T0 + 7 * DAY,
      transferDays: 5,
      hasTransferCode: false,
      buyer: { name: 'Erika Mustermann', email: 'erika@example.de', language: 'de' },
    })
    expect(deal.reference).toBe(`DL-2026-${String(deal.id).padStart(4, '0')}`)
    const other = (await store.dealByLink('bbb'))!
    expect(other.id).toBe((second as { dealId: number }).dealId)
    expect(other.reference).not.toBe(deal.reference)
    expect(await store.dealByLink('ccc')).toBeNull()
    expect(await store.openDealOf(a)).toMatchObject({ id: deal.id })
  })

  test('is renewed (amount and link) when the inquiry is accepted again while unpaid, and not at all once paid', async () => {
    const { store } = await open()
    const id = await save(store)
    const made = (await acceptWith(store, id, newDeal({ linkHash: 'old' }))) as { dealId: number }
    const again = (await acceptWith(store, id, newDeal({ linkHash: 'new', amount: 120_000 }))) as { dealId: number }
    expect(again.dealId).toBe(made.dealId)
    expect(await store.dealByLink('old')).toBeNull()
    expect(await store.dealByLink('new')).toMatchObject({ id: made.dealId, amount: 120_000 })
    await store.changeDeal(made.dealId, { from: ['awaiting_payment'], to: 'paid', now: T0, paidAt: T0 })
    expect(await acceptWith(store, id, newDeal())).toEqual({ status: 'deal-in-progress', dealId: made.dealId })
    expect((await store.inquiryThread(id))!.replies.map((reply) => reply.kind)).toEqual(['accept', 'accept'])
  })

  test('an open deal refuses a counter-offer and a refusal of its inquiry; once cancelled, both are possible again', async () => {
    const { store } = await open()
    const id = await save(store)
    const { dealId } = (await acceptWith(store, id, newDeal())) as { dealId: number }
    const step = { body: 'x', to: 'erika@example.de', replyTo: 'owner@example.org', now: T0 }
    expect(await store.counterOffer(id, { ...step, amount: 2000, expiresAt: T0 + DAY })).toEqual({ status: 'deal-in-progress', dealId })
    expect(await store.decline(id, step)).toEqual({ status: 'deal-in-progress', dealId })
    expect((await store.getInquiry(id))!.counter).toBeUndefined()
    await store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'owner' })
    expect(await store.decline(id, step)).toMatchObject({ status: 'queued', inquiryStatus: 'declined' })
  })

  test('a refused acceptance (spam) makes no deal: the deal is in the acceptance’s transaction', async () => {
    const { store, dataDir } = await open()
    const id = await save(store)
    await queryStore(dataDir, "UPDATE inquiries SET status = 'spam' WHERE id = ?", [id])
    expect(await acceptWith(store, id, newDeal({ linkHash: 'spam' }))).toEqual({ status: 'spam' })
    expect(await store.dealByLink('spam')).toBeNull()
    expect(await store.listDeals()).toEqual([])
  })
})

describe('its steps', () => {
  test('move it on only from the states they allow, each with its mail to the buyer in the outbox', async () => {
    const { store } = await open()
    const id = await save(store)
    const { dealId } = (await acceptWith(store, id, newDeal())) as { dealId: number }
    const mail = { kind: 'deal-paid' as const, body: 'Zahlung erhalten', to: 'erika@example.de', replyTo: 'owner@example.org' }
    expect(await store.changeDeal(dealId, { from: ['paid'], to: 'transferred', now: T0 })).toEqual({ status: 'wrong-state', current: 'awaiting_payment' })
    const paid = await store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'paid', now: T0 + DAY, paidAt: T0 + DAY, transferDueAt: T0 + 6 * DAY, mail })
    expect(paid).toMatchObject({ status: 'done', replyId: expect.any(Number), deal: { status: 'paid', paidAt: T0 + DAY, transferDueAt: T0 + 6 * DAY } })
    // Twice is refused: nothing is mailed twice.
    expect(await store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'paid', now: T0 + DAY, mail })).toEqual({ status: 'wrong-state', current: 'paid' })
    const thread = (await store.inquiryThread(id))!
    expect(thread.replies.map((reply) => [reply.kind, reply.mail?.status])).toEqual([
      ['accept', 'pending'],
      ['deal-paid', 'pending'],
    ])
    const due = await store.claimDueMail(T0 + 2 * DAY, 10, 'test', 60_000)
    expect(due.find((item) => item.reply?.kind === 'deal-paid')).toMatchObject({
      mailTo: 'erika@example.de',
      reply: { body: 'Zahlung erhalten', replyTo: 'owner@example.org' },
    })
    await store.changeDeal(dealId, {
      from: ['paid'],
      to: 'transferred',
      now: T0 + 2 * DAY,
      transferCode: 'v1.sealed-code',
      transferredAt: T0 + 2 * DAY,
      completesAt: T0 + 16 * DAY,
    })
    expect(await store.getDeal(dealId)).toMatchObject({ status: 'transferred', hasTransferCode: true, completesAt: T0 + 16 * DAY })
    expect(await store.dealTransferCode(dealId)).toBe('v1.sealed-code')
    // The listing and the deal itself never carry the code.
    expect(JSON.stringify(await store.listDeals())).not.toContain('v1.sealed-code')
    expect(await store.changeDeal(999_999, { from: ['paid'], to: 'completed', now: T0 })).toEqual({ status: 'not-found' })
  })

  test('are listed by their next deadline; a cancelled deal frees the inquiry for a new one', async () => {
    const { store } = await open()
    // Each its own name: one open deal per name (decision 037).
    const late = await save(store, 'spaet.de')
    const soon = await save(store, 'bald.de')
    const gone = await save(store, 'weg.de')
    const { dealId: lateId } = (await acceptWith(store, late, newDeal({ paymentDueAt: T0 + 9 * DAY }))) as { dealId: number }
    const { dealId: soonId } = (await acceptWith(store, soon, newDeal({ paymentDueAt: T0 + 2 * DAY }))) as { dealId: number }
    const { dealId: goneId } = (await acceptWith(store, gone, newDeal())) as { dealId: number }
    await store.changeDeal(goneId, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'owner', cancelReason: 'Doch nicht' })
    expect((await store.listDeals()).map((deal) => deal.id)).toEqual([soonId, lateId, goneId])
    expect((await store.listDeals({ status: 'cancelled' })).map((deal) => deal.id)).toEqual([goneId])
    expect(await store.openDealOf(gone)).toBeNull()
    const renewed = (await acceptWith(store, gone, newDeal())) as { dealId: number }
    expect(renewed.dealId).not.toBe(goneId)
  })

  test('go with their inquiry when it is erased', async () => {
    const { store } = await open()
    const id = await save(store)
    await acceptWith(store, id, newDeal({ linkHash: 'erase-me' }))
    expect(await store.deleteInquiry(id)).toBe(true)
    expect(await store.dealByLink('erase-me')).toBeNull()
  })

  test('never get the number, and so the reference, of an erased deal: its invoices and a late transfer still name it', async () => {
    const { store } = await open()
    await acceptWith(store, await save(store), newDeal({ linkHash: 'first' }))
    const erased = await save(store, 'zweite.de')
    await acceptWith(store, erased, newDeal({ linkHash: 'highest' }))
    const gone = (await store.dealByLink('highest'))!
    expect(await store.deleteInquiry(erased)).toBe(true)
    await acceptWith(store, await save(store, 'dritte.de'), newDeal({ linkHash: 'next' }))
    const next = (await store.dealByLink('next'))!
    expect(next.id).toBeGreaterThan(gone.id)
    expect(next.reference).not.toBe(gone.reference)
  })
})

describe('one open deal per name (decision 037)', () => {
  const cancel = (store: Store, dealId: number) =>
    store.changeDeal(dealId, { from: ['awaiting_payment'], to: 'cancelled', now: T0, cancelledAt: T0, cancelledBy: 'owner' })

  test('a second inquiry’s offer is not accepted while the first one’s deal is open, and is once that deal is cancelled', async () => {
    const { store } = await open()
    const first = await save(store)
    const second = await save(store)
    const { dealId } = (await acceptWith(store, first, newDeal())) as { dealId: number }
    expect(await acceptWith(store, second, newDeal({ linkHash: 'second' }))).toEqual({ status: 'domain-deal-open', dealId })
    // Refused in the acceptance's transaction: no reply, no mail, no deal, the inquiry as it was.
    expect((await store.inquiryThread(second))!.replies).toEqual([])
    expect((await store.inquiryThread(second))!.inquiry.status).toBe('new')
    expect(await store.dealByLink('second')).toBeNull()
    // The same inquiry accepted again still renews its own deal; another name is not affected.
    expect(await acceptWith(store, first, newDeal())).toMatchObject({ status: 'queued', dealId })
    expect(await acceptWith(store, await save(store, 'andere.de'), newDeal())).toMatchObject({ status: 'queued' })
    await cancel(store, dealId)
    expect(await acceptWith(store, second, newDeal({ linkHash: 'second' }))).toMatchObject({ status: 'queued', dealId: expect.any(Number) })
  })

  test('the store itself keeps a second open deal of a name out, whoever writes it', async () => {
    const { store, dataDir } = await open()
    const first = await save(store)
    const second = await save(store)
    const { dealId } = (await acceptWith(store, first, newDeal())) as { dealId: number }
    const insert = () =>
      queryStore(
        dataDir,
        "INSERT INTO deals (inquiry_id, domain, status, amount, currency, reference, link_hash, link_sealed, created_at, payment_due_at, transfer_days) VALUES (?, 'example.de', 'awaiting_payment', 1, 'EUR', 'DL-x', 'raw', 'v1.x', 0, 0, 5)",
        [second],
      )
    await expect(insert()).rejects.toThrow(/unique|duplicate/i)
    await cancel(store, dealId)
    await insert()
  })

  test('two instances accepting two offers of one name at the same moment make exactly one deal', async () => {
    const config = await testStoreConfig('deal-race-')
    const [one, two] = [await openTestStore(config), await openTestStore(config)]
    for (let round = 0; round < 5; round++) {
      const domain = `rennen${round}.de`
      const [a, b] = [await save(one, domain), await save(one, domain)]
      const results = await Promise.all([acceptWith(one, a, newDeal()), acceptWith(two, b, newDeal())])
      expect(results.map((result) => result.status).sort()).toEqual(['domain-deal-open', 'queued'])
      const deals = (await one.listDeals()).filter((deal) => deal.domain === domain)
      expect(deals).toHaveLength(1)
      expect(results).toContainEqual({ status: 'domain-deal-open', dealId: deals[0]!.id })
    }
  })
})
