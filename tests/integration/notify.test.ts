// Notifications of new inquiries (webhooks and presets), against the real server process, a real SMTP server and
// real HTTP servers on 127.0.0.1 that receive them: the plain webhook, and stand-ins that answer as ntfy, Telegram's
// Bot API, a Matrix homeserver and Slack's or Mattermost's incoming webhooks do.
import { createHmac, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { OutboxPage } from '../../src/shared/console-api.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { startReceiver, type Answer, type ReceivedRequest, type Receiver } from '../helpers/receiver.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { tempDataDir } from '../helpers/app.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const SECRET = 'Ein-langes-Geheimnis-fuer-die-Signatur-2026'
const CONSOLE = 'https://konsole.example.org'

/**
 * The receiver's side of docs/notifications.md ("Checking the signature"): the HMAC of "t.body" with the shared
 * secret, compared in constant time, and a time within five minutes.
 */
function verifySignature(header: string | undefined, rawBody: string, secret = SECRET, nowSeconds = Date.now() / 1000): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '')
  if (!match) return false
  const [, t, v1] = match
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest()
  return timingSafeEqual(expected, Buffer.from(v1!, 'hex')) && Math.abs(nowSeconds - Number(t)) <= 300
}

const deliveryOf = (request: ReceivedRequest) => request.headers['x-domain-lander-delivery'] as string
const pathIs = (path: string) => (request: ReceivedRequest) => request.url.split('?')[0] === path

/** A visitor writes from `host`; resolves with the form token (the inquiry's key in the store). */
let written = 0
/**
 * An inquiry of its own, and its id: pages served in one second share a token, so each message differs unless the
 * test gives its own (decision 055), and the inquiry is the newest with that token (the post was answered first).
 */
