// What reaches the owner's mail server, through a real SMTP server: headers, envelope, retries, and nothing more.
// The app runs in process (the inquiries go in through inject); its outbox sends over SMTP to the sink.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { RETRY } from '../../src/server/mail/outbox.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { VISITOR, fetchForm, postContact, submitInquiry, type Fields } from '../helpers/contact.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let app: InProcessApp | undefined
let smtp: SmtpSink | undefined
let shared: Promise<{ app: InProcessApp; smtp: SmtpSink }> | undefined
afterEach(async () => {
  vi.useRealTimers()
  const common = await shared
  if (app !== common?.app) await app?.close()
  if (smtp !== common?.smtp) await smtp?.close()
  app = smtp = undefined
})
afterAll(async () => {
  const common = await shared
  await common?.app.close()
  await common?.smtp.close()
})

async function startWithSink(mode: SmtpSink['mode'] = 'ok') {
  smtp = await startSmtpSink({ mode })
  app = await buildTestApp({ SMTP_URL: smtp.url })
  return { app, smtp }
}

/**
 * One app and mail server for the tests that send one inquiry each and look only at its mail, not at what the store
 * numbered it (each built app costs a store of its own, on PostgreSQL a schema and its migrations). The server forgets
 * the mail of the test before, which waited for it.
 */
async function withSharedSink() {
  shared ??= startSmtpSink().then(async (sink) => ({ smtp: sink, app: await buildTestApp({ SMTP_URL: sink.url }) }))
  ;({ app, smtp } = await shared)
  smtp.messages.length = 0
}

async function send(fields: Fields = {}) {
  const response = await submitInquiry(app!.url, fields, {}, app!.fetch)
  expect(response.status).toBe(200)
  return response.sent
}

/**
 * The outbox's clock moved past every retry's delay, and the outbox told to look: the retry is due and goes out now,
 * instead of seconds of backoff later. The test fakes only Date, which keeps running (shouldAdvanceTime): with a
 * clock that stood still, the mails queued while the server was down never arrived once it was back.
 */
const fakeClock = () => vi.useFakeTimers({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: true })

function retryNow() {
  vi.setSystemTime(Date.now() + RETRY.maxDelayMs)
  app!.app.outbox.kick()
}

/** The header names of a raw message, lower-cased, in order. */
const headerNames = (mail: ReceivedMail) =>
  mail.raw
    .slice(0, mail.raw.search(/\r?\n\r?\n/))
    .split(/\r?\n/)
    .filter((line) => /^[^\s:]+:/.test(line))
    .map((line) => line.slice(0, line.indexOf(':')).toLowerCase())

const EXPECTED_HEADERS = ['auto-submitted', 'from', 'to', 'reply-to', 'subject', 'message-id', 'date', 'mime-version', 'content-type']

