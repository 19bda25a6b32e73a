// /healthz and /readyz, for a load balancer and a monitor.
import { afterEach, expect, test } from 'vitest'
import { queryStore } from '../helpers/postgres.ts'
import { buildTestApp, startApp, type InProcessApp, type TestApp } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let app: InProcessApp | undefined
/** The app on a socket: for what the client's address decides. */
let listening: TestApp | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await app?.close()
  await listening?.close()
  await smtp?.close()
  app = listening = smtp = undefined
})

test('healthz says the process is up', async () => {
  app = await buildTestApp()
  const response = await app.fetch(`${app.url}/healthz`)
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ok' })
})

test('readyz reports a writable store and an empty outbox', async () => {
  app = await buildTestApp()
  const response = await app.fetch(`${app.url}/readyz`)
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    status: 'ok',
    store: 'writable',
    outbox: { pending: 0, failed: 0, oldestPendingAgeSeconds: null, mailFailingForSeconds: 0 },
  })
})

test('readyz reports the backlog while the mail server is down, and 503 once mail has failed for over an hour', async () => {
  smtp = await startSmtpSink()
  const deadPort = smtp.port
  await smtp.close()
  smtp = undefined
  app = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${deadPort}` })
  expect((await submitInquiry(app.url, {}, {}, app.fetch)).status).toBe(200)
  await expect.poll(async () => (await (await app!.fetch(`${app!.url}/readyz`)).json()).outbox.pending).toBe(1)
  // The first attempt failed; make it look an hour and a bit old, as the clock would after an hour of failures.
  await expect.poll(async () => (await (await app!.store()).outboxHealth()).failingSince).not.toBeNull()
  await queryStore(app.dataDir, 'UPDATE outbox SET created_at = ?', [Date.now() - 61 * 60_000])
  const response = await app.fetch(`${app.url}/readyz`)
  expect(response.status).toBe(503)
  const body = await response.json()
  expect(body.status).toBe('unavailable')
  expect(body.outbox.pending).toBe(1)
  expect(body.outbox.mailFailingForSeconds).toBeGreaterThan(3600)
})

test('readyz writes to the store at most once a second, however often it is asked', async () => {
  app = await buildTestApp()
  // Each write stores its time in the row 'ready-check'; an answer comes only after its write.
  const lastWrite = async () => (await queryStore<{ value: string }>(app!.dataDir, "SELECT value FROM meta WHERE key = 'ready-check'"))[0]?.value
  const writes = new Set<string>()
  const started = Date.now()
  for (let i = 0; i < 20; i++) {
    expect((await app.fetch(`${app.url}/readyz`)).status).toBe(200)
    writes.add((await lastWrite())!)
  }
  const secondsBegun = Math.floor((Date.now() - started) / 1000) + 1
  expect(writes.size).toBeGreaterThanOrEqual(1)
  expect(writes.size).toBeLessThanOrEqual(secondsBegun)
  // A second later it writes again: the answer does not stay "ok" from a store that stopped taking writes.
  const before = await lastWrite()
  await expect.poll(async () => (await app!.fetch(`${app!.url}/readyz`), await lastWrite()), { interval: 100, timeout: 5000 }).not.toBe(before)
})

test("readyz shows the outbox to a client on this machine only: the socket decides, not X-Forwarded-For, and a request a local proxy forwarded is a visitor's", async () => {
  listening = await startApp({ TRUST_PROXY: 'true' })
  const local = await listening.app.inject({ url: '/readyz' })
  expect(local.json()).toHaveProperty('outbox.pending', 0)
  const remote = await listening.app.inject({ url: '/readyz', remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } })
  expect(remote.statusCode).toBe(200)
  expect(remote.json()).toEqual({ status: 'ok' })
  const throughLocalProxy = await fetch(`${listening.url}/readyz`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
  expect(await throughLocalProxy.json()).toEqual({ status: 'ok' })
})

test('with READYZ_DETAILS=true readyz shows the outbox to every client', async () => {
  app = await buildTestApp({ READYZ_DETAILS: 'true' })
  const remote = await app.app.inject({ url: '/readyz', remoteAddress: '203.0.113.9' })
  expect(remote.json()).toMatchObject({ status: 'ok', store: 'writable', outbox: { pending: 0, failed: 0 } })
})
