// The audit trail (decision 043) against the real server process, a real SMTP server and the test project's store
// (SQLite or PostgreSQL): each change through the console or the CLI writes exactly one row, with the session (or
// "CLI"), the action, its subject and outcome; nothing anyone typed or any secret ends up in the table; another site
// and a stale session write nothing; the console's API and `audit` filter it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditActorOfHash, auditHooks } from '../../src/server/admin/audit/record.ts'
import { hashOfSessionId } from '../../src/server/admin/session/cookie.ts'
import type { AuditPage } from '../../src/shared/audit-api.ts'
import { CONSOLE_HEADER, type InboxPage, type TemplatesPage } from '../../src/shared/console-api.ts'
import type { ImportReport } from '../../src/shared/import-api.ts'
import type { SecondFactorConfirmed, SecondFactorSetup, SessionsPageData } from '../../src/shared/sign-in-api.ts'
import { startApp } from '../helpers/app.ts'
import { runCli, runCliWithInput } from '../helpers/cli.ts'
import { consoleClient, consoleRoutesOf } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const PASSWORD = 'Kanzlei-Rheinblick-2026'
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import')

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-'))
const domainsFile = path.join(dir, 'domains.yaml')

/** Everything secret or typed by someone that the test sends: none of it may reach the table. */
const secrets: string[] = [PASSWORD]

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `domains:
  protokoll.de: { minOffer: 100 }
  verkauf-eins.de: { minOffer: 100 }
  verkauf-zwei.de: { minOffer: 100 }
  verkauf-drei.de: { minOffer: 100 }
  verkauf-vier.de: { minOffer: 100 }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, DOMAINS_FILE: domainsFile, ADMIN_TRUST_PROXY: 'true' })
  client = consoleClient(server, PASSWORD)
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

interface Row {
  id: number
  at: number
  actor: string
  action: string
  outcome: string
  inquiry_id: number | null
  deal_id: number | null
  domain: string | null
  detail: string | null
}

const allRows = async () =>
  (await queryStore<Row>(server.dataDir, 'SELECT * FROM audit_log ORDER BY id')).map((row) => ({
    ...row,
    id: Number(row.id),
    at: Number(row.at),
    inquiry_id: row.inquiry_id === null ? null : Number(row.inquiry_id),
    deal_id: row.deal_id === null ? null : Number(row.deal_id),
  }))

let seen = 0
/** The rows written since the last call. */
async function freshRows(): Promise<Row[]> {
  const rows = await allRows()
  const fresh = rows.slice(seen)
  seen = rows.length
  return fresh
}

/** Exactly one row was written since the last look, and it says this. */
async function expectOneRow(expected: Partial<Row>) {
  const fresh = await freshRows()
  expect(fresh, JSON.stringify(fresh)).toHaveLength(1)
  expect(fresh[0]).toMatchObject(expected)
  return fresh[0]!
}

const actorOf = (sessionCookie: string) => auditActorOfHash(hashOfSessionId(sessionCookie.split('=')[1]!))
const send = (pathName: string, body?: unknown, method = 'POST', as = cookie) => client.call(pathName, { method, body, cookie: as })
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }, ...args)
const codeAt = (secret: string, timestamp: number) => new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp })

let visitors = 0
/** A visitor writes from `host` with an offer; their message and address (and a name of their own) are noted as secrets. */
async function writeFrom(host: string, offer = '500', name = VISITOR.name58fnlsd) {
  const email = `besucher${++visitors}-${process.pid}@example.net`
  const message = `Vertraulich-Nachricht-${visitors}`
  secrets.push(email, message)
  if (name !== VISITOR.name58fnlsd) secrets.push(name)
  const { token, hash } = await fetchForm(server.url, host)
  const response = await requestAs(host, `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, name58fnlsd: name, themail3h6: email, message, offer, token, hash },
  })
  expect(response.status, response.html).toBe(200)
  const page = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const item = page.items.find((row) => row.email === email)!
  return { id: item.id, email }
}

