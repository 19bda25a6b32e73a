// SIGTERM under load: requests in flight are answered (or told 503), the mail being sent is finished, exit code 0.
import net from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { queryStore } from '../helpers/postgres.ts'
import { VISITOR, fetchForm, postContact } from '../helpers/contact.ts'
import { startDripServer, type DripServer } from '../helpers/drip.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let smtp: SmtpSink | undefined
let server: ServerProcess | undefined
let drip: DripServer | undefined
afterEach(async () => {
  await server?.kill()
  server?.cleanup()
  await smtp?.close()
  await drip?.close()
  removeTestFiles()
  server = smtp = drip = undefined
})

/** `sent`: a post's token and message, which together name its inquiry (pages of one second share a token). */
type Outcome = { kind: 'answer'; status: number; sent?: string } | { kind: 'no connection'; code: string }
/** The stored inquiries, each as its token and message. */
const storedInquiries = async (dataDir: string) =>
  new Set((await queryStore<{ token: string; message: string }>(dataDir, 'SELECT token, message FROM inquiries')).map((row) => `${row.token} ${row.message}`))

// After the drain the server stops listening: new connections are refused, and a connection that the kernel had
// accepted but the server had not yet read a request from is reset. Neither carries an answer, so a client knows
// nothing was confirmed (the form says "Senden fehlgeschlagen" and a retry with the same token and content is idempotent).
// A connection that has not sent a whole request when the drain ends is closed by the server ("other side closed").
const SERVER_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'])

async function attempt(url: string, i: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  try {
    const page = await fetch(`${url}/`)
    const html = await page.text()
    outcomes.push({ kind: 'answer', status: page.status })
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
    const hash = /name="hash" value="([^"]+)"/.exec(html)?.[1]
    if (!token || !hash) return outcomes
    const response = await postContact(url, { ...VISITOR, themail3h6: `l${i}@example.de`, message: `Last ${i}`, token, hash })
    await response.arrayBuffer()
    outcomes.push({ kind: 'answer', status: response.status, sent: `${token} Last ${i}` })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause
    outcomes.push({ kind: 'no connection', code: cause?.code ?? String(error) })
  }
  return outcomes
}

