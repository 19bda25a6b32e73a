// The console's part of the store contract, on the store of the test project (SQLite, or a real PostgreSQL server).
import { describe, expect, onTestFinished, test } from 'vitest'
import { newInquiry, openTestStore } from '../../../tests/helpers/store.ts'
import { SEARCH_BOUNDS } from './inbox.ts'
import type { NewInquiry, Store } from './types.ts'

const open = () => openTestStore()

let counter = 0
const T0 = Date.UTC(2026, 10, 1, 12)
/** Inquiries one second apart, in the order they are made. */
const inquiry = (overrides: Partial<NewInquiry> = {}) => newInquiry({ createdAt: T0 + ++counter * 1000, ...overrides })
const queue = { queue: true, mailTo: null } as const

async function save(store: Store, overrides: Partial<NewInquiry> = {}, mail: typeof queue | { queue: false } = queue) {
  const saved = await store.saveInquiry(inquiry(overrides), mail)
  if (saved.status !== 'created') throw new Error('not created')
  return saved.id
}

const ids = (rows: { id: number }[]) => rows.map((row) => row.id)

describe('the inbox query', () => {
  test('lists newest first, and pages by (time, id) without gaps or repeats, also when times are equal', async () => {
    const store = await open()
    const same = T0 + 5_000_000
    const all = [
      await save(store),
      await save(store, { createdAt: same }),
      await save(store, { createdAt: same }),
      await save(store, { createdAt: same }),
      await save(store),
    ]
    const first = await store.consoleInquiries({ limit: 2 })
    expect(first).toHaveLength(2)
    const second = await store.consoleInquiries({ limit: 2, before: { createdAt: first[1]!.createdAt, id: first[1]!.id } })
    const third = await store.consoleInquiries({ limit: 2, before: { createdAt: second[1]!.createdAt, id: second[1]!.id } })
    const paged = [...first, ...second, ...third]
    expect(ids(paged).sort()).toEqual([...all].sort())
    expect(paged.map((row) => row.createdAt)).toEqual([...paged.map((row) => row.createdAt)].sort((a, b) => b - a))
    expect(ids(paged.filter((row) => row.createdAt === same))).toEqual([all[3], all[2], all[1]])
  })

  test('filters by domain, status and time, and combines them', async () => {
    const store = await open()
    const a = await save(store, { domain: 'a.example' })
    const b = await save(store, { domain: 'b.example' })
    const spam = await save(store, { domain: 'a.example', spamReason: 'decoy-filled' }, { queue: false })
    const later = await save(store, { domain: 'a.example', createdAt: T0 + 10 * 86_400_000 })
    expect(ids(await store.consoleInquiries({ limit: 10, domain: 'a.example' }))).toEqual([later, spam, a])
    expect(ids(await store.consoleInquiries({ limit: 10, status: 'spam' }))).toEqual([spam])
    expect(ids(await store.consoleInquiries({ limit: 10, status: 'new', domain: 'a.example' }))).toEqual([later, a])
    expect(ids(await store.consoleInquiries({ limit: 10, since: T0 + 5 * 86_400_000 }))).toEqual([later])
    expect(ids(await store.consoleInquiries({ limit: 10, until: T0 + 5 * 86_400_000, domain: 'b.example' }))).toEqual([b])
    expect(await store.inquiryDomains()).toEqual(['a.example', 'b.example'])
    const [row] = await store.consoleInquiries({ limit: 1, status: 'spam' })
    expect(row).toMatchObject({ status: 'spam', mailStatus: null, spamReason: 'decoy-filled' })
  })

  test('free text finds every word in name, e-mail or message, as a word or (with *) the start of one, case aside', async () => {
    const store = await open()
    const mueller = await save(store, { name: 'Jörg Müller', email: 'joerg.mueller@mailbox.example', message: 'Guten Tag,\nich biete für die Domain.' })
    const other = await save(store, { name: 'Ann Lee', email: 'ann@lee.example', message: 'Is the domain still available?' })
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['mailbox'] }))).toEqual([mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['joerg'] }))).toEqual([mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['müll*'] }))).toEqual([mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['müll'] }))).toEqual([])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['dom*'] }))).toEqual([other, mueller])
    const elsewhere = await save(store, { domain: 'beispiel-domain.example', message: 'Domain gesucht' })
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain'], domain: 'example.de' }))).toEqual([other, mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain'], domain: 'beispiel-domain.example' }))).toEqual([elsewhere])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain'], domain: 'example' }))).toEqual([])
    // A search pages by id, newest first.
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain'], before: { createdAt: 0, id: other } }))).toEqual([mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain'] }))).toEqual([elsewhere, other, mueller])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['domain', 'available'] }))).toEqual([other])
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['nothinglikethis'] }))).toEqual([])
    // A word that is also search syntax is searched as a word.
    expect(ids(await store.consoleInquiries({ limit: 10, words: ['or'] }))).toEqual([])
  })

  test('a search finds the same pages whether its matches are recent, few or many and old (each way PostgreSQL searches)', async () => {
    // Bounds of a few rows, so that each step of PostgreSQL's search is taken here; SQLite has one way and must agree.
    const bounds = { ...SEARCH_BOUNDS }
    Object.assign(SEARCH_BOUNDS, { window: 4, rareMatches: 2 })
    onTestFinished(() => void Object.assign(SEARCH_BOUNDS, bounds))
    const store = await open()
    const all: number[] = []
    for (let n = 0; n < 16; n++) {
      const words = [n < 6 ? 'alt' : 'neu', n === 2 || n === 9 ? 'selten' : 'oft', n % 2 ? 'ungerade' : 'gerade']
      all.push(await save(store, { message: words.join(' '), domain: n % 4 === 0 ? 'b.example' : 'a.example' }))
    }
    const newestFirst = (pick: (n: number) => boolean) => all.filter((_, n) => pick(n)).reverse()
    const pages = async (words: string[], domain?: string) => {
      const found: number[] = []
      for (let before: number | undefined; ;) {
        const page = await store.consoleInquiries({ limit: 2, words, domain, before: before === undefined ? undefined : { createdAt: 0, id: before } })
        found.push(...ids(page))
        if (page.length < 2) return found
        before = page[1]!.id
      }
    }
    // Recent: the newest inquiries hold a page.
    expect(await pages(['neu'])).toEqual(newestFirst((n) => n >= 6))
    // Few: two matches, found through the word index and sorted.
    expect(await pages(['selten'])).toEqual(newestFirst((n) => n === 2 || n === 9))
    // Many and old: more than the bound, none among the newest.
    expect(await pages(['alt'])).toEqual(newestFirst((n) => n < 6))
    // Every filter holds in each step.
    expect(await pages(['alt'], 'b.example')).toEqual(newestFirst((n) => n < 6 && n % 4 === 0))
    expect(await pages(['gerade'], 'b.example')).toEqual(newestFirst((n) => n % 4 === 0))
    expect(await pages(['selten', 'ungerade'])).toEqual(newestFirst((n) => n === 9))
  })
})

