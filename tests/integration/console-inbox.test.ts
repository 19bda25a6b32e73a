// Working the inquiries in the console, against the real server process and a real SMTP server: the inbox and its
// filters, an inquiry's thread, replies to the visitor, the owner's actions, export, the outbox and the overview.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail, OutboxPage, Overview } from '../../src/shared/console-api.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR, browserHeaders } from '../helpers/contact.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'
import { databaseUrlFor } from '../helpers/postgres.ts'
import { newInquiry, openTestStore } from '../helpers/store.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-inbox-'))

beforeAll(async () => {
  fs.writeFileSync(
    path.join(dir, 'domains.yaml'),
    `domains:
  beispiel.de: { price: 5000, minOffer: 1000, mailTo: sales@example.org }
  dollar.com: { currency: USD, minOffer: 100 }
  leer.de: {}
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({
    SMTP_URL: smtp.url,
    MAIL_TO: 'owner@example.org',
    DOMAINS_FILE: path.join(dir, 'domains.yaml'),
    CONTACT_RATE_LIMIT: '0',
    MIN_FILL_SECONDS: '0',
  })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A visitor writes from the page of `host`; resolves with the stored inquiry's id (from the inbox). */
async function writeFrom(host: string, fields: Record<string, string> = {}) {
  const { token, hash } = await fetchForm(server.url, host)
  const response = await requestAs(host, `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash, ...fields } })
  expect(response.status).toBe(200)
  const page = await get<InboxPage>('/api/inbox')
  return page.items[0]!.id
}

async function get<T>(pathName: string): Promise<T> {
  const response = await client.call(pathName, { cookie })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as T
}

const send = (pathName: string, body?: unknown, method = 'POST') => client.call(pathName, { method, body, cookie })

describe('the inbox', () => {
  test('shows every inquiry newest first with its domain, first line, offer in the domain’s currency and mail state', async () => {
    const euro = await writeFrom('beispiel.de', { message: 'Erste Zeile\nzweite Zeile', offer: '2.500' })
    const dollar = await writeFrom('dollar.com', { name58fnlsd: 'Ann Lee', message: 'Is it still for sale?', offer: '990' })
    const page = await get<InboxPage>('/api/inbox')
    expect(page.items.slice(0, 2)).toMatchObject([
      { id: dollar, domain: 'dollar.com', name: 'Ann Lee', firstLine: 'Is it still for sale?', offer: '990\u00a0$', status: 'new' },
      { id: euro, domain: 'beispiel.de', firstLine: 'Erste Zeile', offer: '2.500\u00a0€', status: 'new' },
    ])
    expect(page.domains.map((domain) => domain.ascii)).toEqual(expect.arrayContaining(['beispiel.de', 'dollar.com']))
    await expect.poll(async () => (await get<InboxPage>('/api/inbox')).items.find((row) => row.id === euro)?.mail).toBe('sent')
  })

  test('filters by domain, status and free text, and pages with a cursor through everything exactly once', async () => {
    const ids: number[] = []
    for (let i = 0; i < 55; i++) ids.push(await writeFrom('leer.de', { message: `Seitenweise ${i}` }))
    const first = await get<InboxPage>('/api/inbox?domain=leer.de')
    expect(first.items).toHaveLength(50)
    expect(first.next).toEqual(expect.any(String))
    const second = await get<InboxPage>(`/api/inbox?domain=leer.de&cursor=${first.next}`)
    expect(second.next).toBeNull()
    expect([...first.items, ...second.items].map((row) => row.id)).toEqual(ids.reverse())
    expect((await get<InboxPage>('/api/inbox?q=seitenweise%2054')).items.map((row) => row.id)).toEqual([ids[0]])
    expect((await get<InboxPage>('/api/inbox?status=archived&domain=leer.de')).items).toEqual([])
    // Empty fields of the filter form mean "no filter".
    expect((await get<InboxPage>('/api/inbox?domain=&status=&since=&until=&q=')).items).toHaveLength(50)
  })

  test('a bad filter gets the one error body, never a crash', async () => {
    for (const query of ['status=gelesen', 'since=2026-13-45', 'cursor=bm9wZQ', 'domain=-', `q=${'x'.repeat(501)}`]) {
      const response = await client.call(`/api/inbox?${query}`, { cookie })
      expect(response.status, query).toBe(400)
      expect(await response.json()).toEqual({ error: expect.any(String) })
    }
  })
})

