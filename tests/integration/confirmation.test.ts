// The visitor's confirmation (the domains file's `confirm`), against the real server process and a real SMTP server:
// the notice, the double opt-in from the form to the owner's mail, links that are tampered with or expired, the
// expiry of unconfirmed inquiries, and the limits that keep the form from mailing anyone in volume.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signConfirmToken } from '../../src/server/lib/confirm-link.ts'
import { CONFIRM_MAILS_PER_ADDRESS } from '../../src/server/submission/confirmation.ts'
import { UNCONFIRMED_TTL_MS } from '../../src/server/lib/confirm-link.ts'
import { openStore } from '../../src/server/store/index.ts'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { TEXT } from '../../src/shared/texts.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { consoleClient } from '../helpers/console.ts'
import { VISITOR, fetchForm, requestAs, type RawResponse } from '../helpers/contact.ts'
import { databaseUrlFor, queryStore } from '../helpers/postgres.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

const SECRET = 'confirmation-test-secret-1234'
const DOMAINS = `unknownHosts: page
default:
  confirm: notice
domains:
  hinweis.de: {}
  pruefen.de: { confirm: verify, mailTo: verkauf@example.org }
  still.de: { confirm: off }
  englisch.de: { language: en }
  "*.parked-wild.de": { confirm: verify }
`

let server: ServerProcess
let smtp: SmtpSink
let receiver: Receiver
let cookie: string
let client: ReturnType<typeof consoleClient>
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'confirmation-'))

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, 'domains.yaml'), DOMAINS)
  smtp = await startSmtpSink()
  receiver = await startReceiver()
  server = await startServerProcess({
    SMTP_URL: smtp.url,
    NOTIFY_URLS: receiver.url,
    NOTIFY_SECRET: 'n'.repeat(32),
    DOMAINS_FILE: path.join(dir, 'domains.yaml'),
    CONTACT_SECRET: SECRET,
    CONTACT_RATE_LIMIT: '3',
    TRUST_PROXY: 'true',
  })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  await receiver?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

let clients = 0
/** Each visit comes from a client address of its own unless told, so the per-client limit stays out of the way. */
const nextClient = () => `198.51.100.${++clients}`
let visitors = 0
const nextVisitor = (name: string) => `${name}-${++visitors}@example.net`

