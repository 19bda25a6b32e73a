// The store's contract, checked on the store of the test project: the SQLite file, or a real PostgreSQL server
// (project "postgres"). Two store objects on the same data stand for two server processes.
import { afterEach, expect, onTestFinished, test, vi } from 'vitest'
import { newInquiry, openTestStore as open, schemaBefore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { oldSchema } from '../../../tests/helpers/schema.ts'
import { openRateLimitStore, openStore } from './index.ts'
import type { Store } from './types.ts'
import { stepsOf } from './migrate.ts'

afterEach(() => {
  vi.useRealTimers()
})

const storeConfig = () => testStoreConfig()
/** For a test of the schema steps themselves: nothing migrated yet (on PostgreSQL, not the migrated template's copy). */
const emptyStoreConfig = () => testStoreConfig('store-', { empty: true })
const inquiry = newInquiry
const queue = { queue: true, mailTo: null } as const

test('an inquiry is stored with its mail; the same token and content again is a duplicate, other content with the same token an inquiry of its own', async () => {
  const store = await open(await storeConfig())
  const first = inquiry({ offer: { amount: 5000, currency: 'EUR' }, belowMinimum: true })
  const saved = await store.saveInquiry(first, queue)
  expect(saved).toEqual({ status: 'created', id: expect.any(Number) })
  const id = (saved as { id: number }).id
  expect(await store.saveInquiry(first, queue)).toEqual({ status: 'duplicate', id })
  // Pages served in the same second share a token (decision 055): another visitor's message is a new inquiry.
  const other = { ...first, contentHash: 'other', message: 'Eine andere Nachricht' }
  const second = await store.saveInquiry(other, queue)
  expect(second).toEqual({ status: 'created', id: expect.any(Number) })
  const secondId = (second as { id: number }).id
  expect(secondId).not.toBe(id)
  expect(await store.saveInquiry(other, queue)).toEqual({ status: 'duplicate', id: secondId })
  expect(await store.getInquiry(id)).toEqual({ ...first, id })
  expect(await store.findInquiry(first.token, first.contentHash)).toEqual({ ...first, id })
  expect(await store.findInquiry(first.token, 'other')).toEqual({ ...other, id: secondId })
  expect(await store.findInquiry(first.token, 'no-such-content')).toBeNull()
  expect(await store.outboxStatus(id)).toEqual({ status: 'pending', attempts: 0, lastError: null })
  expect(await store.outboxStatus(secondId)).toEqual({ status: 'pending', attempts: 0, lastError: null })
  // Each mail has a Message-ID of its own: it names the inquiry's id, not only the shared token.
  const mails = await store.claimDueMail(Date.now(), 10, 'test-owner', 60_000)
  expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(2)
  const spam = await store.saveInquiry(inquiry({ spamReason: 'decoy-filled' }), { queue: false })
  expect(await store.outboxStatus((spam as { id: number }).id)).toBeNull()
})

test('an inquiry keeps the language it was written in wherever it is read; the store takes no language a page cannot speak', async () => {
  const config = await storeConfig()
  const store = await open(config)
  const english = inquiry({ language: 'en', email: 'john@example.com' })
  const confirm = { kind: 'notice', mail: true, body: 'Your inquiry has arrived.', replyTo: null } as const
  const { id } = (await store.saveInquiry(english, queue, confirm)) as { id: number }
  const german = (await store.saveInquiry(inquiry(), queue)) as { id: number }
  expect(await store.getInquiry(id)).toEqual({ ...english, id })
  expect((await store.findInquiry(english.token, english.contentHash))?.language).toBe('en')
  expect((await store.getInquiry(german.id))?.language).toBe('de')
  expect((await store.listInquiries({})).map((row) => [row.id, row.language])).toEqual([
    [german.id, 'de'],
    [id, 'en'],
  ])
  expect((await store.consoleInquiries({ limit: 10 })).map((row) => row.language)).toEqual(['de', 'en'])
  expect((await store.inquiryThread(id))?.inquiry.language).toBe('en')
  expect((await store.confirmationTarget(id))?.language).toBe('en')
  expect((await store.personData('john@example.com')).map((person) => person.inquiry.language)).toEqual(['en'])
  // The owner's mail and the visitor's confirmation both know it: the one names it, the other is written in it.
  const claimed = await store.claimDueMail(Date.now() + 1000, 10, 'owner-a', 60_000)
  expect(claimed.filter((item) => item.inquiry.id === id).map((item) => [item.reply?.kind ?? 'owner', item.inquiry.language])).toEqual([
    ['owner', 'en'],
    ['notice', 'en'],
  ])
  await expect(queryStore(config.dataDir, `UPDATE inquiries SET language = 'xx' WHERE id = ${id}`)).rejects.toThrow(/check/i)
  await expect(queryStore(config.dataDir, `UPDATE inquiries SET language = 'EN' WHERE id = ${id}`)).rejects.toThrow(/check/i)
  await expect(queryStore(config.dataDir, `UPDATE inquiries SET language = NULL WHERE id = ${id}`)).rejects.toThrow(/null/i)
})

test('an inquiry written in French, Spanish, Italian, Dutch or Polish keeps its language', async () => {
  const store = await open(await storeConfig())
  for (const language of ['fr', 'es', 'it', 'nl', 'pl'] as const) {
    const written = inquiry({ language, email: `${language}@example.org` })
    const { id } = (await store.saveInquiry(written, queue)) as { id: number }
    expect(await store.getInquiry(id)).toEqual({ ...written, id })
    expect((await store.inquiryThread(id))?.inquiry.language).toBe(language)
    expect((await store.confirmationTarget(id))?.language).toBe(language)
  }
})

test('the step that lets inquiries take the new languages keeps the language of every inquiry before it', async () => {
  const config = await emptyStoreConfig()
  await schemaBefore(config, (steps) => steps.indexOf('0028-more-languages'))
  for (const [token, language] of [
    ['englishtoken000', 'en'],
    ['germantoken0000', 'de'],
  ] as const) {
    await queryStore(
      config.dataDir,
      `INSERT INTO inquiries (token, content_hash, domain, name, email, message, created_at, language) VALUES ('${token}', 'h', 'example.de', 'Erika', 'erika@example.de', 'Alt', 1, '${language}')`,
    )
  }
  await expect(queryStore(config.dataDir, `UPDATE inquiries SET language = 'fr' WHERE token = 'englishtoken000'`)).rejects.toThrow(/check/i)
  const store = await open(config)
  expect((await store.findInquiry('englishtoken000', 'h'))?.language).toBe('en')
  expect((await store.findInquiry('germantoken0000', 'h'))?.language).toBe('de')
  await queryStore(config.dataDir, `UPDATE inquiries SET language = 'pl' WHERE token = 'englishtoken000'`)
  expect((await store.findInquiry('englishtoken000', 'h'))?.language).toBe('pl')
})

test('the step that keys inquiries by token and content keeps every inquiry and what refers to it: mail, replies, deals, search', async () => {
  const config = await emptyStoreConfig()
  const steps = await schemaBefore(config, (all) => all.indexOf('0030-inquiry-content-key'))
  const insert = (token: string, contentHash: string, message: string) =>
    queryStore(config.dataDir, 'INSERT INTO inquiries (token, content_hash, domain, name, email, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      token,
      contentHash,
      'example.de',
      'Erika',
      'erika@example.de',
      message,
      1,
    ])
  await insert('oldtoken0000001', 'h1', 'Eine alte Anfrage')
  await insert('oldtoken0000002', 'h2', 'Noch eine')
  // Before the step a token is unique by itself.
  await expect(insert('oldtoken0000001', 'h3', 'Eine andere')).rejects.toThrow(/unique|duplicate/i)
  const { id } = (await queryStore<{ id: number }>(config.dataDir, "SELECT id FROM inquiries WHERE token = 'oldtoken0000001'"))[0]!
  await queryStore(
    config.dataDir,
    "INSERT INTO outbox (inquiry_id, message_id, status, next_attempt_at, created_at) VALUES (?, '<old@example.de>', 'pending', 1, 1)",
    [id],
  )
  await queryStore(config.dataDir, "INSERT INTO replies (inquiry_id, body, created_at) VALUES (?, 'Antwort', 1)", [id])
  // A deal goes with its inquiry (ON DELETE CASCADE): the step must not delete and insert the inquiries under it.
  await queryStore(
    config.dataDir,
    `INSERT INTO deals (link_hash, link_sealed, inquiry_id, domain, status, amount, currency, reference, created_at, payment_due_at, transfer_days)
     VALUES ('lh', 'ls', ?, 'example.de', 'awaiting_payment', 5000, 'EUR', 'REF-1', 1, 2, 14)`,
    [id],
  )
  const store = await open(config)
  expect(await store.findInquiry('oldtoken0000001', 'h1')).toMatchObject({ id, message: 'Eine alte Anfrage' })
  expect(await store.findInquiry('oldtoken0000002', 'h2')).toMatchObject({ message: 'Noch eine' })
  expect(await store.outboxStatus(id)).toEqual({ status: 'pending', attempts: 0, lastError: null })
  expect((await queryStore<{ inquiry_id: number }>(config.dataDir, 'SELECT inquiry_id FROM replies')).map((row) => Number(row.inquiry_id))).toEqual([id])
  expect((await queryStore<{ inquiry_id: number }>(config.dataDir, 'SELECT inquiry_id FROM deals')).map((row) => Number(row.inquiry_id))).toEqual([id])
  expect(await store.consoleInquiries({ words: ['alte'], limit: 10 })).toHaveLength(1)
  // After it: the same token and content is a duplicate, other content with the token an inquiry of its own, found
  // by the search (the index's triggers are there again).
  expect(await store.saveInquiry(newInquiry({ token: 'oldtoken0000001', contentHash: 'h1' }), queue)).toEqual({ status: 'duplicate', id })
  const other = await store.saveInquiry(newInquiry({ token: 'oldtoken0000001', contentHash: 'h3', message: 'Eine neue Anfrage' }), queue)
  expect(other).toEqual({ status: 'created', id: expect.any(Number) })
  expect((await store.consoleInquiries({ words: ['neue'], limit: 10 })).map((row) => row.id)).toEqual([(other as { id: number }).id])
  expect(await queryStore(config.dataDir, 'SELECT name FROM kysely_migration')).toHaveLength(steps)
})