describe('the mail to the owner', () => {
  test('has the envelope, headers and body the owner expects', async () => {
    await startWithSink()
    const sent = await send()
    const [mail] = await smtp!.waitFor(1)
    expect(mail!.envelope).toEqual({ from: 'lander@example.org', to: ['owner@example.org'] })
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Domain Lander', address: 'lander@example.org' }])
    expect(mail!.parsed.to).toMatchObject({ text: 'owner@example.org' })
    expect(mail!.parsed.replyTo?.value).toEqual([{ name: 'Erika Mustermann', address: 'erika@example.de' }])
    expect(mail!.parsed.subject).toBe('Anfrage zu 127.0.0.1')
    expect(mail!.parsed.messageId).toMatch(new RegExp(`^<inquiry-1-${sent.token}@127\\.0\\.0\\.1>$`))
    expect(mail!.parsed.text).toContain('Was kostet die Domain?')
    expect(mail!.parsed.text).toContain('Name: Erika Mustermann')
    expect(mail!.parsed.html).toContain('Was kostet die Domain?')
    expect(headerNames(mail!)).toEqual(EXPECTED_HEADERS)
  })

  const injections = [
    '\r\nBcc: victim@example.org',
    '\nBcc: victim@example.org',
    '\rBcc: victim@example.org',
    '\u2028Bcc: victim@example.org',
    '\u0085Bcc: victim@example.org',
  ]
  test.each(injections)('line breaks in the message (%j) add no header and no recipient', async (injection) => {
    await withSharedSink()
    await send({ message: `Hallo${injection}\r\n\r\nSubject: gefälscht` })
    const [mail] = await smtp!.waitFor(1)
    expect(headerNames(mail!)).toEqual(EXPECTED_HEADERS)
    expect(mail!.envelope.to).toEqual(['owner@example.org'])
    expect(mail!.parsed.bcc).toBeUndefined()
    expect(mail!.parsed.subject).toBe('Anfrage zu 127.0.0.1')
  })

  test.each(['%0d%0aBcc: victim@example.org', '=?utf-8?Q?a=0D=0ABcc:_victim@example.org?=', 'Erika, victim@example.org'])(
    'an encoded line break or a list in the name (%j) becomes no header and no recipient',
    async (name) => {
      await withSharedSink()
      await send({ name58fnlsd: name })
      const [mail] = await smtp!.waitFor(1)
      expect(headerNames(mail!)).toEqual(EXPECTED_HEADERS)
      expect(mail!.envelope.to).toEqual(['owner@example.org'])
      expect(mail!.parsed.replyTo?.value).toHaveLength(1)
      expect(mail!.parsed.replyTo?.value[0]?.address).toBe('erika@example.de')
    },
  )

  test.each(['chef@bank.example', 'Chef <chef@bank.example>', '"chef@bank.example"', 'chef\uff20bank.example'])(
    "a name that looks like an address (%j) never stands in front of the visitor's address; the body names it",
    async (name) => {
      await withSharedSink()
      await send({ name58fnlsd: name })
      const [mail] = await smtp!.waitFor(1)
      const header = /^Reply-To:(.*(?:\r?\n[ \t].*)*)/im.exec(mail!.raw)![1]!
      expect(header.replace(/\r?\n[ \t]/g, ' ').trim()).toBe('erika@example.de')
      expect(mail!.parsed.replyTo?.value).toEqual([{ name: '', address: 'erika@example.de' }])
      expect(mail!.parsed.text).toContain(`Name: ${name}`)
    },
  )

  test.each([['\r\nBcc: victim@example.org'], ['\nX: y'], ['\u2028X: y']])(
    'a raw line break in the name (%j) is refused before anything is stored',
    async (injection) => {
      await withSharedSink()
      const response = await submitInquiry(app!.url, { name58fnlsd: `Erika${injection}` }, {}, app!.fetch)
      expect(response.status).toBe(400)
    },
  )
})

