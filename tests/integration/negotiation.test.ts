// The negotiation against the real server process and a real SMTP server: Gegenangebot, Annehmen and Ablehnen from
// the console and from the CLI, the visitor's mails (amount, deadline, threading, Reply-To), edited templates, an
// expired counter-offer, and what an attacker tries on the new routes. The errors and refusals, which need no mail
// delivered, are answered by the app in process, with a console and a store of its own.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail, TemplatesPage } from '../../src/shared/console-api.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR, type Fetch } from '../helpers/contact.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
/** For the tests that need no mail delivered: the app in process, signed in to its console. */
let app: InProcessApp
let appClient: ReturnType<typeof consoleClient>
let appCookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'negotiation-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `domains:
  beispiel.de: { price: 5000, minOffer: 1000, mailTo: sales@example.org }
  dollar.com: { currency: USD, minOffer: 100 }
  # The CLI's acceptance has a name of its own: one open deal per name (decision 037).
  kommando.de: { price: 5000, minOffer: 1000, mailTo: sales@example.org }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, COUNTER_OFFER_DAYS: '10' })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  app = await buildTestApp({ MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, COUNTER_OFFER_DAYS: '10' })
  appClient = consoleClient(app)
  expect((await appClient.setPassword()).code).toBe(0)
  ;({ cookie: appCookie } = await appClient.signIn())
})
afterAll(async () => {
  await app?.close()
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

let visitors = 0
/** A visitor writes from `host`; resolves with the inquiry's id and the owner's mail about it (once it arrived). */
async function writeFrom(host: string, fields: Record<string, string> = {}) {
  const { id, email, message } = await inquiryFrom(onProcess, host, fields)
  return { id, email, ownerMail: () => smtp.waitFor(1).then(() => smtp.messages.find((m) => m.parsed.text?.includes(message))) }
}

/** The server process, or the app in process: where a visitor writes and the owner's console. */
interface Target {
  url: string
  requestAs: (host: string, url: string, options?: { method?: string; body?: unknown }) => Promise<{ status: number }>
  fetch: Fetch
  client: ReturnType<typeof consoleClient>
  cookie: string
}
const onProcess = (): Target => ({ url: server.url, requestAs, fetch, client, cookie })
const inProcess = (): Target => ({ url: app.url, requestAs: app.requestAs, fetch: app.fetch, client: appClient, cookie: appCookie })

/** A visitor writes from `host` to `target`: the inquiry's id, the visitor's address and the message. */
async function inquiryFrom(target: () => Target, host: string, fields: Record<string, string> = {}) {
  const { url, client, cookie, fetch } = target()
  const email = `kaeufer${++visitors}@example.net`
  const message = `Anfrage Nummer ${visitors}\nzweite Zeile`
  const { token, hash } = await fetchForm(url, host, {}, fetch)
  const response = await target().requestAs(host, `${url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: email, message, token, hash, ...fields },
  })
  expect(response.status).toBe(200)
  const page = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const id = page.items[0]!.id
  return { id, email, message }
}

/** The next mail to `email` after `count` mails to it. */
async function mailTo(email: string, count = 1): Promise<ReceivedMail> {
  const to = () => smtp.messages.filter((m) => m.envelope.to.includes(email))
  await expect.poll(() => to().length).toBeGreaterThanOrEqual(count)
  return to()[count - 1]!
}

const sendTo =
  (target: () => Target) =>
  (pathName: string, body?: unknown, method = 'POST') =>
    target().client.call(pathName, { method, body, cookie: target().cookie })
const detailIn = (target: () => Target) => async (id: number) =>
  (await (await target().client.call(`/api/inquiries/${id}`, { cookie: target().cookie })).json()) as InquiryDetail
const send = sendTo(onProcess)
const detailOf = detailIn(onProcess)

const berlinDate = (ms: number) => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'long' }).format(ms)

describe('from the console', () => {
  test('a counter-offer mails the visitor the amount and the deadline, threaded under the owner’s mail, answered to the owner', async () => {
    const { id, email, ownerMail } = await writeFrom('beispiel.de', { offer: '2.500' })
    await expect.poll(ownerMail).toBeDefined()
    const owner = await ownerMail()
    const before = Date.now()
    const response = await send(`/api/inquiries/${id}/counter`, { amount: '4.500', note: 'Inklusive Übertragung.' })
    expect(response.status, await response.clone().text()).toBe(200)
    const detail = (await response.json()) as InquiryDetail
    expect(detail).toMatchObject({
      status: 'countered',
      currency: 'EUR',
      counter: { amount: 4500, formatted: '4.500\u00a0€', expired: false },
      replies: [{ kind: 'counter', amount: '4.500\u00a0€' }],
    })
    // COUNTER_OFFER_DAYS=10
    expect(detail.counter!.expiresAt - before).toBeGreaterThanOrEqual(10 * 86_400_000)
    expect(detail.counter!.expiresAt - before).toBeLessThan(10 * 86_400_000 + 60_000)
    const mail = await mailTo(email)
    expect(mail.parsed.subject).toBe('Re: Anfrage zu beispiel.de: Gegenangebot')
    expect(mail.parsed.inReplyTo).toBe(owner!.parsed.messageId)
    expect(mail.parsed.references).toBe(owner!.parsed.messageId)
    expect(mail.parsed.replyTo?.text).toBe('sales@example.org')
    expect(mail.parsed.from?.text).toContain('lander@example.org')
    expect(mail.parsed.text).toContain('4.500\u00a0€')
    expect(mail.parsed.text).toContain(`gilt bis ${berlinDate(detail.counter!.expiresAt)} um`)
    expect(mail.parsed.text).toContain('Inklusive Übertragung.')
    expect(mail.parsed.text).toContain('> Anfrage Nummer')
    await expect.poll(async () => (await detailOf(id)).replies[0]?.mail?.status).toBe('sent')
    expect(((await (await client.call('/api/inbox?status=countered', { cookie })).json()) as InboxPage).items.map((row) => row.id)).toContain(id)
  })

  test('accepting and declining mail the visitor and set the state; a counter-offer is in the inquiry’s currency', async () => {
    const accepted = await writeFrom('dollar.com', { offer: '900' })
    const response = await send(`/api/inquiries/${accepted.id}/accept`, { note: 'Ich melde mich wegen der Übertragung.' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'accepted', replies: [{ kind: 'accept', amount: '900\u00a0$' }] })
    const acceptMail = await mailTo(accepted.email)
    expect(acceptMail.parsed.subject).toBe('Re: Anfrage zu dollar.com: Angebot angenommen')
    expect(acceptMail.parsed.text).toContain('Vereinbarter Betrag: 900\u00a0$')
    expect(acceptMail.parsed.replyTo?.text).toBe('owner@example.org')

    const declined = await writeFrom('dollar.com')
    expect(await (await send(`/api/inquiries/${declined.id}/decline`, {})).json()).toMatchObject({ status: 'declined', replies: [{ kind: 'decline' }] })
    const declineMail = await mailTo(declined.email)
    expect(declineMail.parsed.subject).toBe('Re: Anfrage zu dollar.com: Absage')
    expect(declineMail.parsed.text).toContain('Leider kann ich Ihr Angebot nicht annehmen.')

    const countered = await writeFrom('dollar.com')
    expect(await (await send(`/api/inquiries/${countered.id}/counter`, { amount: '$1,200', days: 3 })).json()).toMatchObject({
      counter: { formatted: '1.200\u00a0$' },
    })
    expect((await send(`/api/inquiries/${countered.id}/counter`, { amount: '1.200 €' })).status).toBe(400)
  })

  test('an edited template is used for the next mail; an unknown placeholder is refused; the default comes back', async () => {
    const refused = await send('/api/templates/decline', { text: 'Nein, {name}.' })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ error: 'Unbekannter Platzhalter {name} in der Vorlage „Ablehnung“. Erlaubt sind: {domain}, {notiz}.' })
    expect((await send('/api/templates/counter', { text: 'Nur {betrag}' })).status).toBe(400)
    const saved = (await (await send('/api/templates/decline', { text: 'Hallo,\n\n{domain} bleibt bei mir. {notiz}\n\nGruß' })).json()) as TemplatesPage
    expect(saved.templates.find((t) => t.kind === 'decline')).toMatchObject({ isDefault: false, text: 'Hallo,\n\n{domain} bleibt bei mir. {notiz}\n\nGruß' })
    const { id, email } = await writeFrom('beispiel.de', { offer: '1.000' })
    expect((await send(`/api/inquiries/${id}/decline`, { note: 'Danke trotzdem.' })).status).toBe(200)
    expect((await mailTo(email)).parsed.text).toMatch(/^Hallo,\n\nbeispiel\.de bleibt bei mir\. Danke trotzdem\.\n\nGruß\n/)
    const reset = (await (await send('/api/templates/decline', undefined, 'DELETE')).json()) as TemplatesPage
    expect(reset.templates.find((t) => t.kind === 'decline')).toMatchObject({ isDefault: true })
    const page = await client.call('/vorlagen', { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('{betrag}')
  })

  test('a counter-offer past its time shows as expired before the job ran, and is accepted only when the owner confirms', async () => {
    const { id } = await writeFrom('beispiel.de', { offer: '3.000' })
    expect((await send(`/api/inquiries/${id}/counter`, { amount: '4000', days: 1 })).status).toBe(200)
    const past = Date.now() - 60_000
    await queryStore(server.dataDir, 'UPDATE inquiries SET counter_expires_at = ? WHERE id = ?', [past, id])
    expect(await detailOf(id)).toMatchObject({ status: 'expired', counter: { expired: true, expiresAt: past } })
    const refused = await send(`/api/inquiries/${id}/accept`, {})
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Das Gegenangebot ist am .* abgelaufen\. Zum Annehmen bitte bestätigen\.$/)
    expect(await (await send(`/api/inquiries/${id}/accept`, { confirmExpired: true })).json()).toMatchObject({
      status: 'accepted',
      replies: [{ kind: 'counter' }, { kind: 'accept', amount: '4.000\u00a0€' }],
    })
  })

  test('spam, unknown ids and bad input get clear errors, never a 500', async () => {
    const send = sendTo(inProcess)
    const detailOf = detailIn(inProcess)
    const { id } = await inquiryFrom(inProcess, 'beispiel.de', { name58fnlsdbee: 'bot' })
    const spam = await send(`/api/inquiries/${id}/counter`, { amount: '100' })
    expect(spam.status).toBe(409)
    expect(await spam.json()).toEqual({ error: expect.stringContaining('Spam') })
    expect((await send(`/api/inquiries/${id}/accept`, {})).status).toBe(409)
    expect((await send('/api/inquiries/999999/decline', {})).status).toBe(404)
    const genuine = await inquiryFrom(inProcess, 'beispiel.de')
    for (const body of [
      {},
      { amount: 'viel' },
      { amount: '-5' },
      { amount: '0' },
      { amount: '100', days: 0 },
      { amount: '100', days: 366 },
      { amount: '100', note: 'x'.repeat(5001) },
    ]) {
      const response = await send(`/api/inquiries/${genuine.id}/counter`, body)
      expect(response.status, JSON.stringify(body).slice(0, 50)).toBe(400)
      expect(await response.json()).toEqual({ error: expect.any(String) })
    }
    expect((await send('/api/templates/verkaufen', { text: 'x' })).status).toBe(400)
    expect((await detailOf(genuine.id)).status).toBe('new')
  })
})

describe('attacks', () => {
  test('a note with markup, line breaks and escape sequences stays text in the mail and in the console', async () => {
    const { id, email } = await writeFrom('beispiel.de')
    const note = '<script>alert(1)</script>\r\nBcc: victim@example.org\r\n\r\n\u001b[31mrot\u001b[0m'
    const detail = (await (await send(`/api/inquiries/${id}/decline`, { note })).json()) as InquiryDetail
    expect(detail.replies[0]!.body).toContain('<script>alert(1)</script>\nBcc: victim@example.org\n\n[31mrot[0m')
    const mail = await mailTo(email)
    expect(mail.envelope.to).toEqual([email])
    expect(mail.parsed.headers.get('bcc')).toBeUndefined()
    expect(mail.parsed.html).toBe(false)
    expect(mail.parsed.text).toContain('<script>alert(1)</script>\nBcc: victim@example.org')
    expect(mail.raw).not.toContain('\u001b')
    // The console renders it as text: no script element on the page.
    const page = await (await client.call(`/anfragen/${id}`, { cookie })).text()
    expect(page).not.toContain('<script>alert(1)')
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  test('without a session the new routes answer 401; cross-site or without the console header 403; nothing is queued', async () => {
    const { client, cookie, fetch } = inProcess()
    const detailOf = detailIn(inProcess)
    const { id } = await inquiryFrom(inProcess, 'beispiel.de')
    const routes: [string, string, unknown][] = [
      ['POST', `/api/inquiries/${id}/counter`, { amount: '100' }],
      ['POST', `/api/inquiries/${id}/accept`, {}],
      ['POST', `/api/inquiries/${id}/decline`, {}],
      ['POST', '/api/templates/decline', { text: '{domain}' }],
      ['DELETE', '/api/templates/decline', undefined],
    ]
    for (const [method, pathName, body] of routes) {
      expect((await client.call(pathName, { method, body })).status, `${method} ${pathName}`).toBe(401)
      expect((await client.call(pathName, { method, body, cookie, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status).toBe(
        403,
      )
      const noHeader = await fetch(`${client.admin}${pathName}`, {
        method,
        headers: { cookie, origin: client.admin, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      })
      expect(noHeader.status).toBe(403)
    }
    expect((await client.call('/api/templates')).status).toBe(401)
    expect((await client.call('/vorlagen')).status).toBe(303)
    expect((await detailOf(id)).replies).toEqual([])
  })
})

describe('the CLI', () => {
  const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }, ...args)

  test('counter, accept and decline queue the mail the running server sends, and print what was queued', async () => {
    const countered = await writeFrom('kommando.de', { offer: '2.000' })
    const counter = await cli('counter', String(countered.id), '--amount', '3.500', '--days', '2', '--note', 'Letztes Wort.')
    expect(counter.code, counter.err).toBe(0)
    expect(counter.out).toMatch(new RegExp(`^Counter-offer \\(3\\.500\u00a0€\\), valid until .+ for inquiry ${countered.id} is queued to ${countered.email}`))
    expect(counter.out).toContain('Letztes Wort.')
    const counterMail = await mailTo(countered.email)
    expect(counterMail.parsed.text).toContain('3.500\u00a0€')
    expect(counterMail.parsed.replyTo?.text).toBe('sales@example.org')
    const accept = await cli('accept', String(countered.id), '--json')
    expect(accept.code, accept.err).toBe(0)
    expect(JSON.parse(accept.out)).toMatchObject({ inquiry: countered.id, step: 'accept', status: 'accepted', amount: 3500, currency: 'EUR' })
    expect((await mailTo(countered.email, 2)).parsed.text).toContain('Vereinbarter Betrag: 3.500\u00a0€')

    const declined = await writeFrom('beispiel.de')
    const decline = await cli('decline', String(declined.id))
    expect(decline.code, decline.err).toBe(0)
    expect(decline.out).toMatch(/^Refusal for inquiry \d+ is queued/)
    expect((await mailTo(declined.email)).parsed.subject).toBe('Re: Anfrage zu beispiel.de: Absage')
    expect((await detailOf(declined.id)).status).toBe('declined')
  })

  test('unknown ids, spam and bad amounts are clear errors with exit code 2', async () => {
    const spam = await writeFrom('beispiel.de', { name58fnlsdbee: 'bot' })
    const genuine = await writeFrom('beispiel.de')
    const cases: [string[], RegExp][] = [
      [['counter', '999999', '--amount', '100'], /there is no inquiry 999999/],
      [['decline', String(spam.id)], /is spam/],
      [['counter', String(genuine.id), '--amount', 'viel'], /--amount takes a whole amount in EUR/],
      [['counter', String(genuine.id)], /counter needs --amount/],
      [['counter', String(genuine.id), '--amount', '100', '--days', '400'], /--days/],
      [['accept', 'abc'], /accept needs the ID of an inquiry/],
      [['decline', String(genuine.id), '--amount', '5'], /--amount and --days belong to counter/],
    ]
    for (const [args, message] of cases) {
      const run = await cli(...args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.err).toMatch(message)
      expect(run.err).not.toMatch(/\n\s+at /)
    }
    expect((await detailOf(genuine.id)).replies).toEqual([])
  })
})
