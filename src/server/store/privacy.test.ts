// GDPR on the store of the test project (SQLite, or a real PostgreSQL server): access, erasure by address, retention,
// and that nothing of an erased person is left in any table.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { afterEach, describe, expect, test } from 'vitest'
import { leftoversOf, tablesOf } from '../../../tests/helpers/leftovers.ts'
import { databaseUrlFor, onPostgres, queryStore } from '../../../tests/helpers/postgres.ts'
import { eraseExpired } from '../jobs/retention.ts'
import { erasePerson } from '../privacy/erase.ts'
import { openStore } from './index.ts'
import type { NewInquiry, Store } from './types.ts'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function open(): Promise<{ store: Store; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'privacy-store-'))
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  cleanups.push(() => store.close())
  return { store, dataDir }
}

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 2, 12)
let counter = 0
function inquiry(overrides: Partial<NewInquiry> = {}): NewInquiry {
  counter++
  return {
    token: `ptoken${String(counter).padStart(10, '0')}`,
    contentHash: `hash-${counter}`,
    domain: 'example.de',
    name: 'Max Muster',
    email: 'max@example.org',
    message: `Nachricht ${counter}`,
    language: 'de',
    spamReason: null,
    offer: null,
    belowMinimum: false,
    createdAt: NOW - DAY,
    ...overrides,
  }
}

async function save(store: Store, overrides: Partial<NewInquiry> = {}) {
  const saved = await store.saveInquiry(inquiry(overrides), { queue: true, mailTo: null })
  if (saved.status !== 'created') throw new Error('not created')
  return saved.id
}

/** A webhook row, as the notifications part queues one. */
async function addWebhookRow(dataDir: string, inquiryId: number) {
  await queryStore(
    dataDir,
    `INSERT INTO outbox (inquiry_id, message_id, status, attempts, next_attempt_at, created_at, resends, webhook_url) VALUES (?, ?, 'pending', 0, ?, ?, 0, ?)`,
    [inquiryId, `<hook-${inquiryId}@example.de>`, NOW, NOW, 'https://hooks.example.net/x'],
  )
}

/** Erika's inquiries, each with a reply, a webhook row and an .eml file; Max's one to stay. */
async function seedPerson(store: Store, dataDir: string) {
  const erika = [
    await save(store, {
      name: 'Erika Zwirbelmeier',
      email: 'Erika.Zwirbel@Example.ORG',
      message: 'Angebot Zwirbelkuchen',
      offer: { amount: 900, currency: 'EUR' },
    }),
    await save(store, { name: 'Erika Zwirbelmeier', email: 'erika.zwirbel@example.org', domain: 'xn--mnchen-3ya.de', message: 'Noch eine Zwirbelfrage' }),
  ]
  const replyIds = []
  for (const id of erika) {
    replyIds.push(
      (await store.addReply({
        inquiryId: id,
        body: `Antwort an Zwirbel ${id}`,
        to: 'erika.zwirbel@example.org',
        replyTo: 'owner@example.org',
        createdAt: NOW,
      }))!,
    )
    await addWebhookRow(dataDir, id)
    await store.addAuditEntry({ at: NOW, actor: 'CLI', action: 'reply', outcome: 'ok', inquiryId: id, domain: 'example.de' })
  }
  const max = await save(store)
  await store.addPageViews([{ domain: 'example.de', day: '2026-11-01', views: 7 }])
  const mailDir = path.join(dataDir, 'mail')
  fs.mkdirSync(mailDir, { recursive: true })
  const files = [...erika.map((id) => `inquiry-${id}.eml`), ...replyIds.map((id) => `reply-${id}.eml`), `inquiry-${max}.eml`]
  for (const name of files) fs.writeFileSync(path.join(mailDir, name), 'Subject: x\n\nx\n')
  return { erika, replyIds, max, mailDir }
}

const ERIKA_TEXTS = ['erika.zwirbel@example.org', 'Zwirbelmeier', 'Zwirbelkuchen', 'Zwirbelfrage', 'Antwort an Zwirbel']