describe('an inquiry', () => {
  test('a reply is mailed to the visitor through the outbox, threaded under the owner’s mail, and answers the inquiry', async () => {
    const id = await writeFrom('beispiel.de', { themail3h6: 'kaeufer@example.net', message: 'Was kostet sie?' })
    const ownerMailOf = () => smtp.messages.find((m) => m.parsed.text?.includes('Was kostet sie?'))
    await expect.poll(ownerMailOf).toBeDefined()
    const ownerMail = ownerMailOf()!
    const response = await send(`/api/inquiries/${id}/reply`, { body: 'Guten Tag,\nsie kostet 5.000 €.' })
    expect(response.status).toBe(200)
    const detail = (await response.json()) as InquiryDetail
    expect(detail).toMatchObject({ status: 'answered', price: '5.000\u00a0€', minimum: '1.000\u00a0€', replies: [{ body: 'Guten Tag,\nsie kostet 5.000 €.' }] })
    await expect.poll(() => smtp.messages.find((m) => m.envelope.to.includes('kaeufer@example.net'))).toBeDefined()
    const reply = smtp.messages.find((m) => m.envelope.to.includes('kaeufer@example.net'))!
    expect(reply.parsed.subject).toBe('Re: Anfrage zu beispiel.de')
    expect(reply.parsed.inReplyTo).toBe(ownerMail.parsed.messageId)
    expect(reply.parsed.replyTo?.text).toBe('sales@example.org')
    expect(reply.parsed.text).toContain('sie kostet 5.000 €.')
    await expect.poll(async () => (await get<InquiryDetail>(`/api/inquiries/${id}`)).replies[0]?.mail?.status).toBe('sent')
    expect((await get<InquiryDetail>(`/api/inquiries/${id}`)).ownerMail).toMatchObject({ status: 'sent', messageId: ownerMail.parsed.messageId })
  })

  test('spam is never mailed; marked "Kein Spam" it reaches the owner; archived it leaves the inbox’s new ones', async () => {
    const before = smtp.messages.length
    const id = await writeFrom('leer.de', { name58fnlsdbee: 'bot', message: 'Fast ein Spam' })
    expect(await get<InquiryDetail>(`/api/inquiries/${id}`)).toMatchObject({ status: 'spam', spamReason: 'decoy-filled', ownerMail: null })
    expect((await send(`/api/inquiries/${id}/action`, { action: 'archive' })).status).toBe(409)
    const marked = (await (await send(`/api/inquiries/${id}/action`, { action: 'not-spam' })).json()) as InquiryDetail
    expect(marked).toMatchObject({ status: 'new', spamReason: null })
    await expect.poll(() => smtp.messages.slice(before).find((m) => m.parsed.text?.includes('Fast ein Spam'))).toBeDefined()
    expect((await send(`/api/inquiries/${id}/action`, { action: 'archive' })).status).toBe(200)
    expect((await get<InboxPage>('/api/inbox?status=archived')).items.map((row) => row.id)).toContain(id)
    expect((await get<InboxPage>('/api/inbox?status=new')).items.map((row) => row.id)).not.toContain(id)
    expect((await send(`/api/inquiries/${id}/action`, { action: 'spam' })).status).toBe(200)
    expect((await get<InquiryDetail>(`/api/inquiries/${id}`)).status).toBe('spam')
  })

  test('erasing an inquiry removes it everywhere; unknown and malformed ids and empty replies get clear errors', async () => {
    const id = await writeFrom('leer.de', { message: 'Bitte löschen Sie mich' })
    expect((await send(`/api/inquiries/${id}`, undefined, 'DELETE')).status).toBe(200)
    expect((await client.call(`/api/inquiries/${id}`, { cookie })).status).toBe(404)
    expect((await get<InboxPage>('/api/inbox?q=bitte%20l%C3%B6schen')).items).toEqual([])
    expect((await send(`/api/inquiries/${id}`, undefined, 'DELETE')).status).toBe(404)
    expect((await client.call('/api/inquiries/abc', { cookie })).status).toBe(400)
    const other = await writeFrom('leer.de')
    expect((await send(`/api/inquiries/${other}/reply`, { body: '   ' })).status).toBe(400)
    expect((await send(`/api/inquiries/${other}/action`, { action: 'verkaufen' })).status).toBe(400)
  })
})

