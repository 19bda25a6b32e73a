// The confirmation part of the store's contract (`confirm: notice | verify`), on the store of the test project
// (SQLite, or PostgreSQL in the project "postgres"), with a fixed clock.
import type { FastifyBaseLogger } from 'fastify'
import { describe, expect, onTestFinished, test } from 'vitest'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { unconfirmedExpiryJob } from '../confirm/expiry.ts'
import { createScheduler } from '../scheduler/scheduler.ts'
import { UNCONFIRMED_TTL_MS } from '../lib/confirm-link.ts'
import type { ConfirmPlan, NewInquiry, Store } from './types.ts'

async function open(): Promise<{ store: Store; dataDir: string }> {
  const config = await testStoreConfig('confirmation-')
  return { store: await openTestStore(config), dataDir: config.dataDir }
}

const T0 = Date.UTC(2026, 2, 1, 9)
const HOUR = 60 * 60 * 1000
const inquiry = (fields: Partial<NewInquiry> = {}): NewInquiry => newInquiry({ name: 'Erika', message: 'Was kostet die Domain?', createdAt: T0, ...fields })

const plan = (kind: ConfirmPlan['kind'], mail = true): ConfirmPlan => ({ kind, mail, body: `Text ${kind}`, replyTo: null })
const OWNER = { queue: true, mailTo: null } as const

async function saved(store: Store, ...args: Parameters<Store['saveInquiry']>): Promise<number> {
  const result = await store.saveInquiry(...args)
  if (result.status !== 'created') throw new Error(`not created: ${result.status}`)
  return result.id
}

/** Every outbox row of an inquiry: the owner's mail (reply kind null) and the visitor's mails. */
const mailsOf = (dataDir: string, id: number) =>
  queryStore<{ kind: string | null; mail_to: string | null }>(
    dataDir,
    'SELECT r.kind, o.mail_to FROM outbox o LEFT JOIN replies r ON r.id = o.reply_id WHERE o.inquiry_id = ? ORDER BY o.id',
    [id],
  )
const statusOf = async (store: Store, id: number) => (await store.confirmationTarget(id))?.status ?? null

describe('storing with a confirmation', () => {
  test('verify: the inquiry waits as unconfirmed with the verify mail to the visitor, and nothing for the owner', async () => {
    const { store, dataDir } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('verify'))
    expect(await statusOf(store, id)).toBe('unconfirmed')
    expect(await mailsOf(dataDir, id)).toEqual([{ kind: 'verify', mail_to: 'erika@example.de' }])
    const [item] = await store.claimDueMail(T0, 10, 'test', 60_000)
    expect(item!.reply).toMatchObject({ kind: 'verify', body: 'Text verify' })
    expect(item!.mailTo).toBe('erika@example.de')
  })

  test('notice: the inquiry is new, with the owner mail and the notice to the visitor in the same commit', async () => {
    const { store, dataDir } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('notice'))
    expect(await statusOf(store, id)).toBe('new')
    expect(await mailsOf(dataDir, id)).toEqual([
      { kind: null, mail_to: null },
      { kind: 'notice', mail_to: 'erika@example.de' },
    ])
  })

  test('spam is never confirmed nor waits, whatever the plan says', async () => {
    const { store, dataDir } = await open()
    for (const kind of ['notice', 'verify'] as const) {
      const id = await saved(store, inquiry({ spamReason: 'decoy-filled' }), { queue: false }, plan(kind))
      expect(await statusOf(store, id)).toBe('spam')
      expect(await mailsOf(dataDir, id)).toEqual([])
    }
  })

  test('over the address limit the inquiry is stored without a confirmation mail', async () => {
    const { store, dataDir } = await open()
    const notice = await saved(store, inquiry(), OWNER, plan('notice', false))
    const verify = await saved(store, inquiry(), OWNER, plan('verify', false))
    expect(await mailsOf(dataDir, notice)).toEqual([{ kind: null, mail_to: null }])
    expect(await statusOf(store, verify)).toBe('unconfirmed')
    expect(await mailsOf(dataDir, verify)).toEqual([])
  })

  test('a repeated submission queues no second confirmation', async () => {
    const { store, dataDir } = await open()
    const first = inquiry()
    const id = await saved(store, first, OWNER, plan('notice'))
    expect(await store.saveInquiry(first, OWNER, plan('notice'))).toEqual({ status: 'duplicate', id })
    expect(await mailsOf(dataDir, id)).toHaveLength(2)
  })
})