describe('an inquiry in the console', () => {
  test('a reply is stored, queued to the visitor threaded under the owner’s mail, and answers the inquiry', async () => {
    const store = await open()
    const id = await save(store)
    const replyId = await store.addReply({
      inquiryId: id,
      body: 'Gern, 5.000 €.',
      to: 'erika@example.de',
      replyTo: 'owner@example.org',
      createdAt: T0 + 10_000_000,
    })
    expect(replyId).toEqual(expect.any(Number))
    const thread = await store.inquiryThread(id)
    expect(thread?.inquiry.status).toBe('answered')
    expect(thread?.ownerMail).toMatchObject({ status: 'pending', messageId: expect.stringMatching(/^<inquiry-/) })
    expect(thread?.replies).toEqual([
      { id: replyId, kind: 'reply', amount: null, body: 'Gern, 5.000 €.', createdAt: T0 + 10_000_000, mail: expect.objectContaining({ status: 'pending' }) },
    ])
    const due = await store.claimDueMail(T0 + 20_000_000, 10, 'me', 60_000)
    const reply = due.find((item) => item.reply !== null)
    expect(reply).toMatchObject({
      mailTo: 'erika@example.de',
      reply: { id: replyId, body: 'Gern, 5.000 €.', replyTo: 'owner@example.org', inquiryMessageId: thread!.ownerMail!.messageId },
    })
    expect(due.filter((item) => item.reply === null)).toHaveLength(1)
    expect(await store.addReply({ inquiryId: 999_999, body: 'x', to: 'a@b.example', replyTo: 'c@d.example', createdAt: T0 })).toBeNull()
  })

  test('archived inquiries come back as they were: answered with replies, else new', async () => {
    const store = await open()
    const plain = await save(store)
    const answered = await save(store)
    await store.addReply({ inquiryId: answered, body: 'Hallo', to: 'erika@example.de', replyTo: 'o@example.org', createdAt: T0 })
    for (const id of [plain, answered]) expect(await store.setArchived(id, true)).toBe(true)
    expect(ids(await store.consoleInquiries({ limit: 10, status: 'archived' }))).toEqual([answered, plain])
    for (const id of [plain, answered]) await store.setArchived(id, false)
    expect((await store.inquiryThread(plain))?.inquiry.status).toBe('new')
    expect((await store.inquiryThread(answered))?.inquiry.status).toBe('answered')
  })

  test('marked as spam its pending mail is not sent; marked "Kein Spam" it is mailed to the owner', async () => {
    const store = await open()
    const id = await save(store)
    expect(await store.markSpam(id)).toBe(true)
    expect((await store.inquiryThread(id))?.inquiry).toMatchObject({ status: 'spam', spamReason: 'owner', mailStatus: null })
    expect(await store.claimDueMail(T0 + 20_000_000, 10, 'me', 60_000)).toEqual([])
    const caught = await save(store, { spamReason: 'too-fast' }, { queue: false })
    expect(await store.setArchived(caught, true)).toBe(false)
    expect(await store.markNotSpam(caught, 'sales@example.org', T0 + 20_000_000)).toBe(true)
    expect(await store.markNotSpam(caught, 'sales@example.org', T0 + 20_000_000)).toBe(false)
    expect((await store.inquiryThread(caught))?.inquiry).toMatchObject({ status: 'new', spamReason: null })
    const due = await store.claimDueMail(T0 + 20_000_000, 10, 'me', 60_000)
    expect(due.map((item) => [item.inquiry.id, item.mailTo, item.reply])).toEqual([[caught, 'sales@example.org', null]])
  })

  test('erasing an inquiry removes it with its replies and every mail about it, and from the search', async () => {
    const store = await open()
    const id = await save(store, { message: 'Einzigartigeswort hier' })
    const kept = await save(store)
    await store.addReply({ inquiryId: id, body: 'Antwort', to: 'erika@example.de', replyTo: 'o@example.org', createdAt: T0 })
    expect(await store.deleteInquiry(id)).toBe(true)
    expect(await store.deleteInquiry(id)).toBe(false)
    expect(await store.inquiryThread(id)).toBeNull()
    expect(await store.consoleInquiries({ limit: 10, words: ['einzigartigeswort'] })).toEqual([])
    expect((await store.listMail(['pending'])).map((row) => row.inquiryId)).toEqual([kept])
  })
})