test('inquiries saved at the same moment are all stored, each under its own id', async () => {
  const store = await open(await storeConfig())
  const results = await Promise.all(Array.from({ length: 50 }, () => store.saveInquiry(inquiry(), queue)))
  expect(results.every((r) => r.status === 'created')).toBe(true)
  expect(new Set(results.map((r) => (r as { id: number }).id)).size).toBe(50)
  expect((await store.outboxHealth()).pending).toBe(50)
})

test('two processes claiming at the same time never get the same mail', async () => {
  const config = await storeConfig()
  const [a, b] = [await open(config), await open(config)]
  for (let i = 0; i < 40; i++) await a.saveInquiry(inquiry(), queue)
  const now = Date.now() + 1000
  const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claimDueMail(now, 5, `owner-${i}`, 60_000)))
  const ids = claims.flat().map((item) => item.id)
  expect(ids).toHaveLength(40)
  expect(new Set(ids).size).toBe(40)
  // Everything is leased now: nothing more to claim.
  expect(await a.claimDueMail(now, 5, 'late', 60_000)).toEqual([])
})

test('a lease that ran out, or whose owner is gone, lets another process send the mail', async () => {
  const config = await storeConfig()
  const store = await open(config)
  const { id } = (await store.saveInquiry(inquiry(), queue)) as { id: number }
  const t0 = Date.now() + 1000
  const [item] = await store.claimDueMail(t0, 10, 'first', 5_000)
  expect(item!.inquiry.id).toBe(id)
  expect(item!.messageId).toMatch(new RegExp(`^<inquiry-${id}-token\\d+@example\\.de>$`))
  expect(await store.claimDueMail(t0 + 4_000, 10, 'second', 5_000)).toEqual([])
  expect(await store.nextDueAt()).toBe(t0 + 5_000)
  expect(await store.claimDueMail(t0 + 5_000, 10, 'second', 5_000)).toHaveLength(1)
  await store.releaseLeases('second')
  expect(await store.claimDueMail(t0 + 5_001, 10, 'third', 5_000)).toHaveLength(1)
})