describe('mail goes out once', () => {
  test('a repeated submission (same token, same content) is mailed once', async () => {
    await startWithSink()
    const store = await app!.store()
    const sent = await send({ message: 'einmal' })
    const again = await app!.fetch(`${app!.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) })
    expect(again.status).toBe(200)
    await send({ message: 'danach' })
    const mails = await smtp!.waitFor(2)
    // Nothing is left to send once both queued mails are sent: a third mail could not come later.
    await expect.poll(async () => (await store.listOutbox()).map((row) => row.status)).toEqual(['sent', 'sent'])
    expect(mails.map((mail) => mail.parsed.text?.match(/einmal|danach/)?.[0])).toEqual(['einmal', 'danach'])
  })

  test('two visitors whose pages share a token (served in the same second) both reach the owner, each message once', async () => {
    await startWithSink()
    const store = await app!.store()
    const { token, hash } = await fetchForm(app!.url, undefined, {}, app!.fetch)
    const post = (message: string) => postContact(app!.url, { ...VISITOR, message, token, hash }, {}, '/api/contact', app!.fetch)
    expect((await post('vom ersten Besucher')).status).toBe(200)
    expect((await post('vom zweiten Besucher')).status).toBe(200)
    // The first one's answer got lost and it is sent again: the same token and content, stored and mailed once.
    expect((await post('vom ersten Besucher')).status).toBe(200)
    const mails = await smtp!.waitFor(2)
    await expect.poll(async () => (await store.listOutbox()).map((row) => row.status)).toEqual(['sent', 'sent'])
    expect(mails.map((mail) => mail.parsed.text?.match(/vom \S+ Besucher/)?.[0]).sort()).toEqual(['vom ersten Besucher', 'vom zweiten Besucher'])
    // Each mail's Message-ID names its inquiry, not only the shared token.
    expect(mails.map((mail) => mail.parsed.messageId).sort()).toEqual([`<inquiry-1-${token}@127.0.0.1>`, `<inquiry-2-${token}@127.0.0.1>`])
  })

  test('spam is never mailed, while the genuine inquiry after it is', async () => {
    await startWithSink()
    const store = await app!.store()
    await send({ name58fnlsdbee: 'Bot', message: 'spam 1' })
    await send({ themail3h6bee: undefined, message: 'spam 2' })
    await send({ message: 'echt' })
    await smtp!.waitFor(1)
    // Spam is never queued: one mail in the outbox, and it is sent.
    await expect.poll(async () => (await store.listOutbox()).map((row) => row.status)).toEqual(['sent'])
    expect(smtp!.messages.map((mail) => mail.parsed.text?.includes('echt'))).toEqual([true])
  })
})

describe('when the mail server fails', () => {
  test('while it is down submissions still get 200, and every one is delivered once it is back', async () => {
    fakeClock()
    const probe = await startSmtpSink()
    const port = probe.port
    await probe.close()
    app = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` })
    const store = await app.store()
    for (const message of ['eins', 'zwei', 'drei']) await send({ message })
    await expect.poll(async () => (await store.outboxStatus(1))?.attempts, { timeout: 10_000 }).toBeGreaterThan(0)
    expect((await store.outboxStatus(1))?.status).toBe('pending')
    smtp = await startSmtpSink({ port })
    retryNow()
    const mails = await smtp.waitFor(3, 30_000)
    expect(mails.map((mail) => mail.parsed.text?.match(/eins|zwei|drei/)?.[0]).sort()).toEqual(['drei', 'eins', 'zwei'])
    for (const id of [1, 2, 3]) await expect.poll(async () => (await store.outboxStatus(id))?.status).toBe('sent')
  }, 60_000)

  test('a temporary rejection (451) is retried until the server takes the mail', async () => {
    fakeClock()
    await startWithSink('tempfail')
    const store = await app!.store()
    await send()
    await expect.poll(async () => (await store.outboxStatus(1))?.attempts ?? 0).toBeGreaterThanOrEqual(1)
    retryNow()
    await expect.poll(async () => (await store.outboxStatus(1))?.attempts ?? 0).toBeGreaterThanOrEqual(2)
    expect(await store.outboxStatus(1)).toMatchObject({ status: 'pending', lastError: expect.stringContaining('451') })
    smtp!.mode = 'ok'
    retryNow()
    await smtp!.waitFor(1, 30_000)
    await expect.poll(async () => (await store.outboxStatus(1))?.status).toBe('sent')
  }, 60_000)

  test('a permanent rejection (550) marks the mail failed at once and it is not tried again', async () => {
    await startWithSink('permfail')
    const store = await app!.store()
    await send()
    await expect.poll(async () => (await store.outboxStatus(1))?.status, { timeout: 10_000 }).toBe('failed')
    const failed = await store.outboxStatus(1)
    expect(failed).toMatchObject({ attempts: 1, lastError: expect.stringContaining('550') })
    smtp!.mode = 'ok'
    // Once a later inquiry is mailed, the outbox has been through its queue since: the failed one was not in it.
    await send({ message: 'danach' })
    const [later] = await smtp!.waitFor(1)
    await expect.poll(async () => (await store.outboxStatus(2))?.status).toBe('sent')
    expect(smtp!.messages).toEqual([later])
    expect(later!.parsed.text).toContain('danach')
    expect(await store.outboxStatus(1)).toEqual(failed)
    // The inquiry itself is kept.
    expect((await store.getInquiry(1))?.message).toBe('Was kostet die Domain?')
  }, 30_000)
})

test('without SMTP_URL every inquiry is written as an .eml file in DATA_DIR/mail', async () => {
  app = await buildTestApp({ SMTP_URL: undefined })
  await send({ message: 'in eine Datei' })
  const file = path.join(app.dataDir, 'mail', 'inquiry-1.eml')
  await expect.poll(() => fs.existsSync(file)).toBe(true)
  const raw = fs.readFileSync(file, 'utf8')
  expect(raw).toContain('Subject: Anfrage zu 127.0.0.1')
  expect(raw).toContain('Reply-To: Erika Mustermann <erika@example.de>')
  expect(raw).toContain('in eine Datei')
  expect(fs.readdirSync(path.join(app.dataDir, 'mail'))).toEqual(['inquiry-1.eml'])
})
