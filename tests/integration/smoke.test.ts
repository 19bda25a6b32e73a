import { afterEach, expect, test } from 'vitest'
import { startApp, type TestApp } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let app: TestApp | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await app?.close()
  await smtp?.close()
})

test('a valid inquiry is answered with 200 and a fresh token, and mailed to the owner', async () => {
  smtp = await startSmtpSink()
  app = await startApp({ SMTP_URL: smtp.url })
  const response = await submitInquiry(app.url)
  const body = await response.json()
  expect(response.status).toBe(200)
  expect(body).toMatchObject({ ok: true })
  expect(body.token).not.toBe(response.sent.token)
  const [mail] = await smtp.waitFor(1)
  expect(mail!.parsed.subject).toBe('Anfrage zu 127.0.0.1')
  expect(mail!.envelope.to).toEqual(['owner@example.org'])
})
