// PostgreSQL going away (a restart, a network failure) while the server runs: the visitor is told to try again
// (503 + Retry-After), never "ok" for something that was not stored, and everything works again once the
// database is back. The outage is a TCP relay in front of the test's PostgreSQL server that is stopped and
// started again. (Project "postgres" only.)
import net from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startApp, tempDataDir, type TestApp } from '../helpers/app.ts'
import { expectError, submitInquiry } from '../helpers/contact.ts'
import { databaseUrlFor, queryStore } from '../helpers/postgres.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let app: TestApp | undefined
let smtp: SmtpSink | undefined
let relay: Relay | undefined
afterEach(async () => {
  await app?.close()
  await smtp?.close()
  relay?.stop()
  app = smtp = relay = undefined
})

interface Relay {
  port: number
  stop(): void
  start(): Promise<void>
}

/** A TCP relay to `target`; stop() cuts every connection and refuses new ones, start() listens again. */
async function startRelay(target: { host: string; port: number }): Promise<Relay> {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => {})
        }
        client.pipe(upstream).pipe(client)
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port
        resolve()
      })
    })
  await listen()
  return {
    get port() {
      return port
    },
    stop() {
      server?.close()
      sockets.forEach((socket) => socket.destroy())
    },
    start: listen,
  }
}

async function expectUnavailable(response: Response) {
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  await expectError(response, 503, 'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es später erneut.')
}

// The rate limits count in PostgreSQL too: with them on, an outage must still be a 503, not a 500.
test.each(['0', '10'])(
  'while PostgreSQL is unreachable the form gets 503 and /readyz fails; afterwards inquiries are stored and mailed again (CONTACT_RATE_LIMIT=%s)',
  async (CONTACT_RATE_LIMIT) => {
    const dataDir = tempDataDir()
    const direct = new URL((await databaseUrlFor(dataDir))!)
    relay = await startRelay({ host: direct.hostname, port: Number(direct.port) })
    const viaRelay = new URL(direct)
    viaRelay.port = String(relay.port)
    smtp = await startSmtpSink()
    app = await startApp({ DATA_DIR: dataDir, DATABASE_URL: viaRelay.href, SMTP_URL: smtp.url, CONTACT_RATE_LIMIT })

    expect((await submitInquiry(app.url, { message: 'vorher' })).status).toBe(200)
    await smtp.waitFor(1)

    relay.stop()
    // The page itself needs no database.
    expect((await fetch(app.url)).status).toBe(200)
    await expectUnavailable(await submitInquiry(app.url, { message: 'während des Ausfalls' }))
    expect((await fetch(`${app.url}/readyz`)).status).toBe(503)

    await relay.start()
    await expect.poll(async () => (await fetch(`${app!.url}/readyz`)).status, { timeout: 10_000 }).toBe(200)
    expect((await submitInquiry(app.url, { message: 'nachher' })).status).toBe(200)
    await smtp.waitFor(2)
    expect(smtp.messages.map((mail) => mail.parsed.text?.includes('nachher') || mail.parsed.text?.includes('vorher'))).toEqual([true, true])
    const stored = await queryStore<{ message: string }>(dataDir, 'SELECT message FROM inquiries ORDER BY id')
    expect(stored.map((row) => row.message)).toEqual(['vorher', 'nachher'])
  },
)