describe('export, outbox and overview', () => {
  test('export gives the current filter as CSV no spreadsheet runs as a formula, and as JSON', async () => {
    const id = await writeFrom('leer.de', { name58fnlsd: '=HYPERLINK("http://evil.example")', message: 'Exportiere mich' })
    const csvResponse = await client.call('/api/export?format=csv&q=exportiere', { cookie })
    expect(csvResponse.headers.get('content-disposition')).toMatch(/^attachment; filename="anfragen-\d{4}-\d{2}-\d{2}\.csv"$/)
    const rows = parse((await csvResponse.text()).replace(/^\ufeff/, ''), { columns: true }) as Record<string, string>[]
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ id: String(id), name: `'=HYPERLINK("http://evil.example")`, message: 'Exportiere mich' })
    const json = (await (await client.call('/api/export?format=json&domain=leer.de', { cookie })).json()) as { id: number }[]
    expect(json.length).toBeGreaterThan(55)
    expect(json[0]!.id).toBe(id)
  })

  test('failed mail is listed in the Postausgang with its error and goes out when sent again', async () => {
    smtp.mode = 'permfail'
    const id = await writeFrom('leer.de', { message: 'Kommt erst beim zweiten Mal an' })
    let failed: OutboxPage['items'][number] | undefined
    await expect
      .poll(async () => (failed = (await get<OutboxPage>('/api/outbox')).items.find((row) => row.inquiryId === id && row.status === 'failed')))
      .toBeDefined()
    expect(failed).toMatchObject({ kind: 'inquiry', lastError: expect.stringContaining('550') })
    smtp.mode = 'ok'
    expect((await send(`/api/outbox/${failed!.id}/resend`)).status).toBe(200)
    await expect.poll(() => smtp.messages.find((m) => m.parsed.text?.includes('Kommt erst beim zweiten Mal an'))).toBeDefined()
    await expect.poll(async () => (await get<OutboxPage>('/api/outbox')).items.some((row) => row.inquiryId === id)).toBe(false)
  })

  test('a Postausgang longer than a page is paged ("Weitere laden"), never cut off', async () => {
    // Written straight into the server's store, as 210 visitors would; the server's worker tries each and fails it.
    const store = await openTestStore({ dataDir: server.dataDir, databaseUrl: await databaseUrlFor(server.dataDir) })
    smtp.mode = 'permfail'
    const made = new Set<number>()
    try {
      for (let i = 0; i < 210; i++) {
        const saved = await store.saveInquiry(newInquiry({ domain: 'leer.de', message: `Postausgang ${i}` }), { queue: true, mailTo: null })
        if (saved.status === 'created') made.add(saved.id)
      }
      expect(made.size).toBe(210)
      const all = async () => {
        const rows: OutboxPage['items'] = []
        let page = await get<OutboxPage>('/api/outbox')
        const pages = [page]
        rows.push(...page.items)
        while (page.next) {
          page = await get<OutboxPage>(`/api/outbox?cursor=${encodeURIComponent(page.next)}`)
          pages.push(page)
          rows.push(...page.items)
        }
        return { rows, pages }
      }
      await expect
        .poll(async () => (await all()).rows.filter((row) => row.inquiryId !== null && made.has(row.inquiryId) && row.status === 'failed').length, {
          timeout: 60_000,
        })
        .toBe(210)
      const { rows, pages } = await all()
      expect(pages.length).toBeGreaterThan(1)
      expect(pages[0]!.items).toHaveLength(200)
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length)
      expect(rows.map((row) => row.createdAt)).toEqual(rows.map((row) => row.createdAt).sort((a, b) => a - b))
      const html = await (await client.call('/postausgang', { cookie })).text()
      expect(html).toMatch(/<button[^>]*>Weitere laden<\/button>/)
      expect((await client.call('/api/outbox?cursor=bm9wZQ', { cookie })).status).toBe(400)
    } finally {
      smtp.mode = 'ok'
    }
  }, 120_000)

  test('the overview counts views, inquiries and offers per domain for the chosen days', async () => {
    // A browser's visit (a bare request is no visit, decision 049).
    await requestAs('dollar.com', `${server.url}/`, { headers: browserHeaders() })
    await writeFrom('dollar.com', { offer: '1500' })
    let overview: Overview | undefined
    // Visits reach the store in batches: wait for them.
    await expect
      .poll(async () => (overview = await get<Overview>('/api/overview?days=7')).domains.find((d) => d.domainAscii === 'dollar.com')?.views ?? 0)
      .toBeGreaterThan(0)
    const dollar = overview!.domains.find((d) => d.domainAscii === 'dollar.com')!
    expect(overview!.days).toBe(7)
    expect(dollar.daily).toHaveLength(7)
    expect(dollar).toMatchObject({ highestOffer: '1.500\u00a0$', medianOffer: expect.stringContaining('$'), highestAmount: { amount: 1500, currency: 'USD' } })
    expect(dollar.medianAmount).toMatchObject({ currency: 'USD' })
    expect(dollar.inquiries).toBeGreaterThanOrEqual(2)
    expect(overview!.visits.names.find((n) => n.domainAscii === 'dollar.com')).toMatchObject({
      visits: 1,
      visitors: 1,
      highestOffer: { amount: 1500, currency: 'USD' },
    })
    expect((await client.call('/api/overview?days=365', { cookie })).status).toBe(200)
    expect((await client.call('/api/overview?days=8', { cookie })).status).toBe(400)
  })
})