test('SIGTERM during load answers every request in flight, finishes the mail being sent and exits 0', async () => {
  smtp = await startSmtpSink({ delayMs: 1500 })
  // The drain is part of the subject: requests keep coming while the server tells each client to close.
  server = await startServerProcess({ SMTP_URL: smtp.url, SHUTDOWN_DRAIN_SECONDS: '1' })
  const { url, dataDir } = server
  // One mail in flight: the slow mail server holds it for 1.5 s.
  const first = await attempt(url, 0)
  expect(first.at(-1)).toMatchObject({ kind: 'answer', status: 200 })
  await expect.poll(() => smtp!.receiving).toBe(1)

  // Load from 20 clients, each going on until the server is gone (or 20 s have passed).
  const deadline = Date.now() + 20_000
  let answered = 0
  const clients = Array.from({ length: 20 }, async (_, c) => {
    const all: Outcome[] = []
    for (let i = 0; Date.now() < deadline; i++) {
      const outcomes = await attempt(url, 1000 * (c + 1) + i)
      all.push(...outcomes)
      answered += outcomes.filter((o) => o.kind === 'answer').length
      if (outcomes.some((o) => o.kind === 'no connection')) break
    }
    return all
  })
  // The load is under way: stop once it has got its first answers.
  await expect.poll(() => answered, { interval: 10 }).toBeGreaterThanOrEqual(20)
  expect(await server.stop()).toBe(0)
  const outcomes = (await Promise.all(clients)).flat()

  const answers = outcomes.filter((o) => o.kind === 'answer')
  console.log(
    'shutdown outcomes:',
    JSON.stringify(
      outcomes.reduce<Record<string, number>>(
        (n, o) => ({ ...n, [o.kind === 'answer' ? o.status : o.code]: (n[o.kind === 'answer' ? o.status : o.code] ?? 0) + 1 }),
        {},
      ),
    ),
  )
  expect(answers.length).toBeGreaterThan(20)
  expect(answers.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([])
  const refused = outcomes.filter((o) => o.kind === 'no connection')
  expect(refused.length).toBe(20)
  expect(refused.filter((o) => !SERVER_GONE.has(o.code))).toEqual([])

  // The mail in flight was finished and recorded as sent, not left to be sent twice.
  expect(smtp.messages.some((mail) => mail.parsed.text?.includes('Last 0'))).toBe(true)
  const [last] = await queryStore<{ status: string }>(dataDir, 'SELECT o.status FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id WHERE i.message = ?', [
    'Last 0',
  ])
  expect(last?.status).toBe('sent')
  const stored = await storedInquiries(dataDir)
  const acknowledged = answers.filter((o) => o.status === 200 && o.sent).map((o) => o.sent!)
  expect(acknowledged.filter((sent) => !stored.has(sent))).toEqual([])
  const log = server.output.join('\n')
  expect(log).toContain('shutting down')
}, 60_000)

test('SIGTERM with 200 half-open connections and 20 posts in flight stores every post answered 200 and exits 0 within 5 s', async () => {
  server = await startServerProcess({ SHUTDOWN_DRAIN_SECONDS: '1' })
  const { url, port, dataDir } = server
  // Half a request each, and then nothing: each holds a connection that Node counts as busy.
  const halfOpen = await Promise.all(
    Array.from(
      { length: 200 },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () =>
            socket.write('POST /api/contact HTTP/1.1\r\nHost: example.de\r\nContent-Le', () => resolve(socket)),
          )
          socket.on('error', reject)
        }),
    ),
  )
  const closedByServer = halfOpen.map((socket) => new Promise((resolve) => socket.on('close', resolve).on('error', () => {})))
  const forms = await Promise.all(Array.from({ length: 20 }, () => fetchForm(url)))

  const posts = forms.map(async ({ token, hash }, i) => {
    try {
      const response = await postContact(url, { ...VISITOR, themail3h6: `h${i}@example.de`, message: `Halb offen ${i}`, token, hash })
      await response.arrayBuffer()
      return { status: response.status, sent: `${token} Halb offen ${i}` }
    } catch {
      return { status: 0, sent: `${token} Halb offen ${i}` } // no answer: nothing was promised
    }
  })
  const stopping = Date.now()
  const exitCode = await server.stop()
  const took = Date.now() - stopping
  expect({ exitCode, withinFiveSeconds: took < 5000 }).toEqual({ exitCode: 0, withinFiveSeconds: true })
  await Promise.all(closedByServer)

  const answers = await Promise.all(posts)
  expect(answers.filter((answer) => ![0, 200, 503].includes(answer.status))).toEqual([])
  const stored = await storedInquiries(dataDir)
  expect(answers.filter((answer) => answer.status === 200 && !stored.has(answer.sent))).toEqual([])
  console.log(`shutdown with 200 half-open connections: exit 0 after ${took} ms, posts answered: ${JSON.stringify(answers.map((a) => a.status))}`)
}, 40_000)

test('SIGTERM while a DNS server drips its answer one byte at a time ends the exchange and exits 0 within 5 s', async () => {
  drip = await startDripServer()
  server = await startServerProcess({
    DOMAINS_FILE: writeTestFile('domains:\n  beispiel.test:\n    price: 4900\n'),
    DNS_UPDATE_SERVER: `${drip.host}:${drip.port}`,
    DNS_UPDATE_KEY_NAME: 'lander-key',
    DNS_UPDATE_KEY_SECRET: Buffer.alloc(32, 7).toString('base64'),
  })
  // The update of beispiel.test is under way, and the server answers it a byte every 100 ms.
  await expect.poll(() => drip!.open).toBe(1)
  const stopping = Date.now()
  const exitCode = await server.stop()
  const took = Date.now() - stopping
  expect({ exitCode, withinFiveSeconds: took < 5000 }).toEqual({ exitCode: 0, withinFiveSeconds: true })
  // Cut off by the server, and kept to be sent after the next start.
  await expect.poll(() => drip!.open).toBe(0)
  expect(server.output.join('\n')).toContain('cut off: the server is shutting down')
  console.log(`shutdown during a dripping DNS exchange: exit 0 after ${took} ms`)
}, 40_000)