async function writeFrom(server: ServerProcess, host: string, fields: Record<string, string> = {}) {
  const { token, hash } = await fetchForm(server.url, host)
  const response = await requestAs(host, `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, message: `${VISITOR.message} (${++written})`, token, hash, ...fields },
  })
  expect(response.status, response.html).toBe(200)
  return token
}

async function inquiryId(server: ServerProcess, token: string): Promise<number> {
  const [row] = await queryStore<{ id: number }>(server.dataDir, 'SELECT id FROM inquiries WHERE token = ? ORDER BY id DESC LIMIT 1', [token])
  return Number(row!.id)
}

type OutboxRowInStore = { id: number; status: string; attempts: number; last_error: string | null; webhook_url: string }
const notificationsOf = async (server: ServerProcess, id: number) =>
  (
    await queryStore<OutboxRowInStore>(
      server.dataDir,
      'SELECT id, status, attempts, last_error, webhook_url FROM outbox WHERE inquiry_id = ? AND webhook_url IS NOT NULL ORDER BY id',
      [id],
    )
  ).map((row) => ({ ...row, id: Number(row.id), attempts: Number(row.attempts) }))

describe('notifications of new inquiries', () => {
  let smtp: SmtpSink
  let hooks: Receiver
  let services: Receiver
  let server: ServerProcess
  let client: ReturnType<typeof consoleClient>
  let cookie: string
  /** What the webhook at /retry and /refused answers, changed by the tests. */
  const webhookAnswer: Record<string, number> = { '/retry': 500, '/refused': 400 }

  beforeAll(async () => {
    smtp = await startSmtpSink()
    hooks = await startReceiver()
    hooks.answer = (request) => ({ status: webhookAnswer[request.url] ?? 200 })
    services = await startReceiver()
    services.answer = playServices
    const domains = writeTestFile(`domains:
  webhook.de: { minOffer: 100 }
  retry.de: { notify: "${hooks.url}/retry" }
  refused.de: { notify: ["${hooks.url}/refused"] }
  still.de: { notify: [] }
  münchen.de: { notify: "ntfy+${services.url}/verkauf-alarm" }
  telegram.de: { notify: "telegram+${services.url}/bot123456:GEHEIM-token?chat_id=-100042" }
  matrix.de: { notify: "matrix+${services.url}/!raum:example.org?access_token=syt_GEHEIM" }
  slack.de: { notify: "slack+${services.url}/services/T000/B000/GEHEIMslack" }
  mattermost.de: { notify: "mattermost+${services.url}/hooks/geheim-mm" }
  alle.de:
    notify:
      - "telegram+${services.url}/bot123456:GEHEIM-token?chat_id=-100042"
      - "matrix+${services.url}/!raum:example.org?access_token=syt_GEHEIM"
      - "slack+${services.url}/services/T000/B000/GEHEIMslack"
      - "mattermost+${services.url}/hooks/geheim-mm"
      - "${hooks.url}/hooks/geheim-pfad"
      - "telegram+${services.url}/bot777:GEHEIM-kaputt?chat_id=-1"
`)
    server = await startServerProcess({
      SMTP_URL: smtp.url,
      DOMAINS_FILE: domains,
      NOTIFY_URLS: `${hooks.url}/hooks/geheim-pfad`,
      NOTIFY_SECRET: SECRET,
      ADMIN_URL: CONSOLE,
    })
    client = consoleClient(server)
    expect((await client.setPassword()).code).toBe(0)
    ;({ cookie } = await client.signIn())
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
    await Promise.all([smtp?.close(), hooks?.close(), services?.close()])
    removeTestFiles()
  })

  test('a new inquiry is posted as signed JSON without personal data, once, beside the owner’s mail', async () => {
    const token = await writeFrom(server, 'webhook.de', { offer: '2.500' })
    const id = await inquiryId(server, token)
    const [request] = await hooks.waitFor(1, (r) => pathIs('/hooks/geheim-pfad')(r) && JSON.parse(r.body).id === id)
    expect(request!.method).toBe('POST')
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(verifySignature(request!.headers['x-domain-lander-signature'] as string, request!.body)).toBe(true)
    expect(verifySignature(request!.headers['x-domain-lander-signature'] as string, request!.body, 'ein-anderes-geheimnis-mit-genug-zeichen')).toBe(false)
    expect(verifySignature(request!.headers['x-domain-lander-signature'] as string, request!.body.replace('2500', '9500'))).toBe(false)
    const [row] = await notificationsOf(server, id)
    expect(deliveryOf(request!)).toBe(String(row!.id))
    const payload = JSON.parse(request!.body)
    expect(payload).toEqual({
      event: 'inquiry.created',
      delivery: String(row!.id),
      id,
      domain: 'webhook.de',
      domainUnicode: 'webhook.de',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      offer: { amount: 2500, currency: 'EUR' },
      belowMinimum: false,
      status: 'new',
      console: `${CONSOLE}/anfragen/${id}`,
    })
    expect(request!.body).not.toContain(VISITOR.name58fnlsd)
    expect(request!.body).not.toContain(VISITOR.themail3h6)
    expect(request!.body).not.toContain(VISITOR.message)
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    await smtp.waitFor(1)
    expect(smtp.messages.some((mail) => mail.parsed.text?.includes('webhook.de'))).toBe(true)
    expect(hooks.requests.filter((r) => JSON.parse(r.body).id === id)).toHaveLength(1)
  })

  test('a receiver answering 500 gets the same delivery again, with backoff, until it answers 200; Postausgang shows it meanwhile', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'retry.de'))
    await hooks.waitFor(1, pathIs('/retry'))
    const shown = async () => ((await (await client.call('/api/outbox', { cookie })).json()) as OutboxPage).items.find((row) => row.inquiryId === id)
    await expect
      .poll(shown)
      .toMatchObject({ kind: 'webhook', target: hooks.host, status: 'pending', lastError: 'HTTP 500 Internal Server Error', domain: 'retry.de' })
    expect(JSON.stringify(await shown())).not.toContain('/retry')
    webhookAnswer['/retry'] = 200
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    const attempts = hooks.requests.filter(pathIs('/retry'))
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    expect(new Set(attempts.map(deliveryOf)).size).toBe(1)
    expect((await notificationsOf(server, id))[0]!.attempts).toBe(attempts.length)
    expect(attempts.every((request) => verifySignature(request.headers['x-domain-lander-signature'] as string, request.body))).toBe(true)
  })

  test('a receiver answering 400 fails it for good; Postausgang and the CLI show it by host; Erneut senden delivers it', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'refused.de'))
    await expect.poll(async () => (await notificationsOf(server, id))[0]).toMatchObject({ status: 'failed', attempts: 1, last_error: 'HTTP 400 Bad Request' })
    expect(hooks.requests.filter(pathIs('/refused'))).toHaveLength(1)
    const page = (await (await client.call('/api/outbox', { cookie })).json()) as OutboxPage
    const row = page.items.find((item) => item.inquiryId === id)!
    expect(row).toMatchObject({ kind: 'webhook', target: hooks.host, status: 'failed', lastError: 'HTTP 400 Bad Request' })

    const cli = await runCli(server.dataDir, await storeEnv(server.dataDir), 'outbox', '--status', 'failed')
    expect(cli.code, cli.err).toBe(0)
    expect(cli.out).toContain(`Webhook an ${hooks.host}`)
    expect(cli.out).not.toContain('/refused')
    const json = await runCli(server.dataDir, await storeEnv(server.dataDir), 'outbox', '--json')
    expect(json.out).toContain(`"webhook": "${hooks.host}"`)
    expect(json.out).not.toMatch(/geheim|GEHEIM|\/refused/)

    webhookAnswer['/refused'] = 200
    const resend = await client.call(`/api/outbox/${row.id}/resend`, { method: 'POST', cookie })
    expect(resend.status).toBe(200)
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    const attempts = hooks.requests.filter(pathIs('/refused'))
    expect(attempts).toHaveLength(2)
    expect(attempts.map(deliveryOf)).toEqual([String(row.id), String(row.id)])
  })

  test('spam is not notified; "Kein Spam" notifies it once; a domain with notify: [] is not notified', async () => {
    const spam = await inquiryId(server, await writeFrom(server, 'webhook.de', { name58fnlsdbee: 'bot' }))
    const quiet = await inquiryId(server, await writeFrom(server, 'still.de'))
    const genuine = await inquiryId(server, await writeFrom(server, 'webhook.de'))
    // Notifications go out oldest first: once the later genuine one has arrived, the others would have too.
    await hooks.waitFor(1, (r) => JSON.parse(r.body).id === genuine)
    expect(await notificationsOf(server, spam)).toEqual([])
    expect(await notificationsOf(server, quiet)).toEqual([])
    expect(hooks.requests.filter((r) => [spam, quiet].includes(JSON.parse(r.body).id))).toEqual([])

    const action = (name: string) => client.call(`/api/inquiries/${spam}/action`, { method: 'POST', body: { action: name }, cookie })
    expect((await action('not-spam')).status).toBe(200)
    const [request] = await hooks.waitFor(1, (r) => JSON.parse(r.body).id === spam)
    expect(JSON.parse(request!.body)).toMatchObject({ id: spam, status: 'new' })
    await expect.poll(async () => (await notificationsOf(server, spam)).map((row) => row.status)).toEqual(['sent'])
    // Spam and back again: the address had its notification; it gets no second one.
    expect((await action('spam')).status).toBe(200)
    expect((await action('not-spam')).status).toBe(200)
    expect(await notificationsOf(server, spam)).toHaveLength(1)
    const later = await inquiryId(server, await writeFrom(server, 'webhook.de'))
    await hooks.waitFor(1, (r) => JSON.parse(r.body).id === later)
    expect(hooks.requests.filter((r) => JSON.parse(r.body).id === spam)).toHaveLength(1)
  })

  test('ntfy gets text with a Title (UTF-8 as RFC 2047), Tags and the console link to click', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'xn--mnchen-3ya.de'))
    const [request] = await services.waitFor(1, pathIs('/verkauf-alarm'))
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    expect(request!.method).toBe('POST')
    expect(decodeRfc2047(request!.headers.title as string)).toBe('Neue Anfrage zu münchen.de')
    expect(request!.headers.tags).toBe('incoming_envelope')
    expect(request!.headers.click).toBe(`${CONSOLE}/anfragen/${id}`)
    expect(request!.body).toBe(`Neue Anfrage zu münchen.de: ohne Angebot\n\n${CONSOLE}/anfragen/${id}`)
  })

  test('Telegram gets sendMessage with chat_id and plain text, and the token never reaches the logs', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'telegram.de'))
    const [request] = await services.waitFor(1, pathIs('/bot123456:GEHEIM-token/sendMessage'))
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    expect(JSON.parse(request!.body)).toEqual({
      chat_id: '-100042',
      text: `Neue Anfrage zu telegram.de: ohne Angebot\n\n${CONSOLE}/anfragen/${id}`,
      link_preview_options: { is_disabled: true },
    })
    expect(server.output.some((line) => line.includes('"notification delivered"') && line.includes(services.host))).toBe(true)
    expect(server.output.join('\n')).not.toMatch(/GEHEIM|geheim/)
  })

  test('Matrix gets a PUT of an m.text event with the access token as Bearer and the delivery id as txnId', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'matrix.de'))
    const [request] = await services.waitFor(1, (r) => r.url.startsWith('/_matrix/'))
    await expect.poll(async () => (await notificationsOf(server, id))[0]?.status).toBe('sent')
    const [row] = await notificationsOf(server, id)
    expect(request!.method).toBe('PUT')
    expect(request!.url).toBe(`/_matrix/client/v3/rooms/%21raum%3Aexample.org/send/m.room.message/${row!.id}`)
    expect(request!.headers.authorization).toBe('Bearer syt_GEHEIM')
    expect(JSON.parse(request!.body)).toEqual({ msgtype: 'm.text', body: `Neue Anfrage zu matrix.de: ohne Angebot\n\n${CONSOLE}/anfragen/${id}` })
  })

  test('Slack and Mattermost get {"text": …} at their incoming webhook', async () => {
    const slack = await inquiryId(server, await writeFrom(server, 'slack.de'))
    const mattermost = await inquiryId(server, await writeFrom(server, 'mattermost.de'))
    const [toSlack] = await services.waitFor(1, pathIs('/services/T000/B000/GEHEIMslack'))
    const [toMattermost] = await services.waitFor(1, pathIs('/hooks/geheim-mm'))
    expect(JSON.parse(toSlack!.body)).toEqual({ text: `Neue Anfrage zu slack.de: ohne Angebot\n\n${CONSOLE}/anfragen/${slack}` })
    expect(JSON.parse(toMattermost!.body)).toEqual({ text: `Neue Anfrage zu mattermost.de: ohne Angebot\n\n${CONSOLE}/anfragen/${mattermost}` })
    await expect.poll(async () => (await notificationsOf(server, slack))[0]?.status).toBe('sent')
    await expect.poll(async () => (await notificationsOf(server, mattermost))[0]?.status).toBe('sent')
  })

  test('no token of a notification address reaches the GDPR report, an export, the Postausgang, the CLI or the log', async () => {
    const email = 'wanda.webhook@example.org'
    const id = await inquiryId(server, await writeFrom(server, 'alle.de', { themail3h6: email, message: 'Bitte um Rückruf' }))
    // Five delivered, one the receiver keeps answering 503 (pending, retried, logged as not delivered).
    await expect
      .poll(async () => (await notificationsOf(server, id)).map((row) => row.status).sort())
      .toEqual(['pending', 'sent', 'sent', 'sent', 'sent', 'sent'])
    await expect.poll(async () => (await notificationsOf(server, id)).find((row) => row.status === 'pending')?.last_error).toBe('HTTP 503 Service Unavailable')
    await expect.poll(() => server.output.some((line) => line.includes('notification not delivered, will retry'))).toBe(true)
    const secret = /geheim/i
    const env = await storeEnv(server.dataDir)
    const seen: Record<string, string> = {}

    const access = await client.call('/api/privacy/access', { method: 'POST', cookie, body: { email } })
    expect(access.status).toBe(200)
    seen['console access report'] = await access.text()
    const commands = [
      ['access', '--email', email],
      ['access', '--email', 'WANDA.webhook@EXAMPLE.org', '--json'],
      ['export'],
      ['export', '--format', 'json'],
      ['outbox'],
      ['outbox', '--json'],
    ]
    const runs = await Promise.all(commands.map((args) => runCli(server.dataDir, env, ...args)))
    for (const [i, run] of runs.entries()) {
      expect(run.code, run.err).toBe(0)
      seen[`CLI ${commands[i]!.join(' ')}`] = run.out + run.err
    }
    for (const path of ['/api/outbox', '/postausgang', `/api/inquiries/${id}`, `/anfragen/${id}`, '/api/export?format=csv', '/api/export?format=json']) {
      const response = await client.call(path, { cookie })
      expect(response.status, path).toBe(200)
      seen[`console ${path}`] = await response.text()
    }
    seen['server log'] = server.output.join('\n')
    expect(
      Object.entries(seen)
        .filter(([, text]) => secret.test(text))
        .map(([where]) => where),
    ).toEqual([])
    // What was sent where, by host: the mail to the owner and six notifications.
    const report = JSON.parse(seen['console access report']!) as { inquiries: { mails: { kind: string; to: string }[] }[] }
    expect(report.inquiries[0]!.mails.map((mail) => mail.to).sort()).toEqual(
      ['MAIL_TO', ...Array(5).fill(`Webhook an ${services.host}`), `Webhook an ${hooks.host}`].sort(),
    )
    expect(report.inquiries[0]!.mails.filter((mail) => mail.kind === 'webhook')).toHaveLength(6)
    expect(seen['CLI access --email wanda.webhook@example.org']).toContain(`Webhook an ${services.host}`)
    expect(seen['CLI outbox']).toContain(`Webhook an ${services.host}`)
    expect(JSON.parse(seen['console /api/outbox']!).items).toContainEqual(
      expect.objectContaining({ inquiryId: id, kind: 'webhook', target: services.host, status: 'pending' }),
    )
  }, 90_000)
})

/** The stand-ins answer as the services do: 200 for a request of the right shape, their error otherwise. */
function playServices(request: ReceivedRequest): Answer {
  const path = request.url.split('?')[0]!
  const json = () => {
    try {
      return JSON.parse(request.body) as Record<string, unknown>
    } catch {
      return null
    }
  }
  const isJson = request.headers['content-type']?.startsWith('application/json')
  // ntfy: POST (or PUT) to /<topic>, the message as the body.
  if (path === '/verkauf-alarm')
    return request.method === 'POST' && request.body.length > 0 ? { status: 200, body: '{"id":"x","event":"message"}' } : { status: 400 }
  // Telegram Bot API: POST /bot<token>/sendMessage, JSON with chat_id and text.
  if (path.startsWith('/bot')) {
    const body = json()
    if (!path.endsWith('/sendMessage') || !/^\/bot\d+:[\w-]+\//.test(path)) return { status: 404, body: '{"ok":false,"error_code":404}' }
    // A bot whose server is down for the whole test.
    if (path.includes('GEHEIM-kaputt')) return { status: 503, body: '{"ok":false,"error_code":503}' }
    return isJson && body?.chat_id && typeof body.text === 'string'
      ? { status: 200, body: '{"ok":true,"result":{}}' }
      : { status: 400, body: '{"ok":false,"error_code":400}' }
  }
  // Matrix client-server API: PUT /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}, Bearer token.
  if (path.startsWith('/_matrix/')) {
    if (request.headers.authorization !== 'Bearer syt_GEHEIM') return { status: 401, body: '{"errcode":"M_MISSING_TOKEN"}' }
    const body = json()
    const ok =
      request.method === 'PUT' &&
      /^\/_matrix\/client\/v3\/rooms\/[^/]+\/send\/m\.room\.message\/[^/]+$/.test(path) &&
      body?.msgtype === 'm.text' &&
      typeof body.body === 'string'
    return ok ? { status: 200, body: '{"event_id":"$e"}' } : { status: 400, body: '{"errcode":"M_UNRECOGNIZED"}' }
  }
  // Slack and Mattermost incoming webhooks: POST JSON with "text".
  if (path.startsWith('/services/') || path.startsWith('/hooks/')) {
    return request.method === 'POST' && isJson && typeof json()?.text === 'string' ? { status: 200, body: 'ok' } : { status: 400, body: 'invalid_payload' }
  }
  return { status: 404 }
}

function decodeRfc2047(value: string): string {
  const match = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/i.exec(value)
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : value
}

describe('notifications with NOTIFY_PERSONAL', () => {
  let hooks: Receiver
  let server: ServerProcess

  beforeAll(async () => {
    hooks = await startReceiver()
    const domains = writeTestFile(`domains:
  slack.de: { notify: "slack+${hooks.url}/services/T1/B1/X1" }
  mattermost.de: { notify: "mattermost+${hooks.url}/hooks/mm" }
`)
    server = await startServerProcess({ DOMAINS_FILE: domains, NOTIFY_URLS: `${hooks.url}/hook`, NOTIFY_SECRET: SECRET, NOTIFY_PERSONAL: 'true' })
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
    await hooks?.close()
    removeTestFiles()
  })

  const hostile = 'Hallo <script>alert(1)</script> & </textarea>\u0007\u001b[31mrot\u2028weiter <!channel> @channel [Bild](https://evil.example/x.png)'

  test('name, e-mail and message are in the payload, and a visitor’s markup and control characters stay JSON-escaped text', async () => {
    const id = await inquiryId(server, await writeFrom(server, 'beispiel.de', { message: hostile }))
    const [request] = await hooks.waitFor(1, pathIs('/hook'))
    expect(verifySignature(request!.headers['x-domain-lander-signature'] as string, request!.body)).toBe(true)
    // Without ADMIN_URL the link points at the console's own address.
    expect(JSON.parse(request!.body)).toMatchObject({
      id,
      name: VISITOR.name58fnlsd,
      email: VISITOR.themail3h6,
      message: hostile,
      console: `${server.adminUrl}/anfragen/${id}`,
    })
    expect(request!.body).not.toMatch(/[<>&\u0007\u001b\u2028]/)
    expect(request!.body).toContain('\\u003cscript\\u003e')
    expect(request!.body).toContain('\\u0007\\u001b')
  })

  test('Slack gets the visitor’s text with <, > and & escaped (no mention, no link); Mattermost with Markdown escaped', async () => {
    await writeFrom(server, 'slack.de', { message: hostile })
    await writeFrom(server, 'mattermost.de', { message: hostile })
    const [slack] = await hooks.waitFor(1, pathIs('/services/T1/B1/X1'))
    const [mattermost] = await hooks.waitFor(1, pathIs('/hooks/mm'))
    const slackText = JSON.parse(slack!.body).text as string
    expect(slackText).toContain(`Von: ${VISITOR.name58fnlsd} (${VISITOR.themail3h6})`)
    expect(slackText).toContain('Hallo &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;/textarea&gt;')
    expect(slackText).toContain('&lt;!channel&gt;')
    expect(slackText).not.toMatch(/[<>]/)
    const mattermostText = JSON.parse(mattermost!.body).text as string
    expect(mattermostText).toContain('\\<script\\>')
    expect(mattermostText).toContain('\\@channel')
    expect(mattermostText).toContain('\\[Bild\\]\\(https\\:')
  })
})

describe('a server that dies while a receiver holds its notification', () => {
  test('the restarted server delivers it again with the same delivery id; once accepted, it is not sent again', async () => {
    const hooks = await startReceiver()
    const dataDir = tempDataDir()
    // ADMIN_URL: the console's own address (the link otherwise) changes with its port at every start here.
    const env = { DATA_DIR: dataDir, NOTIFY_URLS: `${hooks.url}/hook`, NOTIFY_SECRET: SECRET, MAIL_LEASE_SECONDS: '3', ADMIN_URL: CONSOLE }
    let server = await startServerProcess(env)
    try {
      hooks.answer = () => 'hold'
      const first = await inquiryId(server, await writeFrom(server, 'beispiel.de'))
      const [held] = await hooks.waitFor(1)
      await server.kill()
      hooks.answer = () => ({ status: 200 })
      server = await startServerProcess(env)
      await expect.poll(async () => (await notificationsOf(server, first))[0]?.status).toBe('sent')
      const again = hooks.requests.filter((r) => JSON.parse(r.body).id === first)
      expect(again).toHaveLength(2)
      expect(again.map(deliveryOf)).toEqual([deliveryOf(held!), deliveryOf(held!)])
      expect(again[1]!.body).toBe(held!.body)
      // A later inquiry's notification goes out after it: by then a repeat of the first would have too.
      const second = await inquiryId(server, await writeFrom(server, 'beispiel.de'))
      await hooks.waitFor(1, (r) => JSON.parse(r.body).id === second)
      expect(hooks.requests.filter((r) => JSON.parse(r.body).id === first)).toHaveLength(2)
    } finally {
      await server.stop()
      await hooks.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