test("a process's end frees its queues' leases too (host:pid, host:pid:dns, …), a queue's giving back only its own, and never another's whose pid it begins", async () => {
  const config = await storeConfig()
  const store = await open(config)
  for (let i = 0; i < 3; i++) await store.saveInquiry(inquiry(), queue)
  const t0 = Date.now() + 1000
  expect(await store.claimDueMail(t0, 1, 'host:7', 60_000)).toHaveLength(1)
  expect(await store.claimDueMail(t0, 1, 'host:7:dns', 60_000)).toHaveLength(1)
  expect(await store.claimDueMail(t0, 1, 'host:70', 60_000)).toHaveLength(1)
  // A queue giving back its own leases leaves the other queues' of its process alone.
  await store.releaseLeases('host:7')
  expect(await store.claimDueMail(t0, 10, 'host:8', 60_000)).toHaveLength(1)
  expect(await store.claimDueMail(t0, 1, 'host:7', 60_000)).toEqual([])
  await store.releaseLeasesOfProcess('host:7')
  // The process's queue's lease is free now; host:70's is still leased.
  expect(await store.claimDueMail(t0, 10, 'host:9', 60_000)).toHaveLength(1)
})

test('leases left over from a previous run end at start where the store can tell: all on SQLite, none on PostgreSQL', async () => {
  const config = await storeConfig()
  const store = await open(config)
  await store.saveInquiry(inquiry(), queue)
  const now = Date.now() + 1000
  expect(await store.claimDueMail(now, 10, 'previous-run', 60_000)).toHaveLength(1)
  await store.releaseLeftoverLeases()
  // PostgreSQL may be shared with instances that are running: their leases are left to run out.
  expect(await store.claimDueMail(now, 10, 'this-run', 60_000)).toHaveLength(config.databaseUrl ? 0 : 1)
})

