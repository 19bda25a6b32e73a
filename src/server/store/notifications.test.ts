// Notifications in the outbox, on the store of the test project (SQLite, or a real PostgreSQL server): queued with
// the inquiry in one statement, once per address, dropped with spam, listed with their address.
import { describe, expect, test } from 'vitest'
import { newInquiry, openTestStore } from '../../../tests/helpers/store.ts'
import type { NewInquiry } from './types.ts'

const open = () => openTestStore()

let counter = 0
const T0 = Date.UTC(2026, 10, 1, 12)
const inquiry = (overrides: Partial<NewInquiry> = {}): NewInquiry => newInquiry({ name: 'Erika', message: 'Hallo', createdAt: T0 + ++counter, ...overrides })
const A = 'https://a.example.org/hook'
const B = 'telegram+https://api.telegram.org/bot1:X?chat_id=1'

describe('notifications in the outbox', () => {
  test('a new inquiry queues its mail and one notification per distinct address; the worker gets them as webhooks', async () => {
    const store = await open()
    const saved = await store.saveInquiry(inquiry(), { queue: true, mailTo: null, notify: [A, B, A] })
    expect(saved.status).toBe('created')
    const items = await store.claimDueMail(T0 + 1e6, 20, 'w', 60_000)
    expect(items.map((item) => item.webhookUrl).sort()).toEqual([A, B, null].sort())
    expect(items.every((item) => item.reply === null && item.inquiry.status === 'new')).toBe(true)
    const listed = await store.listMail(['pending'])
    expect(listed.map((row) => row.webhookUrl).sort()).toEqual([A, B, null].sort())
    expect((await store.listOutbox()).filter((row) => row.webhookUrl !== null)).toHaveLength(2)
    // The inquiry's own mail is still the one the inbox shows.
    expect((await store.outboxStatus(items[0]!.inquiry.id))?.status).toBe('pending')
  })

  test('the same submission again (a retried POST) queues nothing more', async () => {
    const store = await open()
    const first = inquiry()
    await store.saveInquiry(first, { queue: true, mailTo: null, notify: [A] })
    expect((await store.saveInquiry(first, { queue: true, mailTo: null, notify: [A] })).status).toBe('duplicate')
    expect(await store.listMail(['pending'])).toHaveLength(2)
  })

  test('spam queues none; "Kein Spam" queues them once; marking spam drops the pending ones', async () => {
    const store = await open()
    const saved = await store.saveInquiry(inquiry({ spamReason: 'honeypot' }), { queue: false })
    const id = (saved as { id: number }).id
    expect(await store.listMail(['pending'])).toEqual([])
    expect(await store.markNotSpam(id, null, T0, [A, B])).toBe(true)
    expect((await store.listMail(['pending'])).filter((row) => row.webhookUrl !== null)).toHaveLength(2)
    expect(await store.markSpam(id)).toBe(true)
    expect(await store.listMail(['pending'])).toEqual([])
    expect(await store.markNotSpam(id, null, T0, [A])).toBe(true)
    const [sent] = await store.claimDueMail(T0 + 1e6, 20, 'w', 60_000).then((items) => items.filter((item) => item.webhookUrl === A))
    await store.markSent(sent!.id, T0)
    await store.markSpam(id)
    expect(await store.markNotSpam(id, null, T0, [A])).toBe(true)
    // A was notified already: no second row for it.
    expect((await store.listMail(['pending', 'sent'])).filter((row) => row.webhookUrl === A)).toHaveLength(1)
  })

  test('a notification sent again keeps its row (its delivery id) and is claimed again as a webhook', async () => {
    const store = await open()
    await store.saveInquiry(inquiry(), { queue: true, mailTo: null, notify: [A] })
    const items = await store.claimDueMail(T0 + 1e6, 20, 'w', 60_000)
    const hook = items.find((item) => item.webhookUrl === A)!
    await store.markFailed(hook.id, 'HTTP 400', T0)
    await store.markSent(items.find((item) => item.webhookUrl === null)!.id, T0)
    expect(await store.resendMail(hook.id, T0 + 2e6)).toBe(true)
    const again = await store.claimDueMail(T0 + 3e6, 20, 'w2', 60_000)
    expect(again.map((item) => [item.id, item.webhookUrl, item.messageId])).toEqual([[hook.id, A, hook.messageId]])
  })
})