/** A visit to `host`: the page, then the form posted as its script does. */
async function inquire(host: string, fields: Record<string, string> = {}, client = nextClient()): Promise<RawResponse> {
  const { token, hash } = await fetchForm(server.url, host)
  return requestAs(host, `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash, ...fields }, headers: { 'x-forwarded-for': client } })
}

/** Until every queued mail is out: what was not sent by then never will be. */
async function outboxDrained() {
  await expect
    .poll(async () => Number((await queryStore<{ n: number }>(server.dataDir, "SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'"))[0]!.n))
    .toBe(0)
}

const mailsTo = (pattern: RegExp) => smtp.messages.filter((mail) => mail.envelope.to.some((to) => pattern.test(to)))
async function waitForMailTo(address: string, count = 1): Promise<ReceivedMail[]> {
  await expect.poll(() => mailsTo(new RegExp(`^${address.replace(/[.+]/g, '\\$&')}$`, 'i')).length).toBeGreaterThanOrEqual(count)
  return mailsTo(new RegExp(`^${address.replace(/[.+]/g, '\\$&')}$`, 'i'))
}
const mailAbout = (words: string) => smtp.messages.filter((mail) => mail.parsed.text?.includes(words))

async function inquiryOf(email: string) {
  const rows = await queryStore<{ id: number; status: string; token: string; created_at: number }>(
    server.dataDir,
    'SELECT id, status, token, created_at FROM inquiries WHERE email = ?',
    [email],
  )
  expect(rows).toHaveLength(1)
  return rows[0]!
}

const linkIn = (mail: ReceivedMail) => {
  const link = /https:\/\/[^\s]+/.exec(mail.parsed.text ?? '')?.[0]
  expect(link).toBeDefined()
  return new URL(link!)
}
const confirmPage = (host: string, t: string) => requestAs(host, `${server.url}/bestaetigen?t=${encodeURIComponent(t)}`)
const confirm = (host: string, t: string, headers: Record<string, string> = {}) =>
  requestAs(host, `${server.url}/bestaetigen`, { method: 'POST', form: { t }, headers })

async function inbox(query: string): Promise<InboxPage> {
  const response = await client.call(`/api/inbox?${query}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as InboxPage
}

describe('confirm: notice', () => {
  test('the visitor is told the inquiry arrived in fixed words with the domain only, threaded under the owner mail', async () => {
    const email = nextVisitor('erika')
    const message = `Bitte zahlen Sie an https://evil.example/konto ${email}`
    const response = await inquire('hinweis.de', { themail3h6: email, name58fnlsd: 'chef@example.org Sonderangebot', message })
    expect(response.status).toBe(200)
    const [notice] = await waitForMailTo(email)
    await expect.poll(() => mailAbout('evil.example/konto')).toHaveLength(1)
    const [owner] = mailAbout('evil.example/konto')
    expect(owner!.envelope.to).toEqual(['owner@example.org'])
    expect(notice!.parsed.subject).toBe('Ihre Anfrage zu hinweis.de ist angekommen')
    expect(notice!.parsed.from?.value[0]?.address).toBe('lander@example.org')
    expect(notice!.parsed.replyTo?.text).toBe('owner@example.org')
    expect(notice!.parsed.headers.get('auto-submitted')).toBe('auto-generated')
    expect(notice!.parsed.inReplyTo).toBe(owner!.parsed.messageId)
    for (const typed of ['chef@example.org', 'Sonderangebot', 'evil.example', 'zahlen']) expect(notice!.raw).not.toContain(typed)
    expect(notice!.parsed.text).toContain('Ihre Anfrage zu hinweis.de ist angekommen.')
    expect((await inquiryOf(email)).status).toBe('new')
  })

  test('a name with a line break is refused, so it reaches no mail at all', async () => {
    const email = nextVisitor('crlf')
    const response = await inquire('hinweis.de', { themail3h6: email, name58fnlsd: 'Erika\r\nBcc: victim@example.org' })
    expect(response.status).toBe(400)
    await outboxDrained()
    expect(mailsTo(/victim@example\.org|crlf-/)).toEqual([])
  })

  test('confirm: off and hosts the domains file does not list get no confirmation; their owner mail goes as before', async () => {
    const off = nextVisitor('off')
    const unknown = nextVisitor('unknown')
    expect((await inquire('still.de', { themail3h6: off, message: `Still ${off}` })).status).toBe(200)
    // The default says notice, but the name is the sender's choice here: it would be a free word in the mail.
    expect((await inquire('kaufen-sie-hier.de', { themail3h6: unknown, message: `Unbekannt ${unknown}` })).status).toBe(200)
    await expect.poll(() => mailAbout(off).length + mailAbout(unknown).length).toBe(2)
    await outboxDrained()
    expect(mailsTo(/^(off|unknown)-/)).toEqual([])
  })
})

describe('confirm: verify', () => {
  test('the form, the verify mail, the page, the button, the owner mail: in that order, once', async () => {
    const email = nextVisitor('verify')
    const message = `Verbindlich ${email}`
    const response = await inquire('pruefen.de', { themail3h6: email, message })
    expect(response.status).toBe(200)
    const [verify] = await waitForMailTo(email)
    expect(verify!.parsed.subject).toBe('Bitte bestätigen Sie Ihre Anfrage zu pruefen.de')
    expect(verify!.raw).not.toContain(message)
    const link = linkIn(verify!)
    expect(link.origin).toBe('https://pruefen.de')
    expect(link.pathname).toBe('/bestaetigen')
    const t = link.searchParams.get('t')!

    // Waiting: in the console as unconfirmed, without an owner mail.
    const { id } = await inquiryOf(email)
    const waiting = (await inbox('status=unconfirmed')).items.find((item) => item.id === id)
    expect(waiting).toMatchObject({ status: 'unconfirmed', mail: null })
    await outboxDrained()
    expect(mailAbout(message)).toEqual([])
    const notified = () => receiver.requests.filter((request) => (JSON.parse(request.body) as { id: number }).id === id)
    expect(notified()).toEqual([])

    // Looking at the link changes nothing: it shows a button.
    const page = await confirmPage('pruefen.de', t)
    expect(page.status).toBe(200)
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.html).toContain('<form method="post" action="/bestaetigen">')
    expect(page.html).toContain(`<button type="submit">${TEXT.confirmButton}</button>`)
    expect(page.html).not.toContain('<script')
    expect((await inquiryOf(email)).status).toBe('unconfirmed')

    const confirmed = await confirm('pruefen.de', t, { origin: 'http://pruefen.de' })
    expect(confirmed.status).toBe(200)
    expect(confirmed.html).toContain(TEXT.confirmedText)
    await expect.poll(() => mailAbout(message)).toHaveLength(1)
    const [owner] = mailAbout(message)
    expect(owner!.envelope.to).toEqual(['verkauf@example.org'])
    // Confirmed, it is a genuine inquiry like any other: the owner's webhook hears of it too.
    await expect.poll(() => notified()).toHaveLength(1)
    expect((await inbox('status=new')).items.find((item) => item.id === id)).toMatchObject({ status: 'new' })

    // Again: nothing new happens, and the visitor is told so.
    const again = await confirm('pruefen.de', t)
    expect(again.status).toBe(200)
    expect(again.html).toContain(TEXT.confirmedAlready)
    expect((await confirmPage('pruefen.de', t)).html).toContain(TEXT.confirmedAlready)
    await outboxDrained()
    expect(mailAbout(message)).toHaveLength(1)
    expect(notified()).toHaveLength(1)
  })

  test('a tampered link, one for another domain and one posted from another site get a clear page and change nothing', async () => {
    const email = nextVisitor('tamper')
    expect((await inquire('pruefen.de', { themail3h6: email })).status).toBe(200)
    const t = linkIn((await waitForMailTo(email))[0]!).searchParams.get('t')!
    const [id, expiry, mac] = t.split('.') as [string, string, string]
    const forged = [
      `${id}.${expiry}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      `${id}.${(Number.parseInt(expiry, 36) + UNCONFIRMED_TTL_MS).toString(36)}.${mac}`,
      `${(Number.parseInt(id, 36) - 1).toString(36)}.${expiry}.${mac}`,
      'nonsense',
    ]
    for (const bad of forged) {
      for (const answer of [await confirmPage('pruefen.de', bad), await confirm('pruefen.de', bad)]) {
        expect(answer.status).toBe(400)
        expect(answer.html).toContain(TEXT.confirmInvalid)
      }
    }
    // The right link on another of the server's domains.
    expect((await confirm('hinweis.de', t)).status).toBe(400)
    const crossSite = await confirm('pruefen.de', t, { origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    expect(crossSite.headers['content-type']).toMatch(/^text\/html/)
    expect(crossSite.html).toContain(TEXT.crossSite)
    expect((await inquiryOf(email)).status).toBe('unconfirmed')
  })

  test('an expired link gets a clear page and changes nothing', async () => {
    const store = await openStore({ dataDir: server.dataDir, databaseUrl: await databaseUrlFor(server.dataDir) })
    const createdAt = Date.now() - UNCONFIRMED_TTL_MS - 60_000
    const email = nextVisitor('expired')
    const saved = await store.saveInquiry(
      {
        token: 'ExpiredToken123',
        contentHash: 'h',
        domain: 'pruefen.de',
        name: 'Erika',
        email,
        message: 'Alt',
        language: 'de',
        spamReason: null,
        offer: null,
        belowMinimum: false,
        createdAt,
      },
      { queue: false },
      { kind: 'verify', mail: false, body: '', replyTo: null },
    )
    await store.close()
    if (saved.status !== 'created') throw new Error(saved.status)
    const t = signConfirmToken(SECRET, { id: saved.id, token: 'ExpiredToken123', domain: 'pruefen.de', createdAt })
    for (const answer of [await confirmPage('pruefen.de', t), await confirm('pruefen.de', t)]) {
      expect(answer.status).toBe(410)
      expect(answer.html).toContain(TEXT.confirmExpired)
    }
    expect((await inquiryOf(email)).status).toBe('unconfirmed')
    expect(await queryStore(server.dataDir, 'SELECT id FROM outbox WHERE inquiry_id = ?', [saved.id])).toEqual([])
  })

  test('the success message asks the visitor to look in their mail; other domains keep the original words', async () => {
    const verify = await requestAs('pruefen.de', `${server.url}/?gesendet=1`)
    expect(verify.html).toContain(TEXT.successVerify)
    expect(verify.html).not.toContain(TEXT.success)
    const notice = await requestAs('hinweis.de', `${server.url}/?gesendet=1`)
    expect(notice.html).toContain(TEXT.success)
    expect(notice.html).not.toContain(TEXT.successVerify)
  })
})

describe('a name under a wildcard entry', () => {
  test('gets no confirmation mail, so the label a sender chose never reaches a mail; the owner hears of it at once', async () => {
    const label = 'ihr-konto-ist-gesperrt-jetzt-anmelden-unter-evil-example'
    const host = `${label}.parked-wild.de`
    const email = nextVisitor('wild')
    const message = `Wildcard ${email}`
    const response = await inquire(host, { themail3h6: email, message })
    expect(response.status).toBe(200)
    // Without a confirmation the inquiry is genuine at once: the owner's mail (which names the host it came on) goes.
    await expect.poll(() => mailAbout(message)).toHaveLength(1)
    expect(mailAbout(message)[0]!.envelope.to).toEqual(['owner@example.org'])
    await outboxDrained()
    expect(mailsTo(new RegExp(`^${email}$`, 'i'))).toEqual([])
    const visitorMails = smtp.messages.filter((mail) => !mail.envelope.to.includes('owner@example.org') && !mail.envelope.to.includes('verkauf@example.org'))
    expect(visitorMails.filter((mail) => `${mail.parsed.subject}\n${mail.parsed.text}`.includes('evil-example'))).toEqual([])
    expect((await inquiryOf(email)).status).toBe('new')
    // The page does not ask the visitor to look for a mail that will not come.
    const page = await requestAs(host, `${server.url}/?gesendet=1`)
    expect(page.html).toContain(TEXT.success)
    expect(page.html).not.toContain(TEXT.successVerify)
  })
})

describe('abuse', () => {
  test('posts from many client addresses naming one address reach it a few times a day at most, over domains and modes', async () => {
    const statuses: number[] = []
    // Case and a "+tag" still reach the same mailbox; both modes and both domains count together.
    const names = ['opfer@example.net', 'Opfer@Example.NET', 'opfer+1@example.net', 'opfer+zwei@example.net']
    for (let i = 0; i < 8; i++) {
      statuses.push((await inquire(i % 2 ? 'pruefen.de' : 'hinweis.de', { themail3h6: names[i % names.length]!, message: `Flut ${i}` })).status)
    }
    expect(statuses).toEqual(Array(8).fill(200))
    await outboxDrained()
    expect(CONFIRM_MAILS_PER_ADDRESS).toBe(3)
    expect(mailsTo(/^opfer/i)).toHaveLength(CONFIRM_MAILS_PER_ADDRESS)
    // Every inquiry is still stored; the ones over the limit just got no mail.
    const [stored] = await queryStore<{ n: number }>(server.dataDir, "SELECT COUNT(*) AS n FROM inquiries WHERE message LIKE 'Flut %'")
    expect(Number(stored!.n)).toBe(8)
  })

  test('eleven spellings of one mailbox (full-width letters and dots, Unicode, punycode, case, tags) reach it three times at most', async () => {
    const spellings = [
      'ziel@bücher.example',
      'ziel@xn--bcher-kva.example',
      'ZIEL@BÜCHER.EXAMPLE',
      'ziel@ｂüｃｈｅｒ.example',
      'ziel@ｂüｃｈｅｒ．ｅｘａｍｐｌｅ',
      'Ziel@XN--BCHER-KVA.EXAMPLE',
      'ziel+a@bücher.example',
      'ziel@ＢÜＣＨＥＲ.example',
      'ziel+b@xn--bcher-kva.example',
      'zIEL@bücher.ｅｘａｍｐｌｅ',
      'ziel@BüCHER.example',
    ]
    const statuses = []
    for (const [i, email] of spellings.entries())
      statuses.push((await inquire(i % 2 ? 'pruefen.de' : 'hinweis.de', { themail3h6: email, message: `Schreibweise ${i}` })).status)
    expect(statuses).toEqual(Array(11).fill(200))
    await outboxDrained()
    // What the mail server was given (smtp-server shows the punycode domain in Unicode): one mailbox, three times.
    expect(mailsTo(/^ziel(\+[a-z])?@(xn--bcher-kva|bücher)\.example$/i)).toHaveLength(CONFIRM_MAILS_PER_ADDRESS)
    expect(mailsTo(/^ziel[+@]/i)).toHaveLength(CONFIRM_MAILS_PER_ADDRESS)
  })

  test('eleven spellings of one Gmail mailbox (dots, tags, googlemail.com, full-width, case) reach it three times at most', async () => {
    const spellings = [
      'z.i.e.l.g@gmail.com',
      'zielg@googlemail.com',
      'ZielG@GMAIL.COM',
      'zi.elg+1@gmail.com',
      'zielg@ｇｍａｉｌ.ｃｏｍ',
      'z.ielg@googlemail.com',
      'zielg+x@googlemail.com',
      'ZIEL.G@gmail.com',
      'zielg@gmail.com',
      'z.i.e.l.g+y@ＧＭＡＩＬ.com',
      'zie.lg@gmail.com',
    ]
    for (const [i, email] of spellings.entries())
      expect((await inquire(i % 2 ? 'pruefen.de' : 'hinweis.de', { themail3h6: email, message: `Gmail ${i}` })).status).toBe(200)
    await outboxDrained()
    // Gmail delivers all of these to one mailbox.
    const toThatMailbox = smtp.messages.filter((mail) =>
      mail.envelope.to.some((to) => {
        const [local = '', domain = ''] = to.toLowerCase().split('@')
        return ['gmail.com', 'googlemail.com'].includes(domain) && local.split('+')[0]!.replaceAll('.', '') === 'zielg'
      }),
    )
    expect(toThatMailbox).toHaveLength(CONFIRM_MAILS_PER_ADDRESS)
  })

  test('an address whose domain is no valid internationalised name is refused with the field’s hint, in the page’s language', async () => {
    const cases: [string, string, string][] = [
      ['hinweis.de', 'kaputt@xn--a.example', TEXT.hintEmail],
      ['hinweis.de', 'kaputt@exa_mple.example', TEXT.hintEmail],
      ['pruefen.de', 'kaputt@-minus.example', TEXT.hintEmail],
      ['englisch.de', 'kaputt@xn--a.example', TEXTS.en.hintEmail],
    ]
    for (const [host, email, hint] of cases) {
      const response = await inquire(host, { themail3h6: email })
      expect(response.status, email).toBe(400)
      expect(JSON.parse(response.html)).toMatchObject({ fields: { themail3h6: hint } })
    }
    expect(await queryStore(server.dataDir, "SELECT id FROM inquiries WHERE email LIKE 'kaputt@%'")).toEqual([])
  })

  test('one client address gets no more confirmations than CONTACT_RATE_LIMIT lets it send inquiries', async () => {
    const flooder = nextClient()
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await inquire('hinweis.de', { themail3h6: `ziel-${i}@example.net` }, flooder)).status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(3)
    await outboxDrained()
    expect(mailsTo(/^ziel-/)).toHaveLength(3)
  })

  test('spam gets no confirmation, in either mode', async () => {
    const emails = [nextVisitor('spam'), nextVisitor('spam')]
    expect((await inquire('hinweis.de', { themail3h6: emails[0]!, name58fnlsdbee: 'bot' })).status).toBe(200)
    expect((await inquire('pruefen.de', { themail3h6: emails[1]!, themail3h6bee: 'bot@example.net' })).status).toBe(200)
    for (const email of emails) {
      const { id, status } = await inquiryOf(email)
      expect(status).toBe('spam')
      expect(await queryStore(server.dataDir, 'SELECT id FROM outbox WHERE inquiry_id = ?', [id])).toEqual([])
    }
    await outboxDrained()
    expect(mailsTo(/^spam-/)).toEqual([])
  })
})

test('a starting server erases unconfirmed inquiries older than 48 hours, and keeps younger ones', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'confirmation-expiry-'))
  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  const save = async (token: string, createdAt: number) => {
    const result = await store.saveInquiry(
      {
        token,
        contentHash: token,
        domain: 'pruefen.de',
        name: 'Erika',
        email: 'erika@example.de',
        message: token,
        language: 'de',
        spamReason: null,
        offer: null,
        belowMinimum: false,
        createdAt,
      },
      { queue: false },
      { kind: 'verify', mail: false, body: '', replyTo: null },
    )
    return result.status === 'created' ? result.id : -1
  }
  const old = await save('OldUnconfirmed1', Date.now() - UNCONFIRMED_TTL_MS - 1000)
  const young = await save('YoungUnconfirm1', Date.now() - 60_000)
  await store.close()
  const second = await startServerProcess({ DATA_DIR: dataDir, DOMAINS_FILE: path.join(dir, 'domains.yaml') })
  try {
    const ids = async () => (await queryStore<{ id: number }>(dataDir, 'SELECT id FROM inquiries ORDER BY id')).map((row) => row.id)
    await expect.poll(ids).toEqual([young])
    expect(old).toBeGreaterThan(0)
    // The job logs after its erase is committed, and the line comes through the process's pipe: waited for too (under
    // two CPU burners the rows were gone before the line was in).
    await expect.poll(() => second.output.join('\n')).toContain('unconfirmed inquiries erased')
  } finally {
    await second.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