test('every process on a store gets the same secret: the first one to ask creates it', async () => {
  const config = await storeConfig()
  const [a, b] = [await open(config), await open(config)]
  const [first, second] = await Promise.all([a.secret(), b.secret()])
  expect(first).toMatch(/^[A-Za-z0-9_-]{32,}$/)
  expect(second).toBe(first)
  const later = await open(config)
  expect(await later.secret()).toBe(first)
  // Another store has another secret.
  expect(await (await open(await storeConfig())).secret()).not.toBe(first)
})

test('sent, retried and failed mail is recorded, and failed mail can be queued again with a new Message-ID', async () => {
  const store = await open(await storeConfig())
  const ids: number[] = []
  for (let i = 0; i < 3; i++) ids.push(((await store.saveInquiry(inquiry(), queue)) as { id: number }).id)
  const now = Date.now() + 1000
  const items = await store.claimDueMail(now, 10, 'me', 60_000)
  expect(items.map((item) => item.inquiry.id)).toEqual(ids)
  await store.markSent(items[0]!.id, now)
  await store.markRetry(items[1]!.id, now + 2_000, '451 try later')
  await store.markFailed(items[2]!.id, '550 no such user', now)
  expect(await store.outboxStatus(ids[0]!)).toEqual({ status: 'sent', attempts: 1, lastError: null })
  expect(await store.outboxStatus(ids[1]!)).toEqual({ status: 'pending', attempts: 1, lastError: '451 try later' })
  expect(await store.outboxStatus(ids[2]!)).toEqual({ status: 'failed', attempts: 1, lastError: '550 no such user' })
  expect(await store.outboxHealth()).toMatchObject({ pending: 1, failed: 1, failingSince: expect.any(Number) })
  expect(await store.nextDueAt()).toBe(now + 2_000)
  expect((await store.listOutbox('failed')).map((row) => row.inquiryId)).toEqual([ids[2]])

  expect(await store.requeueFailed(now)).toBe(1)
  const [again] = (await store.claimDueMail(now, 10, 'me', 60_000)).filter((item) => item.inquiry.id === ids[2])
  expect(again!.messageId).toContain('-resend1@')
  expect(await store.requeueMail(ids[0]!, now, 'other@example.org')).toBe(true)
  expect((await store.listOutbox('pending')).find((row) => row.inquiryId === ids[0])?.mailTo).toBe('other@example.org')
  expect(await store.requeueMail(999_999, now)).toBe(false)
})