test('every state-changing route of the console declares its audit row: a route without one stops the console from being built', async () => {
  const app = await startApp()
  try {
    const changing = consoleRoutesOf(app.app.admin!).filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method))
    expect(changing).toEqual(expect.arrayContaining([{ method: 'POST', url: '/api/inquiries/:id/reply' }]))
  } finally {
    await app.close()
  }
  const unaudited = Fastify()
  auditHooks(unaudited)
  expect(() => unaudited.post('/api/new-page', async () => ({}))).toThrow('POST /api/new-page declares no audit row')
  expect(() => unaudited.post('/api/new-preview', { config: { audit: null } }, async () => ({}))).not.toThrow()
  await unaudited.close()
})

describe('the audit trail', () => {
  test('signing in: set-password, a wrong password and a right one each write one row, never the password', async () => {
    expect((await client.setPassword()).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'password', outcome: 'ok', inquiry_id: null, domain: null })

    const wrong = await client.call('/api/session', { method: 'POST', body: { password: 'Falsch-Geraten-123' }, client: '198.51.100.7' })
    secrets.push('Falsch-Geraten-123')
    expect(wrong.status).toBe(401)
    await expectOneRow({ actor: 'none', action: 'sign-in', outcome: 'refused', detail: 'password · 198.51.x.x' })

    ;({ cookie } = await client.signIn())
    secrets.push(cookie.split('=')[1]!, hashOfSessionId(cookie.split('=')[1]!))
    await expectOneRow({ actor: actorOf(cookie), action: 'sign-in', outcome: 'ok', detail: 'password · 192.0.x.x' })
    expect(actorOf(cookie)).toMatch(/^session:[\w-]{8}$/)
  })

  test('each step on an inquiry writes one row with the inquiry, its domain and the session; a refused one says so', async () => {
    const inquiry = await writeFrom('protokoll.de')
    expect(await freshRows()).toEqual([])
    const subject = { actor: actorOf(cookie), inquiry_id: inquiry.id, domain: 'protokoll.de', deal_id: null }

    secrets.push('Antworttext-Vertraulich')
    expect((await send(`/api/inquiries/${inquiry.id}/reply`, { body: 'Antworttext-Vertraulich' })).status).toBe(200)
    await expectOneRow({ ...subject, action: 'reply', outcome: 'ok' })

    secrets.push('Gegenangebot-Notiz-Vertraulich')
    expect((await send(`/api/inquiries/${inquiry.id}/counter`, { amount: '2000', note: 'Gegenangebot-Notiz-Vertraulich' })).status).toBe(200)
    await expectOneRow({ ...subject, action: 'counter', outcome: 'ok' })

    for (const action of ['archive', 'unarchive', 'spam', 'not-spam']) {
      expect((await send(`/api/inquiries/${inquiry.id}/action`, { action })).status).toBe(200)
      await expectOneRow({ ...subject, action, outcome: 'ok' })
    }
    // An empty reply is refused: a row with the refusal.
    expect((await send(`/api/inquiries/${inquiry.id}/reply`, { body: '   ' })).status).toBe(400)
    await expectOneRow({ ...subject, action: 'reply', outcome: 'refused' })

    secrets.push('Ablehnung-Notiz-Vertraulich')
    expect((await send(`/api/inquiries/${inquiry.id}/decline`, { note: 'Ablehnung-Notiz-Vertraulich' })).status).toBe(200)
    await expectOneRow({ ...subject, action: 'decline', outcome: 'ok' })

    // Erased: the row keeps the id and the domain read before the erasure.
    expect((await send(`/api/inquiries/${inquiry.id}`, undefined, 'DELETE')).status).toBe(200)
    await expectOneRow({ ...subject, action: 'erase', outcome: 'ok' })
    expect((await send(`/api/inquiries/${inquiry.id}/reply`, { body: 'Antworttext-Vertraulich' })).status).toBe(404)
    await expectOneRow({ ...subject, domain: null, action: 'reply', outcome: 'refused' })
  })

  test('the deal steps write one row each with the deal, its inquiry and domain; the transfer code never', async () => {
    const buyer = await writeFrom('verkauf-eins.de')
    expect((await send(`/api/inquiries/${buyer.id}/accept`, {})).status).toBe(200)
    await expectOneRow({ actor: actorOf(cookie), action: 'accept', outcome: 'ok', inquiry_id: buyer.id, domain: 'verkauf-eins.de' })
    const { deal } = (await (await send(`/api/inquiries/${buyer.id}/deal`, undefined, 'GET')).json()) as { deal: { id: number } }
    const subject = { actor: actorOf(cookie), deal_id: deal.id, inquiry_id: buyer.id, domain: 'verkauf-eins.de' }

    expect((await send(`/api/deals/${deal.id}/paid`)).status).toBe(200)
    await expectOneRow({ ...subject, action: 'deal-paid', outcome: 'ok' })
    expect((await send(`/api/deals/${deal.id}/paid`)).status).toBe(409)
    await expectOneRow({ ...subject, action: 'deal-paid', outcome: 'refused' })
    secrets.push('AUTH-Code-Vertraulich-4711')
    expect((await send(`/api/deals/${deal.id}/transfer`, { code: 'AUTH-Code-Vertraulich-4711' })).status).toBe(200)
    await expectOneRow({ ...subject, action: 'deal-transfer', outcome: 'ok' })
    expect((await send(`/api/deals/${deal.id}/complete`, {})).status).toBe(200)
    await expectOneRow({ ...subject, action: 'deal-complete', outcome: 'ok' })

    const other = await writeFrom('verkauf-zwei.de')
    expect((await send(`/api/inquiries/${other.id}/accept`, {})).status).toBe(200)
    await freshRows()
    const second = ((await (await send(`/api/inquiries/${other.id}/deal`, undefined, 'GET')).json()) as { deal: { id: number } }).deal
    expect((await send(`/api/deals/${second.id}/deadline`, { days: 5 })).status).toBe(200)
    await expectOneRow({ action: 'deal-deadline', outcome: 'ok', deal_id: second.id, domain: 'verkauf-zwei.de' })
    secrets.push('Abbruch-Grund-Vertraulich')
    expect((await send(`/api/deals/${second.id}/cancel`, { reason: 'Abbruch-Grund-Vertraulich' })).status).toBe(200)
    await expectOneRow({ action: 'deal-cancel', outcome: 'ok', deal_id: second.id, inquiry_id: other.id })
  })

  test("erasing the buyer keeps the session's deal steps, by the session, with the ids in the detail and nothing of the buyer", async () => {
    const buyer = await writeFrom('verkauf-vier.de', '900', 'Kunigunde Vierling')
    expect((await send(`/api/inquiries/${buyer.id}/accept`, {})).status).toBe(200)
    const { deal } = (await (await send(`/api/inquiries/${buyer.id}/deal`, undefined, 'GET')).json()) as { deal: { id: number } }
    expect((await send(`/api/deals/${deal.id}/paid`)).status).toBe(200)
    secrets.push('AUTH-Code-Vier-Vertraulich')
    expect((await send(`/api/deals/${deal.id}/transfer`, { code: 'AUTH-Code-Vier-Vertraulich' })).status).toBe(200)
    const steps = await freshRows()
    expect(steps.map((row) => [row.action, row.actor, row.inquiry_id, row.deal_id])).toEqual([
      ['accept', actorOf(cookie), buyer.id, null],
      ['deal-paid', actorOf(cookie), buyer.id, deal.id],
      ['deal-transfer', actorOf(cookie), buyer.id, deal.id],
    ])

    expect((await send('/api/privacy/erase', { email: buyer.email })).status).toBe(200)
    const rows = await allRows()
    const named = `Anfrage ${buyer.id}, Verkauf ${deal.id} (gelöscht)`
    expect(rows.filter((row) => steps.some((step) => step.id === row.id))).toEqual([
      { ...steps[0], inquiry_id: null, detail: `Anfrage ${buyer.id} (gelöscht)` },
      { ...steps[1], inquiry_id: null, deal_id: null, detail: named },
      { ...steps[2], inquiry_id: null, deal_id: null, detail: named },
    ])
    await expectOneRow({ actor: actorOf(cookie), action: 'forget', outcome: 'ok', inquiry_id: null, deal_id: null, domain: null, detail: '1 Anfrage' })
    // The raw rows, every column: neither the address nor the name, in any case.
    const table = JSON.stringify(await queryStore(server.dataDir, 'SELECT * FROM audit_log')).toLowerCase()
    for (const word of [buyer.email, 'Kunigunde', 'Vierling']) expect(table).not.toContain(word.toLowerCase())
    // And the console's subject filter no longer leads from the deal to her.
    expect(((await (await send(`/api/audit?subject=V${deal.id}`, undefined, 'GET')).json()) as AuditPage).entries).toEqual([])
  })

  test('templates, the import, Datenschutz and a passkey write one row each, with counts, never the texts', async () => {
    const { templates } = (await (await send('/api/templates', undefined, 'GET')).json()) as TemplatesPage
    const template = templates[0]!
    secrets.push('Vorlage-Vertraulich-Zusatz')
    expect((await send(`/api/templates/${template.kind}`, { text: `${template.text}\nVorlage-Vertraulich-Zusatz` })).status).toBe(200)
    await expectOneRow({ action: 'template', outcome: 'ok', detail: template.kind })
    expect((await send(`/api/templates/${template.kind}`, undefined, 'DELETE')).status).toBe(200)
    await expectOneRow({ action: 'template', outcome: 'ok', detail: `${template.kind} (Standard)` })

    const text = fs.readFileSync(path.join(FIXTURES, 'inwx-de.csv'), 'utf8')
    const preview = (await (await send('/api/import/preview', { text, format: 'csv', prune: false })).json()) as ImportReport
    expect(await freshRows()).toEqual([])
    const applied = await send('/api/import/apply', { text, format: 'csv', prune: false, fingerprint: preview.fingerprint })
    expect(applied.status, await applied.clone().text()).toBe(200)
    const { added, changed, removed } = ((await applied.json()) as ImportReport).counts
    await expectOneRow({ action: 'import', outcome: 'ok', detail: `${added} neu, ${changed} geändert, ${removed} entfernt` })

    const person = await writeFrom('protokoll.de')
    expect((await send(`/api/inquiries/${person.id}/reply`, { body: 'Antworttext-Vertraulich' })).status).toBe(200)
    await freshRows()
    expect((await send('/api/privacy/access', { email: person.email })).status).toBe(200)
    expect(await freshRows()).toEqual([])
    expect((await send('/api/privacy/erase', { email: person.email })).status).toBe(200)
    // The reply's row named the person's inquiry: it stays without the link; the erasure's own names nobody.
    expect((await allRows()).filter((row) => row.inquiry_id === person.id)).toEqual([])
    await expectOneRow({ action: 'forget', outcome: 'ok', inquiry_id: null, domain: null, detail: '1 Anfrage' })

    expect((await send('/api/passkeys/4711', undefined, 'DELETE')).status).toBe(404)
    await expectOneRow({ action: 'passkey-remove', outcome: 'refused', detail: 'Passkey Nr. 4711' })
  })

  test('the second factor: on, a sign-in with its code, off; the step asking for the code writes nothing; no code is stored', async () => {
    const setup = (await (await send('/api/second-factor/setup')).json()) as SecondFactorSetup
    expect(await freshRows()).toEqual([])
    secrets.push(setup.secret)
    const confirm = await send('/api/second-factor/confirm', { code: codeAt(setup.secret, Date.now()) })
    expect(confirm.status).toBe(200)
    const { recoveryCodes } = (await confirm.json()) as SecondFactorConfirmed
    secrets.push(...recoveryCodes)
    await expectOneRow({ actor: actorOf(cookie), action: 'second-factor-on', outcome: 'ok' })

    const passwordOnly = await client.call('/api/session', { method: 'POST', body: { password: PASSWORD } })
    expect(passwordOnly.status).toBe(200)
    expect(await freshRows()).toEqual([])
    const withCode = await client.call('/api/session', { method: 'POST', body: { password: PASSWORD, code: recoveryCodes[0] } })
    expect(withCode.status).toBe(204)
    const second = withCode.headers.getSetCookie()[0]!.split(';')[0]!
    await expectOneRow({ actor: actorOf(second), action: 'sign-in', outcome: 'ok', detail: 'password+recovery · 192.0.x.x' })

    // Another browser's session acts under its own name.
    expect((await send('/api/second-factor/disable', { code: recoveryCodes[1] }, 'POST', second)).status).toBe(200)
    await expectOneRow({ actor: actorOf(second), action: 'second-factor-off', outcome: 'ok' })
    expect(actorOf(second)).not.toBe(actorOf(cookie))
    // Every session ended with it: the old cookie is refused and writes nothing.
    expect((await send('/api/second-factor/disable', { code: recoveryCodes[2] })).status).toBe(401)
    expect(await freshRows()).toEqual([])
    ;({ cookie } = await client.signIn())
    await freshRows()
  })

  test('sessions: ending another one, signing out; another site and a forged session write nothing', async () => {
    const other = (await client.signIn({ client: '203.0.113.9' })).cookie
    await expectOneRow({ action: 'sign-in', outcome: 'ok', actor: actorOf(other), detail: 'password · 203.0.x.x' })
    const { sessions } = (await (await send('/api/sessions', undefined, 'GET')).json()) as SessionsPageData
    const ref = sessions.find((session) => !session.current && session.address === '203.0.x.x')!.ref
    expect((await send(`/api/sessions/${ref}`, undefined, 'DELETE')).status).toBe(200)
    await expectOneRow({ action: 'session-end', outcome: 'ok', actor: actorOf(cookie) })

    const inquiry = await writeFrom('protokoll.de')
    // Another site: no console header, or a cross-site origin.
    const crossSite = await fetch(`${client.admin}/api/inquiries/${inquiry.id}/reply`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', [CONSOLE_HEADER]: '1' },
      body: JSON.stringify({ body: 'Antworttext-Vertraulich' }),
    })
    expect(crossSite.status).toBe(403)
    const noHeader = await fetch(`${client.admin}/api/inquiries/${inquiry.id}/reply`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Antworttext-Vertraulich' }),
    })
    expect(noHeader.status).toBe(403)
    // The ended session's cookie, and one made up.
    expect((await send(`/api/inquiries/${inquiry.id}/reply`, { body: 'x' }, 'POST', other)).status).toBe(401)
    expect((await send(`/api/inquiries/${inquiry.id}/reply`, { body: 'x' }, 'POST', `console-session=${'A'.repeat(43)}`)).status).toBe(401)
    expect(await freshRows()).toEqual([])

    const leaving = (await client.signIn()).cookie
    await freshRows()
    expect((await send('/api/session', undefined, 'DELETE', leaving)).status).toBe(204)
    await expectOneRow({ action: 'sign-out', outcome: 'ok', actor: actorOf(leaving) })
  })

  test('the CLI: each changing command writes one row as "CLI", a refused one too; reading commands write none', async () => {
    const inquiry = await writeFrom('verkauf-drei.de')
    await freshRows()
    secrets.push('CLI-Notiz-Vertraulich')
    expect((await cli('counter', String(inquiry.id), '--amount', '3000', '--note', 'CLI-Notiz-Vertraulich')).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'counter', outcome: 'ok', inquiry_id: inquiry.id, domain: 'verkauf-drei.de' })
    expect((await cli('accept', String(inquiry.id))).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'accept', outcome: 'ok', inquiry_id: inquiry.id })
    const deal = ((await (await send(`/api/inquiries/${inquiry.id}/deal`, undefined, 'GET')).json()) as { deal: { id: number } }).deal
    expect((await cli('deal', 'paid', String(deal.id))).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'deal-paid', outcome: 'ok', deal_id: deal.id, inquiry_id: inquiry.id, domain: 'verkauf-drei.de' })
    secrets.push('CLI-AUTH-Code-Vertraulich')
    expect(
      (
        await runCliWithInput(
          server.dataDir,
          await storeEnv(server.dataDir),
          'CLI-AUTH-Code-Vertraulich\n',
          'deal',
          'transfer',
          String(deal.id),
          '--code-stdin',
        )
      ).code,
    ).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'deal-transfer', outcome: 'ok', deal_id: deal.id })
    expect((await cli('deal', 'paid', String(deal.id))).code).toBe(2)
    await expectOneRow({ actor: 'CLI', action: 'deal-paid', outcome: 'refused', deal_id: deal.id })
    expect((await cli('resend', String(inquiry.id))).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'resend', outcome: 'ok', inquiry_id: inquiry.id })
    expect((await cli('accept', '999999')).code).toBe(2)
    await expectOneRow({ actor: 'CLI', action: 'accept', outcome: 'refused', inquiry_id: 999999, domain: null })

    const csv = path.join(dir, 'list.csv')
    fs.writeFileSync(csv, 'Domain;Preis\nneu-im-protokoll.de;900\n')
    expect((await cli('import', csv, '--dry-run')).code).toBe(0)
    expect(await freshRows()).toEqual([])
    expect((await cli('import', csv)).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'import', outcome: 'ok' })

    for (const reading of [['list'], ['show', String(inquiry.id)], ['deals'], ['access', '--email', inquiry.email], ['audit']])
      expect((await cli(...reading)).code).toBe(0)
    expect(await freshRows()).toEqual([])
    const person = await writeFrom('protokoll.de')
    expect((await cli('resend', String(person.id))).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'resend', inquiry_id: person.id })
    expect((await cli('forget', '--email', person.email)).code).toBe(0)
    expect((await allRows()).filter((row) => row.inquiry_id === person.id)).toEqual([])
    await expectOneRow({ actor: 'CLI', action: 'forget', outcome: 'ok', inquiry_id: null })
    expect((await runCliWithInput(server.dataDir, await storeEnv(server.dataDir), '', 'set-password', '--reset-2fa')).code).toBe(0)
    await expectOneRow({ actor: 'CLI', action: 'second-factor-off', outcome: 'ok' })
    ;({ cookie } = await client.signIn())
    await freshRows()
  }, 180_000)

  test('no row holds a message, a note, a code, a password, an address or a session id: the whole table is searched', async () => {
    const rows = await queryStore(server.dataDir, 'SELECT * FROM audit_log')
    expect(rows.length).toBeGreaterThan(30)
    const table = JSON.stringify(rows).toLowerCase()
    for (const secret of secrets) expect(table, secret).not.toContain(secret.toLowerCase())
    expect(table).not.toMatch(/@example\.net/)
  })

  test('the console filters by action, subject and days and pages on; `audit` lists and filters the same', async () => {
    const page = async (query: string) => {
      const response = await send(`/api/audit${query}`, undefined, 'GET')
      expect(response.status, await response.clone().text()).toBe(200)
      return (await response.json()) as AuditPage
    }
    const replies = await page('?action=reply')
    expect(replies.entries.length).toBeGreaterThan(0)
    expect(replies.entries.every((entry) => entry.action === 'reply')).toBe(true)
    const byDomain = await page('?subject=verkauf-eins.de')
    expect(new Set(byDomain.entries.map((entry) => entry.action))).toEqual(new Set(['accept', 'deal-paid', 'deal-transfer', 'deal-complete']))
    const deal = byDomain.entries.find((entry) => entry.dealId !== null)!.dealId!
    expect((await page(`?subject=V${deal}`)).entries.every((entry) => entry.dealId === deal)).toBe(true)
    // More than a page: refusals (a passkey that is not there) fill it up.
    for (let count = (await allRows()).length; count <= 55; count++) expect((await send('/api/passkeys/4711', undefined, 'DELETE')).status).toBe(404)
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date())
    const all = await page(`?since=${today}&until=${today}`)
    expect(all.entries).toHaveLength(50)
    expect(all.next).not.toBeNull()
    const older = await page(`?since=${today}&cursor=${all.next}`)
    expect(older.entries.length).toBeGreaterThan(0)
    expect(new Set([...all.entries, ...older.entries].map((entry) => entry.id)).size).toBe(all.entries.length + older.entries.length)
    expect((await page('?since=2001-01-01&until=2001-01-02')).entries).toEqual([])
    const bad = await send('/api/audit?since=gestern', undefined, 'GET')
    expect(bad.status).toBe(400)
    expect((await bad.json()) as { error: string }).toEqual({ error: 'since: Datum als JJJJ-MM-TT' })

    const listed = await cli('audit', '--json', '--since', today, '--action', 'deal-paid')
    expect(listed.code, listed.err).toBe(0)
    const entries = JSON.parse(listed.out) as { action: string; actor: string; outcome: string }[]
    expect(entries.map((entry) => [entry.actor === 'CLI' ? 'CLI' : 'session', entry.outcome])).toEqual([
      ['CLI', 'refused'],
      ['CLI', 'ok'],
      // The erased buyer's deal, kept.
      ['session', 'ok'],
      ['session', 'refused'],
      ['session', 'ok'],
    ])
    const text = await cli('audit', '--until', '2001-01-01')
    expect(text.out.trim()).toBe('No entries.')
    expect((await cli('audit', '--since', 'gestern')).code).toBe(2)
  })
})
