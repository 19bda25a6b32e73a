// /healthz and /readyz, for a load balancer and a monitor.
import { afterEach, expect, test } from 'vitest'
import { onPostgres, queryStore } from '../helpers/postgres.ts'
import { startApp, type TestApp } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let app: TestApp | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await app?.close()
  await smtp?.close()
  app = smtp = undefined
})

test('healthz says the process is up', async () => {
  app = await startApp()
  const response = await fetch(`${app.url}/healthz`)
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'ok' })
})

test('readyz reports a writable store and an empty outbox', async () => {
  app = await startApp()
  const response = await fetch(`${app.url}/readyz`)
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
  app = await startApp({ SMTP_URL: `smtp://127.0.0.1:${deadPort}` })
  expect((await submitInquiry(app.url)).status).toBe(200)
  await expect.poll(async () => (await (await fetch(`${app!.url}/readyz`)).json()).outbox.pending).toBe(1)
  // The first attempt failed; make it look an hour and a bit old, as the clock would after an hour of failures.
  await expect.poll(async () => (await app!.app.store.outboxHealth()).failingSince).not.toBeNull()
  await queryStore(app.dataDir, 'UPDATE outbox SET created_at = ?', [Date.now() - 61 * 60_000])
  const response = await fetch(`${app.url}/readyz`)
  expect(response.status).toBe(503)
  const body = await response.json()
  expect(body.status).toBe('unavailable')
  expect(body.outbox.pending).toBe(1)
  expect(body.outbox.mailFailingForSeconds).toBeGreaterThan(3600)
})