describe('confirming', () => {
  test('queues the owner mail once; a second confirmation finds it confirmed already', async () => {
    const { store, dataDir } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('verify'))
    expect(await store.confirmInquiry(id, 'example.de', { queue: true, mailTo: 'verkauf@example.org' }, T0 + HOUR)).toBe('confirmed')
    expect(await statusOf(store, id)).toBe('new')
    expect(await store.confirmInquiry(id, 'example.de', OWNER, T0 + 2 * HOUR)).toBe('already')
    expect(await mailsOf(dataDir, id)).toEqual([
      { kind: 'verify', mail_to: 'erika@example.de' },
      { kind: null, mail_to: 'verkauf@example.org' },
    ])
    // The owner's mail names the inquiry as every other owner mail does, so a reply threads under it.
    const [row] = await queryStore<{ message_id: string }>(dataDir, 'SELECT message_id FROM outbox WHERE inquiry_id = ? AND reply_id IS NULL', [id])
    expect(row!.message_id).toMatch(new RegExp(`^<inquiry-${id}-`))
  })

  test('two confirmations at once queue one owner mail', async () => {
    const { store, dataDir } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('verify'))
    const results = await Promise.all([1, 2, 3].map(() => store.confirmInquiry(id, 'example.de', OWNER, T0 + HOUR)))
    expect(results.sort()).toEqual(['already', 'already', 'confirmed'])
    expect((await mailsOf(dataDir, id)).filter((mail) => mail.kind === null)).toHaveLength(1)
  })

  test('an offer below the minimum is confirmed without an owner mail when the plan says so', async () => {
    const { store, dataDir } = await open()
    const id = await saved(store, inquiry({ belowMinimum: true }), { queue: false }, plan('verify'))
    expect(await store.confirmInquiry(id, 'example.de', { queue: false }, T0 + HOUR)).toBe('confirmed')
    expect(await mailsOf(dataDir, id)).toEqual([{ kind: 'verify', mail_to: 'erika@example.de' }])
  })

  test('another domain, an expired inquiry, a new one and a missing one are not confirmed', async () => {
    const { store } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('verify'))
    expect(await store.confirmInquiry(id, 'other.de', OWNER, T0 + HOUR)).toBe('missing')
    expect(await store.confirmInquiry(id, 'example.de', OWNER, T0 + UNCONFIRMED_TTL_MS)).toBe('missing')
    expect(await statusOf(store, id)).toBe('unconfirmed')
    const plain = await saved(store, inquiry(), OWNER)
    expect(await store.confirmInquiry(plain, 'example.de', OWNER, T0 + HOUR)).toBe('already')
    expect(await store.confirmInquiry(999_999, 'example.de', OWNER, T0 + HOUR)).toBe('missing')
  })
})

test('an inquiry whose only mail to the visitor was a notice comes back from the archive as new, not answered', async () => {
  const { store } = await open()
  const id = await saved(store, inquiry(), OWNER, plan('notice'))
  expect(await store.setArchived(id, true)).toBe(true)
  expect(await store.setArchived(id, false)).toBe(true)
  expect(await statusOf(store, id)).toBe('new')
})

describe('expiry', () => {
  test('unconfirmed inquiries are erased with their mails 48 hours after they came; others stay', async () => {
    const { store, dataDir } = await open()
    const old = await saved(store, inquiry(), OWNER, plan('verify'))
    const young = await saved(store, inquiry({ createdAt: T0 + HOUR }), OWNER, plan('verify'))
    const confirmed = await saved(store, inquiry(), OWNER, plan('verify'))
    await store.confirmInquiry(confirmed, 'example.de', OWNER, T0 + 1)
    const plain = await saved(store, inquiry(), OWNER, plan('notice'))
    const spam = await saved(store, inquiry({ spamReason: 'too-fast' }), { queue: false })

    expect(await store.eraseExpiredUnconfirmed(T0 + UNCONFIRMED_TTL_MS - 1)).toBe(0)
    expect(await store.eraseExpiredUnconfirmed(T0 + UNCONFIRMED_TTL_MS)).toBe(1)
    expect(await store.confirmationTarget(old)).toBeNull()
    expect(await mailsOf(dataDir, old)).toEqual([])
    expect(await queryStore(dataDir, 'SELECT id FROM replies WHERE inquiry_id = ?', [old])).toEqual([])
    for (const id of [young, confirmed, plain, spam]) expect(await store.confirmationTarget(id)).not.toBeNull()
    expect(await store.eraseExpiredUnconfirmed(T0 + HOUR + UNCONFIRMED_TTL_MS)).toBe(1)
    expect(await store.confirmationTarget(young)).toBeNull()
  })

  test('the expiry is a ten-minute job of the scheduler: a run erases what has expired by the clock it is given', async () => {
    const { store } = await open()
    const id = await saved(store, inquiry(), OWNER, plan('verify'))
    const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger
    const job = unconfirmedExpiryJob({ store, log: silent })
    expect(job.schedule).toEqual({ everyMs: 10 * 60_000 })
    const run = (now: number) => ({ now, dueAt: now, period: new Date(now).toISOString(), signal: new AbortController().signal })
    await job.run(run(T0 + HOUR))
    expect(await store.confirmationTarget(id)).not.toBeNull()
    // A scheduler started after the 48 hours runs the job at once (its run is due) and the inquiry is gone.
    const jobs = createScheduler({ store, log: silent, owner: 'test:1', now: () => T0 + UNCONFIRMED_TTL_MS })
    jobs.add(job)
    jobs.start()
    onTestFinished(() => jobs.stop())
    await expect.poll(() => store.confirmationTarget(id)).toBeNull()
  })
})
