// What the server writes to its log: structured lines, nothing the visitor wrote, no link that acts for the buyer or
// the visitor, and a loud line when mail fails.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { queryStore } from '../helpers/postgres.ts'
import { consoleClient } from '../helpers/console.ts'
import { VISITOR, fetchForm, requestAs, submitInquiry } from '../helpers/contact.ts'
import { confirmedPurchase, getBytes } from '../helpers/purchase.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'
import { SELLER_ENV } from '../helpers/invoice.ts'

let server: ServerProcess | undefined
let smtp: SmtpSink | undefined
let dir: string | undefined
afterEach(async () => {
  await server?.stop()
  server?.cleanup()
  server = undefined
  await smtp?.close()
  smtp = undefined
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

const parsed = (lines: string[]) => lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)

test('the log is JSON lines and holds neither the message, the name, the address nor the client address', async () => {
  server = await startServerProcess({ SMTP_URL: 'smtp://127.0.0.1:9', LOG_LEVEL: 'debug' })
  const response = await submitInquiry(server.url, {
    name58fnlsd: 'Xaver Geheimname',
    themail3h6: 'xaver.geheim@example.de',
    message: 'Streng vertrauliche Nachricht',
  })
  expect(response.status).toBe(200)
  await expect.poll(() => server!.output.some((line) => line.includes('inquiry stored'))).toBe(true)
  const log = server.output.join('\n')
  for (const secret of ['Geheimname', 'xaver.geheim', 'example.de', 'Streng vertrauliche', 'remoteAddress', 'remotePort', '"ip"']) {
    expect(log).not.toContain(secret)
  }
  expect(server.output.filter((line) => !line.startsWith('{'))).toEqual([])
})

test('mail failing for more than an hour is logged as an error on every further attempt', async () => {
  server = await startServerProcess({ SMTP_URL: 'smtp://127.0.0.1:9' })
  expect((await submitInquiry(server.url)).status).toBe(200)
  await expect.poll(() => server!.output.some((line) => line.includes('will retry'))).toBe(true)
  // Move the inquiry an hour into the past, as if the mail server had been down since then.
  await queryStore(server.dataDir, 'UPDATE outbox SET created_at = created_at - 3700000')
  await expect
    .poll(() => parsed(server!.output).find((line) => String(line.msg).startsWith('MAIL FAILING')), { timeout: 15_000 })
    .toMatchObject({
      level: 50,
      failingForMinutes: expect.any(Number),
    })
}, 30_000)

test('at the default level no request gets a line of its own; failed answers are summed up by status, and debug logs every request', async () => {
  server = await startServerProcess({})
  const host = { host: 'beispiel.de' }
  expect((await fetch(`${server.url}/`, { headers: host })).status).toBe(200)
  expect((await fetch(`${server.url}/gibt-es-nicht`, { headers: host })).status).toBe(404)
  expect((await fetch(`${server.url}/gibt-es-auch-nicht`, { headers: host })).status).toBe(404)
  expect(await server.stop()).toBe(0)
  const lines = parsed(server.output)
  expect(lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toEqual([])
  // The minute's summary is also written when the server stops.
  expect(lines.filter((line) => line.msg === 'failed answers since the last summary').map((line) => line.answers)).toEqual([{ 404: 2 }])
  server.cleanup()

  server = await startServerProcess({ LOG_LEVEL: 'debug' })
  expect((await fetch(`${server.url}/`, { headers: host })).status).toBe(200)
  await expect.poll(() => parsed(server!.output).filter((line) => line.msg === 'request completed').length).toBe(1)
})

test('at debug no line holds the secret of a deal link or a confirmation link, whatever route, answer or spelling it came with', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logs-'))
  const domainsFile = path.join(dir, 'domains.yaml')
  fs.writeFileSync(
    domainsFile,
    `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
domains:
  fest.de: { price: 4900, priceType: fixed, vat: included }
  pruefen.de: { confirm: verify }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({
    LOG_LEVEL: 'debug',
    SMTP_URL: smtp.url,
    DOMAINS_FILE: domainsFile,
    ...SELLER_ENV,
    SELLER_IBAN: 'DE89 3704 0044 0532 0130 00',
  })
  const client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  const { cookie } = await client.signIn()
  const url = server.url
  const mailTo = async (email: string) => {
    await expect.poll(() => smtp!.messages.filter((mail) => mail.envelope.to.includes(email)).length, { timeout: 30_000 }).toBeGreaterThan(0)
    return smtp!.messages.find((mail) => mail.envelope.to.includes(email))!.parsed.text ?? ''
  }

  // A deal at the fixed price, paid: its link comes in the buyer's mail, its invoice under the link.
  const purchase = await confirmedPurchase(url, 'fest.de', client, cookie)
  const paid = await client.call(`/api/deals/${purchase.dealId}/paid`, { method: 'POST', body: {}, cookie })
  expect(paid.status, await paid.clone().text()).toBe(200)
  const [, id, mac] = /https:\/\/fest\.de\/kauf\/([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})/.exec(await mailTo(purchase.email))!
  const page = `/kauf/${id}.${mac}`
  const same = { origin: 'http://fest.de', 'sec-fetch-site': 'same-origin' }
  expect((await requestAs('fest.de', `${url}${page}`)).status).toBe(200)
  expect((await requestAs('fest.de', `${url}${page}?rate=1`)).status).toBe(200)
  // The dot %-encoded: Fastify decodes the segment, so this is the same working link.
  expect((await requestAs('fest.de', `${url}/kauf/${id}%2E${mac}`)).status).toBe(200)
  expect((await requestAs('fest.de', `${url}${page}`, { method: 'POST', form: { action: 'reveal', email: 'x@example.net' }, headers: same })).status).toBe(303)
  // Refused before the page is even looked up: another site's post.
  expect(
    (await requestAs('fest.de', `${url}${page}`, { method: 'POST', form: { action: 'cancel' }, headers: { origin: 'https://evil.example' } })).status,
  ).toBe(403)
  const { invoices } = (await (await client.call(`/api/deals/${purchase.dealId}/invoices`, { cookie })).json()) as { invoices: { number: number }[] }
  expect(invoices.length).toBeGreaterThan(0)
  const invoice = await getBytes('fest.de', `${url}${page}/rechnung/${invoices[0]!.number}`)
  expect(invoice.status).toBe(200)
  expect(invoice.body.subarray(0, 5).toString()).toBe('%PDF-')
  // A wrong MAC, and the link on a path that does not exist.
  const wrongMac = 'Z'.repeat(22)
  expect((await requestAs('fest.de', `${url}/kauf/${id}.${wrongMac}`)).status).toBe(404)
  expect((await requestAs('fest.de', `${url}${page}/gibt-es-nicht`)).status).toBe(404)

  // A confirmation link from the verify mail, opened and confirmed.
  const email = `bestaetigen-${process.pid}@example.net`
  const { token, hash } = await fetchForm(url, 'pruefen.de')
  const sent = await requestAs('pruefen.de', `${url}/api/contact`, { method: 'POST', body: { ...VISITOR, themail3h6: email, token, hash } })
  expect(sent.status).toBe(200)
  const t = /https:\/\/pruefen\.de\/bestaetigen\?t=([^\s]+)/.exec(await mailTo(email))![1]!
  expect((await requestAs('pruefen.de', `${url}/bestaetigen?t=${t}`)).status).toBe(200)
  const confirmed = await requestAs('pruefen.de', `${url}/bestaetigen`, {
    method: 'POST',
    form: { t },
    headers: { origin: 'http://pruefen.de', 'sec-fetch-site': 'same-origin' },
  })
  expect(confirmed.status).toBeLessThan(400)

  expect(await server.stop()).toBe(0)
  const log = server.output.join('\n')
  for (const secret of [mac!, id!, wrongMac, t, t.split('.').at(-1)!]) expect(log).not.toContain(secret)
  const urls = parsed(server.output).flatMap((line) => ((line.req as { url?: string } | undefined)?.url ? [(line.req as { url: string }).url] : []))
  expect(urls).toEqual(
    expect.arrayContaining(['/kauf/[redacted]', '/kauf/[redacted]/rechnung/' + invoices[0]!.number, '/kauf/[redacted]/gibt-es-nicht', '/bestaetigen']),
  )
  expect(server.output.filter((line) => !line.startsWith('{'))).toEqual([])
}, 120_000)