test('the inbox lists, filters and counts per domain and UTC day', async () => {
  const store = await open(await storeConfig())
  const day = Date.UTC(2026, 10, 22, 23, 30)
  await store.saveInquiry(inquiry({ domain: 'a.de', createdAt: day }), queue)
  await store.saveInquiry(inquiry({ domain: 'a.de', createdAt: day + 60 * 60_000 }), queue)
  await store.saveInquiry(inquiry({ domain: 'b.de', createdAt: day, spamReason: 'too-fast' }), { queue: false })
  await store.addPageViews([
    { domain: 'a.de', day: '2026-11-22', views: 3 },
    { domain: 'c.de', day: '2026-11-23', views: 1 },
  ])
  await store.addPageViews([{ domain: 'a.de', day: '2026-11-22', views: 2 }])
  expect((await store.listInquiries({ domain: 'a.de' })).map((row) => row.createdAt)).toEqual([day + 60 * 60_000, day])
  expect(await store.listInquiries({ spam: true })).toEqual([expect.objectContaining({ domain: 'b.de', mailStatus: null })])
  expect(await store.listInquiries({ limit: 1 })).toHaveLength(1)
  expect(await store.listInquiries({ since: day + 1, until: day + 2 * 60 * 60_000 })).toHaveLength(1)
  expect(await store.dailyStats({})).toEqual([
    { domain: 'a.de', day: '2026-11-22', views: 5, inquiries: 1, spam: 0 },
    { domain: 'b.de', day: '2026-11-22', views: 0, inquiries: 0, spam: 1 },
    { domain: 'a.de', day: '2026-11-23', views: 0, inquiries: 1, spam: 0 },
    { domain: 'c.de', day: '2026-11-23', views: 1, inquiries: 0, spam: 0 },
  ])
  expect(await store.dailyStats({ domain: 'c.de', sinceDay: '2026-11-23' })).toEqual([{ domain: 'c.de', day: '2026-11-23', views: 1, inquiries: 0, spam: 0 }])
})

test('a second start on the same data finds it, and the schema is not migrated twice', async () => {
  const config = await emptyStoreConfig()
  const first = await openStore(config)
  const saved = (await first.saveInquiry(inquiry(), queue)) as { id: number }
  await first.close()
  const [a, b] = await Promise.all([open(config), open(config)])
  expect((await a.getInquiry(saved.id))?.id).toBe(saved.id)
  expect((await b.getInquiry(saved.id))?.id).toBe(saved.id)
})

test('a store made before the query layer is taken over as it is: its offers become euro offers, nothing runs twice', async () => {
  const config = await emptyStoreConfig()
  // The schema steps as the program before Kysely's Migrator ran them, and the version it recorded.
  const postgres = config.databaseUrl !== undefined
  await oldSchema(config, postgres ? 6 : 5)
  await queryStore(
    config.dataDir,
    `INSERT INTO inquiries (token, content_hash, domain, name, email, message, offer_eur, below_minimum, created_at)
     VALUES ('oldtoken0000000', 'h', 'example.de', 'Erika', 'erika@example.de', 'Alt', 4900, 0, 1)`,
  )
  const [a, b] = await Promise.all([open(config), open(config)])
  // Every inquiry from before English pages was written on a German one.
  expect(await a.findInquiry('oldtoken0000000', 'h')).toMatchObject({ offer: { amount: 4900, currency: 'EUR' }, message: 'Alt', language: 'de' })
  expect((await b.saveInquiry(inquiry({ offer: { amount: 10, currency: 'USD' } }), queue)).status).toBe('created')
  const recorded = await queryStore<{ name: string }>(config.dataDir, 'SELECT name FROM kysely_migration ORDER BY name')
  const all = stepsOf(postgres ? 'postgres' : 'sqlite').length
  expect(recorded.map((row) => row.name)).toHaveLength(all)
  // The old version marker moves on too, so that the program before refuses the newer schema instead of using it.
  const version = postgres
    ? (await queryStore<{ version: number }>(config.dataDir, 'SELECT version FROM schema_version'))[0]!.version
    : (await queryStore<{ user_version: number }>(config.dataDir, 'PRAGMA user_version'))[0]!.user_version
  expect(version).toBe(all)
})