describe('access (Art. 15)', () => {
  test('finds every inquiry of an address whatever its case, with replies, mail rows and webhook rows', async () => {
    const { store, dataDir } = await open()
    const { erika, replyIds } = await seedPerson(store, dataDir)
    const data = await store.personData('ERIKA.zwirbel@example.org')
    expect(data.map((entry) => entry.inquiry.id)).toEqual(erika)
    expect(data[0]!.inquiry).toMatchObject({
      name: 'Erika Zwirbelmeier',
      email: 'Erika.Zwirbel@Example.ORG',
      message: 'Angebot Zwirbelkuchen',
      status: 'answered',
      offer: { amount: 900, currency: 'EUR' },
    })
    expect(data[0]!.replies).toEqual([expect.objectContaining({ id: replyIds[0], kind: 'reply', body: `Antwort an Zwirbel ${erika[0]}` })])
    // The owner's mail, the reply's mail and the webhook.
    expect(data[0]!.mails.map((mail) => [mail.replyId, mail.webhookUrl])).toEqual([
      [null, null],
      [replyIds[0], null],
      [null, 'https://hooks.example.net/x'],
    ])
    expect(await store.personData('nobody@example.org')).toEqual([])
  })

  test('finds the inquiries of every spelling of the mailbox: full-width, Unicode, punycode, case; Gmail without dots and tags', async () => {
    const { store } = await open()
    const box = [
      await save(store, { email: 'Opfer@MÜNCHEN.de' }),
      await save(store, { email: 'opfer@xn--mnchen-3ya.de' }),
      await save(store, { email: 'opfer@ｍüｎｃｈｅｎ．ｄｅ' }),
    ]
    const others = [
      await save(store, { email: 'opfer+x@münchen.de' }),
      await save(store, { email: 'op.fer@münchen.de' }),
      await save(store, { email: 'opfer@muenchen.de' }),
    ]
    const gmail = [await save(store, { email: 'O.p.f.e.r+werbung@googlemail.com' }), await save(store, { email: 'opfer@ｇｍａｉｌ.com' })]
    const ids = async (email: string) => (await store.personData(email)).map((entry) => entry.inquiry.id)
    expect(await ids('opfer@münchen.de')).toEqual(box)
    expect(await ids('OPFER@XN--MNCHEN-3YA.DE')).toEqual(box)
    expect(await ids('opfer+x@xn--mnchen-3ya.de')).toEqual([others[0]])
    expect(await ids('opfer@gmail.com')).toEqual(gmail)
    expect((await store.eraseByEmail('o.pfer+y@gmail.com')).inquiries.map(({ id }) => id)).toEqual(gmail)
    expect((await store.eraseByEmail('opfer@ｍüｎｃｈｅｎ.de')).inquiries.map(({ id }) => id)).toEqual(box)
    expect(await ids('op.fer@münchen.de')).toEqual([others[1]])
    expect(await ids('opfer@muenchen.de')).toEqual([others[2]])
  })

  test('the lookup by address uses the inquiries_email_stem index', async () => {
    const { store, dataDir } = await open()
    await seedPerson(store, dataDir)
    // The expressions of store/privacy.ts, which must stay those of the index.
    if (!onPostgres()) {
      const db = new DatabaseSync(path.join(dataDir, 'domain-lander.sqlite'))
      try {
        const plan = db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT i.id, i.email FROM inquiries AS i WHERE lower(replace(substr(i.email, 1, CASE WHEN instr(i.email, '+') BETWEEN 1 AND instr(i.email, '@') THEN instr(i.email, '+') ELSE instr(i.email, '@') END - 1), '.', '')) = ? ORDER BY i.created_at, i.id`,
          )
          .all('erikazwirbel')
        expect(plan.map((row) => row.detail).join('\n')).toMatch(/SEARCH i USING INDEX inquiries_email_stem/)
      } finally {
        db.close()
      }
      return
    }
    const client = new pg.Client({ connectionString: await databaseUrlFor(dataDir) })
    await client.connect()
    try {
      // A handful of rows are read faster without any index: tell the planner that scanning is out of the question.
      await client.query('SET enable_seqscan = off')
      const plan = await client.query(
        `EXPLAIN SELECT i.id, i.email FROM inquiries AS i WHERE lower(replace(split_part(split_part(i.email, '@', 1), '+', 1), '.', '')) = $1 ORDER BY i.created_at, i.id`,
        ['erikazwirbel'],
      )
      expect(plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')).toContain('inquiries_email_stem')
    } finally {
      await client.end()
    }
  })
})

describe('erasure (Art. 17)', () => {
  test('forgetting an address leaves nothing of it in any table, removes its .eml files, and keeps the rest', async () => {
    const { store, dataDir } = await open()
    const { erika, replyIds, max, mailDir } = await seedPerson(store, dataDir)
    expect(await leftoversOf(dataDir, { texts: ERIKA_TEXTS, inquiryIds: erika, replyIds })).not.toEqual([])

    const erased = await erasePerson(store, dataDir, 'erika.ZWIRBEL@example.org')
    expect(erased).toEqual({
      inquiries: [
        { id: erika[0], domain: 'example.de' },
        { id: erika[1], domain: 'xn--mnchen-3ya.de' },
      ],
      replyIds,
      outboxRows: 6,
      auditRows: 2,
      keptInvoices: [],
      files: 4,
    })
    expect(await leftoversOf(dataDir, { texts: ERIKA_TEXTS, inquiryIds: erika, replyIds })).toEqual([])
    expect(fs.readdirSync(mailDir)).toEqual([`inquiry-${max}.eml`])
    expect((await store.getInquiry(max))?.email).toBe('max@example.org')
    expect(await store.dailyStats({})).toEqual(expect.arrayContaining([expect.objectContaining({ day: '2026-11-01', views: 7 })]))
    // The search finds nothing of her any more, and still finds the others.
    expect(await store.consoleInquiries({ limit: 10, words: ['zwirbelkuchen'] })).toEqual([])
    expect((await store.consoleInquiries({ limit: 10, words: ['max'] })).map((row) => row.id)).toEqual([max])
    expect(await store.eraseByEmail('erika.zwirbel@example.org')).toEqual({ inquiries: [], replyIds: [], outboxRows: 0, auditRows: 0, keptInvoices: [] })
  })

  test('the tables looked through are the whole schema, as the database lists it', async () => {
    const { dataDir } = await open()
    const tables = await tablesOf(dataDir)
    expect(tables).toEqual(expect.arrayContaining(['inquiries', 'replies', 'outbox', 'meta', 'page_views', 'sessions', 'tls_names']))
    if (!onPostgres()) expect(tables).toEqual(expect.arrayContaining(['inquiries_fts', 'inquiries_fts_data', 'inquiries_fts_docsize']))
  })
})

describe('retention', () => {
  test('erases, batch by batch, what is older than the limit, unless a reply came later; page views stay', async () => {
    const { store, dataDir } = await open()
    const old = []
    for (let i = 0; i < 5; i++) old.push(await save(store, { createdAt: NOW - 40 * DAY - i, name: `Altkunde Rumpelstilz ${i}`, email: `alt${i}@example.org` }))
    const talkedLately = await save(store, { createdAt: NOW - 50 * DAY })
    await store.addReply({ inquiryId: talkedLately, body: 'noch im Gespräch', to: 'max@example.org', replyTo: 'owner@example.org', createdAt: NOW - 5 * DAY })
    const oldReply = (await store.addReply({
      inquiryId: old[0]!,
      body: 'Rumpelstilz-Antwort',
      to: 'alt0@example.org',
      replyTo: 'owner@example.org',
      createdAt: NOW - 39 * DAY,
    }))!
    const recent = await save(store, { createdAt: NOW - 29 * DAY })
    await store.addPageViews([{ domain: 'example.de', day: '2026-09-01', views: 3 }])
    fs.mkdirSync(path.join(dataDir, 'mail'))
    fs.writeFileSync(path.join(dataDir, 'mail', `inquiry-${old[1]}.eml`), 'x')
    fs.writeFileSync(path.join(dataDir, 'mail', `reply-${oldReply}.eml`), 'x')

    expect(await store.staleInquiries(NOW - 30 * DAY, 2)).toEqual([old[4], old[3]])
    const result = await eraseExpired({ store, dataDir, days: 30, now: NOW, batch: 2 })
    expect(result).toEqual({ inquiries: 5, replies: 1, outboxRows: 6, files: 2, keptInvoices: 0 })
    expect(await leftoversOf(dataDir, { texts: ['Rumpelstilz', 'alt0@example.org', 'alt4@example.org'], inquiryIds: old, replyIds: [oldReply] })).toEqual([])
    expect(fs.readdirSync(path.join(dataDir, 'mail'))).toEqual([])
    expect((await store.listInquiries({})).map((row) => row.id).sort()).toEqual([talkedLately, recent].sort())
    expect(await store.dailyStats({ sinceDay: '2026-09-01' })).toEqual(expect.arrayContaining([expect.objectContaining({ day: '2026-09-01', views: 3 })]))
  })

  test('a run told to stop stops between two batches', async () => {
    const { store, dataDir } = await open()
    for (let i = 0; i < 4; i++) await save(store, { createdAt: NOW - 100 * DAY })
    const stop = new AbortController()
    stop.abort()
    await expect(eraseExpired({ store, dataDir, days: 30, now: NOW, batch: 2, signal: stop.signal })).rejects.toThrow()
    expect(await store.staleInquiries(NOW - 30 * DAY, 10)).toHaveLength(4)
  })
})
