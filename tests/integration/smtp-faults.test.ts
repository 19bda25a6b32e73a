// A mail server that takes the connection and then never says a word must not hold the outbox.
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startApp, type TestApp } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let app: TestApp | undefined
let smtp: SmtpSink | undefined
let silent: net.Server | undefined
afterEach(async () => {
  await app?.close()
  await smtp?.close()
  silent?.close()
  app = smtp = silent = undefined
})

/** Accepts TCP connections and never answers: no greeting, no error. */
async function startSilentServer(): Promise<{ server: net.Server; port: number; sockets: Set<net.Socket> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port, sockets }
}

async function submit(url: string, message: string) {
  expect((await submitInquiry(url, { message })).status).toBe(200)
}

test('a server that never greets times out, the worker goes on to the next mail, and all arrive once it answers', async () => {
  const mute = await startSilentServer()
  silent = mute.server
  app = await startApp({ SMTP_URL: `smtp://127.0.0.1:${mute.port}` }, { smtpTimeouts: { greetingTimeout: 300, connectionTimeout: 300 } })
  await submit(app.url, 'erste')
  await submit(app.url, 'zweite')
  const store = await app.store()
  // Both mails were tried (each attempt ended by the greeting timeout) and wait for their retry.
  await expect
    .poll(async () => [(await store.outboxStatus(1))?.attempts ?? 0, (await store.outboxStatus(2))?.attempts ?? 0].every((n) => n >= 1), { timeout: 10_000 })
    .toBe(true)
  expect((await store.outboxStatus(1))?.status).toBe('pending')
  expect((await store.outboxStatus(1))?.lastError).toMatch(/ETIMEDOUT Greeting never received/)

  // The mail server comes to its senses on the same port.
  mute.sockets.forEach((socket) => socket.destroy())
  await new Promise((resolve) => mute.server.close(resolve))
  silent = undefined
  smtp = await startSmtpSink({ port: mute.port })
  const mails = await smtp.waitFor(2, 30_000)
  expect(mails.map((mail) => mail.parsed.text?.includes('erste') || mail.parsed.text?.includes('zweite'))).toEqual([true, true])
}, 60_000)