test('rate-limit counters are shared by every process on the store', async () => {
  const config = await storeConfig()
  await open(config) // creates the schema (PostgreSQL keeps the counters in it)
  const stores = await Promise.all([openRateLimitStore(config, 'secret-of-the-test'), openRateLimitStore(config, 'secret-of-the-test')])
  onTestFinished(async () => {
    await Promise.all(stores.map((s) => s.close()))
  })
  const [a, b] = stores.map(({ Store }) => new Store({}).child({ routeInfo: { method: 'POST', url: '/api/contact' } }))
  const incr = (s: typeof a, key: string, window: number) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) => s!.incr(key, (e, r) => (e ? reject(e) : resolve(r)), window))
  expect((await incr(a, '203.0.113.7', 60_000)).current).toBe(1)
  expect((await incr(b, '203.0.113.7', 60_000)).current).toBe(2)
  expect((await incr(a, '198.51.100.1', 60_000)).current).toBe(1)
  // A window that has run out starts again. The stores read the time from Date.now(): the test moves that clock.
  vi.useFakeTimers({ toFake: ['Date'] })
  expect((await incr(a, '192.0.2.1', 60_000)).current).toBe(1)
  vi.advanceTimersByTime(60_000)
  expect((await incr(b, '192.0.2.1', 60_000)).current).toBe(1)
})

test('a quota taken from by many at once, in two processes, stops at its maximum; what is given back is free again', async () => {
  const config = await storeConfig()
  await open(config)
  const stores = await Promise.all([openRateLimitStore(config, 'secret-of-the-test'), openRateLimitStore(config, 'secret-of-the-test')])
  onTestFinished(async () => {
    await Promise.all(stores.map((s) => s.close()))
  })
  const [a, b] = stores.map((limits) => limits.quota('accepted inquiries'))
  const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).take('203.0.113.7', 5, 60_000)))
  const taken = takes.filter((t) => t.status === 'taken')
  expect(taken).toHaveLength(5)
  const full = takes.find((t) => t.status === 'full')
  expect(full?.status === 'full' && full.retryAfterMs).toBeGreaterThan(0)
  await taken[0]!.giveBack()
  expect((await b!.take('203.0.113.7', 5, 60_000)).status).toBe('taken')
  expect((await a!.take('203.0.113.7', 5, 60_000)).status).toBe('full')
  expect((await a!.take('198.51.100.1', 5, 60_000)).status).toBe('taken')
})

test('names under a wildcard are approved up to the daily limit by every process together, each name counted once', async () => {
  const config = await storeConfig()
  const [a, b] = [await open(config), await open(config)]
  const ask = (store: Store, name: string, day = '2026-11-02') => store.approveWildcardName({ wildcard: '*.parked.de', name, day, limit: 5 })
  // 20 different names asked at once through two processes, each twice: 5 approved, and asked again they still are.
  const names = Array.from({ length: 20 }, (_, i) => `n${i}.parked.de`)
  const answers = await Promise.all(names.flatMap((name, i) => [ask(i % 2 ? a : b, name), ask(i % 2 ? b : a, name)]))
  const approved = names.filter((_, i) => answers[2 * i])
  expect(approved).toHaveLength(5)
  expect(names.every((_, i) => answers[2 * i] === answers[2 * i + 1])).toBe(true)
  for (const name of approved) expect(await ask(b, name, '2026-11-03')).toBe(true)
  expect(
    await ask(
      a,
      names.find((name) => !approved.includes(name))!,
    ),
  ).toBe(false)
  // A new day has a new limit; other wildcards have their own.
  expect(await ask(a, 'new.parked.de', '2026-11-03')).toBe(true)
  expect(await a.approveWildcardName({ wildcard: '*.other.de', name: 'x.other.de', day: '2026-11-02', limit: 5 })).toBe(true)
})
