import { afterEach, expect, test } from 'vitest'
import { startApp, fetchForm, type TestApp } from '../helpers/app.ts'
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
  const { token, hash } = await fetchForm(app.url)
  const response = await fetch(`${app.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      name58fnlsd: 'Erika Mustermann',
      name58fnlsdbee: '',
      themail3h6: 'erika@example.de',
      themail3h6bee: '',
      message: 'Was kostet die Domain?',
      token,
      hash,
    }),
  })
  const body = await response.json()
  expect(response.status).toBe(200)
  expect(body).toMatchObject({ ok: true })
  expect(body.token).not.toBe(token)
  const [mail] = await smtp.waitFor(1)
  expect(mail!.parsed.subject).toBe('Anfrage zu 127.0.0.1')
  expect(mail!.envelope.to).toEqual(['owner@example.org'])
})
