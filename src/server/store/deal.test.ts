// The negotiation's part of the store contract, on the store of the test project (SQLite, or a real PostgreSQL).
import { describe, expect, test } from 'vitest'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import pino from 'pino'
import { counterExpiryJob } from '../deal/expiry.ts'
import type { NewInquiry, Store } from './types.ts'

const dataDirs = new WeakMap<Store, string>()
const dataDirOf = (store: Store) => dataDirs.get(store)!

async function open(): Promise<Store> {
  const config = await testStoreConfig('deal-store-')
  const store = await openTestStore(config)
  dataDirs.set(store, config.dataDir)
  return store
}

const T0 = Date.UTC(2026, 10, 1, 12)
const DAY = 86_400_000
async function save(store: Store, overrides: Partial<NewInquiry> = {}) {
  const saved = await store.saveInquiry(
    newInquiry({ message: 'Was kostet die Domain?', offer: { amount: 1500, currency: 'EUR' }, createdAt: T0, ...overrides }),
    overrides.spamReason ? { queue: false } : { queue: true, mailTo: null },
  )
  if (saved.status !== 'created') throw new Error('not created')
  return saved.id
}

const step = (now: number, body = 'Text der Mail') => ({ body, to: 'erika@example.de', replyTo: 'owner@example.org', now })

describe('negotiation steps', () => {
  test('a counter-offer stores its reply with the amount, queues its mail threaded like a reply and marks the inquiry countered', async () => {
    const store = await open()
    const id = await save(store)
    const result = await store.counterOffer(id, { ...step(T0 + 1000, 'Gegenangebot: 4.900 €'), amount: 4900, expiresAt: T0 + 7 * DAY })
    expect(result).toMatchObject({ status: 'queued', inquiryStatus: 'countered' })
    const thread = (await store.inquiryThread(id))!
    expect(thread.inquiry).toMatchObject({ status: 'countered', counter: { amount: 4900, expiresAt: T0 + 7 * DAY } })
    expect(thread.replies).toMatchObject([{ kind: 'counter', amount: 4900, body: 'Gegenangebot: 4.900 €', mail: { status: 'pending' } }])
    const due = await store.claimDueMail(T0 + 2000, 10, 'test', 60_000)
    const mail = due.find((item) => item.reply !== null)!
    expect(mail).toMatchObject({ mailTo: 'erika@example.de', reply: { kind: 'counter', amount: 4900, replyTo: 'owner@example.org' } })
    expect(mail.reply!.inquiryMessageId).toBe(thread.ownerMail!.messageId)
    expect(mail.messageId).toMatch(new RegExp(`^<reply-${mail.reply!.id}-token\\d+@example\\.de>$`))
  })

  test('accepting and declining store their kind and set the state; accept keeps the agreed amount', async () => {
    const store = await open()
    const a = await save(store)
    const b = await save(store)
    expect(await store.accept(a, { ...step(T0), amount: 1500 })).toMatchObject({ status: 'queued', inquiryStatus: 'accepted' })
    expect(await store.decline(b, step(T0))).toMatchObject({ status: 'queued', inquiryStatus: 'declined' })
    expect((await store.inquiryThread(a))!.replies).toMatchObject([{ kind: 'accept', amount: 1500 }])
    expect((await store.inquiryThread(b))!.replies).toMatchObject([{ kind: 'decline', amount: null }])
    expect((await store.consoleInquiries({ limit: 10, status: 'accepted' })).map((row) => row.id)).toEqual([a])
    expect((await store.consoleInquiries({ limit: 10, status: 'declined' })).map((row) => row.id)).toEqual([b])
  })

  test('spam, unconfirmed and unknown inquiries are refused with a result, and nothing is stored or queued', async () => {
    const store = await open()
    const spam = await save(store, { spamReason: 'decoy-filled' })
    const unconfirmed = await save(store)
    // The double opt-in's state comes from another part of the store: written here as it would leave it.
    await queryStore(dataDirOf(store), 'UPDATE inquiries SET status = ? WHERE id = ?', ['unconfirmed', unconfirmed])
    for (const [id, status] of [
      [spam, 'spam'],
      [unconfirmed, 'unconfirmed'],
      [999_999, 'not-found'],
    ] as const) {
      expect(await store.counterOffer(id, { ...step(T0), amount: 100, expiresAt: T0 + DAY })).toEqual({ status })
      expect(await store.accept(id, { ...step(T0), amount: null })).toEqual({ status })
      expect(await store.decline(id, step(T0))).toEqual({ status })
    }
    expect((await store.inquiryThread(spam))!.replies).toEqual([])
    expect((await store.inquiryThread(spam))!.inquiry.status).toBe('spam')
    expect(await store.listMail(['pending'])).toHaveLength(1)
  })
})