describe('the outbox in the console', () => {
  test('a long outbox is read page by page by (time, id), oldest first, without gaps or repeats and without a cap', async () => {
    const store = await open()
    const same = T0 + 30_000_000
    const made: number[] = []
    for (let i = 0; i < 1005; i++) made.push(await save(store, i % 100 === 0 ? { createdAt: same } : {}))
    const all = await store.listMail(['pending'])
    expect(all).toHaveLength(1005)
    const paged: typeof all = []
    let after: { createdAt: number; id: number } | undefined
    for (let page = 0; page < 5; page++) {
      const rows = await store.listMail(['pending'], { ...(after && { after }), limit: 400 })
      paged.push(...rows)
      if (rows.length < 400) break
      after = { createdAt: rows.at(-1)!.createdAt, id: rows.at(-1)!.id }
    }
    expect(paged.map((row) => row.id)).toEqual(all.map((row) => row.id))
    expect(new Set(paged.map((row) => row.inquiryId))).toEqual(new Set(made))
    expect(paged.map((row) => row.createdAt)).toEqual(paged.map((row) => row.createdAt).sort((a, b) => a - b))
  }, 120_000)

  test('lists pending and failed mail of inquiries and replies; a failed one is queued again with a new Message-ID', async () => {
    const store = await open()
    const id = await save(store)
    await store.addReply({ inquiryId: id, body: 'Antwort', to: 'erika@example.de', replyTo: 'o@example.org', createdAt: T0 + 10_000_000 })
    const [ownerMail, replyMail] = await store.listMail(['pending'])
    expect([ownerMail?.replyId, replyMail?.replyId]).toEqual([null, expect.any(Number)])
    await store.markFailed(replyMail!.id, '550 no such user', T0 + 10_000_001)
    expect((await store.listMail(['failed']))[0]).toMatchObject({ id: replyMail!.id, lastError: '550 no such user', status: 'failed' })
    const before = (await store.inquiryThread(id))!.replies[0]!.mail!.messageId
    // Leased by a process sending it right now: left alone.
    await store.claimDueMail(T0 + 20_000_000, 10, 'busy', 60_000)
    expect(await store.resendMail(ownerMail!.id, T0 + 20_000_001)).toBe(false)
    expect(await store.resendMail(replyMail!.id, T0 + 20_000_001)).toBe(true)
    const after = (await store.inquiryThread(id))!.replies[0]!.mail!
    expect(after).toMatchObject({ status: 'pending', attempts: 0, lastError: null })
    expect(after.messageId).not.toBe(before)
    expect(await store.resendMail(987_654, T0)).toBe(false)
  })

  test('offers since a time are the genuine ones', async () => {
    const store = await open()
    await save(store, { offer: { amount: 900, currency: 'USD' }, domain: 'a.example' })
    await save(store, { offer: { amount: 100, currency: 'EUR' }, spamReason: 'too-fast' }, { queue: false })
    await save(store, { offer: { amount: 50, currency: 'EUR' }, createdAt: T0 - 86_400_000 })
    expect(await store.offersSince(T0)).toEqual([{ domain: 'a.example', amount: 900, currency: 'USD', createdAt: expect.any(Number) }])
  })
})
