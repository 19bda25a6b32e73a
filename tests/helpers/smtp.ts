// A real SMTP server (smtp-server) on 127.0.0.1, port 0, that keeps every message it accepts.
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer, type SMTPServerAddress } from 'smtp-server'
import { expect } from 'vitest'
import { queryStore } from './postgres.ts'

export interface ReceivedMail {
  envelope: { from: string; to: string[] }
  raw: string
  parsed: ParsedMail
}

/** ok: accept; tempfail: answer 451 to every message; permfail: answer 550 to every message. */
export type SinkMode = 'ok' | 'tempfail' | 'permfail'

export interface SmtpSink {
  port: number
  url: string
  messages: ReceivedMail[]
  mode: SinkMode
  /**
   * Messages whose data has arrived in full and that wait for the server's answer (with delayMs, that long): "on the
   * wire" for the client. A message whose client went away before its last line never counts (it was not received).
   */
  receiving: number
  /** How long each message waits for its answer (the option; a test may change it while the server runs). */
  delayMs: number
  /** Resolves when at least `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

const address = (a: SMTPServerAddress | false) => (a ? a.address : '')

/**
 * delayMs: how long the server takes to accept each message after its data arrived (a slow mail server). host: the
 * address to listen on instead of 127.0.0.1 (a container network's gateway, for a server in a container).
 */
export async function startSmtpSink(options: { port?: number; mode?: SinkMode; delayMs?: number; host?: string } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = []
  const waiters: (() => void)[] = []
  const sink = { mode: options.mode ?? 'ok', receiving: 0, delayMs: options.delayMs ?? 0 } as SmtpSink
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      // Counted from the message's end, not its start: a client killed between DATA and its last line (smtp-server
      // then destroys the stream without an 'end') would otherwise stay counted, and the next test's wait for "a
      // message on the wire" would pass before anything was sent.
      stream.on('end', async () => {
        sink.receiving++
        // The wait is the subject: a slow mail server (delayMs), for the tests of mail on the wire at a kill or a stop.
        if (sink.delayMs) await new Promise((resolve) => setTimeout(resolve, sink.delayMs))
        if (sink.mode !== 'ok') {
          sink.receiving--
          const error = new Error(sink.mode === 'tempfail' ? 'try again later' : 'mailbox unavailable') as Error & { responseCode: number }
          error.responseCode = sink.mode === 'tempfail' ? 451 : 550
          return callback(error)
        }
        const raw = Buffer.concat(chunks).toString('utf8')
        const parsed = await simpleParser(raw)
        messages.push({ envelope: { from: address(session.envelope.mailFrom), to: session.envelope.rcptTo.map((r) => r.address) }, raw, parsed })
        // Only now: a test that waits for nothing to be received must find the message among the kept ones (the parse
        // above takes a while under load, and a copy counted as gone before it was kept arrived after "settled").
        sink.receiving--
        waiters.splice(0).forEach((wake) => wake())
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  // A client that dies mid-session (the crash tests kill the server process) resets its connection: not our error.
  server.removeAllListeners('error')
  server.on('error', () => {})
  const port = (server.server.address() as AddressInfo).port
  return Object.assign(sink, {
    port,
    url: `smtp://${options.host ?? '127.0.0.1'}:${port}`,
    messages,
    async waitFor(count: number, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      while (messages.length < count) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`expected ${count} mails, got ${messages.length} within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          // A deadline that bounds the wait for the messages: each one that arrives wakes this at once.
          const timer = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
      return messages
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

/**
 * Nothing left that could still arrive from the store in `dataDir`: the sink holds no message it has not answered,
 * and the outbox has nothing unsent (a mail is marked sent after the server's answer, which comes after the sink kept
 * it). A test that asserts that no more mail came waits for this first: then a mail that was queued has landed.
 */
export async function mailSettled(sink: SmtpSink, dataDir: string): Promise<void> {
  await expect.poll(() => sink.receiving, { timeout: 20_000 }).toBe(0)
  await expect.poll(async () => (await queryStore(dataDir, "SELECT id FROM outbox WHERE status <> 'sent'")).length, { timeout: 20_000 }).toBe(0)
}