describe('expiry', () => {
  test('the store marks counter-offers whose time has passed as expired, and only those, at the time it is given', async () => {
    const store = await open()
    const soon = await save(store)
    const later = await save(store)
    const accepted = await save(store)
    await store.counterOffer(soon, { ...step(T0), amount: 3000, expiresAt: T0 + DAY })
    await store.counterOffer(later, { ...step(T0), amount: 3000, expiresAt: T0 + 7 * DAY })
    await store.counterOffer(accepted, { ...step(T0), amount: 3000, expiresAt: T0 + DAY })
    await store.accept(accepted, { ...step(T0 + 1000), amount: 3000 })
    expect(await store.expireCounterOffers(T0 + DAY - 1)).toBe(0)
    expect(await store.expireCounterOffers(T0 + DAY)).toBe(1)
    expect((await store.getInquiry(soon))!.counter).toEqual({ amount: 3000, expiresAt: T0 + DAY })
    expect((await store.consoleInquiries({ limit: 10, status: 'expired' })).map((row) => row.id)).toEqual([soon])
    expect((await store.consoleInquiries({ limit: 10, status: 'countered' })).map((row) => row.id)).toEqual([later])
    expect(await store.expireCounterOffers(T0 + DAY + 1)).toBe(0)
    expect(await store.expireCounterOffers(T0 + 8 * DAY)).toBe(1)
  })

  test('the hourly job of the scheduler marks the counter-offers whose time has passed by its clock, and logs how many', async () => {
    const store = await open()
    const now = Date.now()
    const passed = await save(store, { createdAt: now - 3 * DAY })
    const running = await save(store, { createdAt: now - 3 * DAY })
    await store.counterOffer(passed, { ...step(now - 2 * DAY), amount: 3000, expiresAt: now - DAY })
    await store.counterOffer(running, { ...step(now - 2 * DAY), amount: 3000, expiresAt: now + DAY })
    const lines: string[] = []
    const job = counterExpiryJob({ store, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) })
    expect(job.schedule).toEqual({ everyMs: 60 * 60_000 })
    await job.run({ now, dueAt: now, period: new Date(now).toISOString(), signal: new AbortController().signal })
    expect((await store.consoleInquiries({ limit: 10, status: 'expired' })).map((row) => row.id)).toEqual([passed])
    expect((await store.consoleInquiries({ limit: 10, status: 'countered' })).map((row) => row.id)).toEqual([running])
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([{ count: 1, msg: 'counter-offers expired' }])
  })

  test('accepting after the counter-offer ran out is refused until the owner confirms, also before the job ran', async () => {
    const store = await open()
    const marked = await save(store)
    const unmarked = await save(store)
    await store.counterOffer(marked, { ...step(T0), amount: 3000, expiresAt: T0 + DAY })
    await store.counterOffer(unmarked, { ...step(T0), amount: 3000, expiresAt: T0 + DAY })
    await store.expireCounterOffers(T0 + DAY)
    for (const id of [marked, unmarked]) {
      expect(await store.accept(id, { ...step(T0 + 2 * DAY), amount: 3000 })).toEqual({ status: 'counter-expired', expiredAt: T0 + DAY })
      expect(await store.accept(id, { ...step(T0 + 2 * DAY), amount: 3000, confirmExpired: true })).toMatchObject({
        status: 'queued',
        inquiryStatus: 'accepted',
      })
    }
    // A new counter-offer after the old one ran out is simply made.
    const again = await save(store)
    await store.counterOffer(again, { ...step(T0), amount: 3000, expiresAt: T0 + DAY })
    await store.expireCounterOffers(T0 + DAY)
    expect(await store.counterOffer(again, { ...step(T0 + 2 * DAY), amount: 2800, expiresAt: T0 + 9 * DAY })).toMatchObject({
      status: 'queued',
      inquiryStatus: 'countered',
    })
    expect((await store.getInquiry(again))!.counter).toEqual({ amount: 2800, expiresAt: T0 + 9 * DAY })
  })
})

describe('templates', () => {
  test('are kept per step in the store, replaced, and removed to go back to the default', async () => {
    const store = await open()
    expect(await store.dealTemplates()).toEqual({})
    await store.setDealTemplate('counter', 'Mein Preis: {betrag} bis {frist}')
    await store.setDealTemplate('decline', 'Nein danke, {domain}')
    await store.setDealTemplate('counter', 'Neu: {betrag} bis {frist}')
    expect(await store.dealTemplates()).toEqual({ counter: 'Neu: {betrag} bis {frist}', decline: 'Nein danke, {domain}' })
    await store.setDealTemplate('decline', null)
    expect(await store.dealTemplates()).toEqual({ counter: 'Neu: {betrag} bis {frist}' })
  })
})
