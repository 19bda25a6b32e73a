// Deals with two instances on one PostgreSQL database, as behind a load balancer, each with its own DATA_DIR and the
// same DEAL_KEY: the buyer's page and the transfer code work on either, and a deal completed on one makes the name
// sold on the other within seconds, without touching the domains file. (Project "postgres" only.)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail } from '../../src/shared/console-api.ts'
import { tempDataDir } from '../helpers/app.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let instances: ServerProcess[] = []
let smtp: SmtpSink | undefined
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deals-instances-'))
afterEach(async () => {
  for (const instance of instances) {
    await instance.stop()
    instance.cleanup()
  }
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('a deal taken on one instance is shown, revealed and completed on another, and the name is sold on both', async () => {
  const domainsFile = path.join(dir, 'domains.yaml')
  fs.writeFileSync(domainsFile, 'domains:\n  geteilt.de: { price: 900, minOffer: 100 }\n')
  const before = fs.readFileSync(domainsFile, 'utf8')
  smtp = await startSmtpSink()
  const shared = tempDataDir()
  const { DATABASE_URL } = await storeEnv(shared)
  const env = { SMTP_URL: smtp.url, DOMAINS_FILE: domainsFile, DATABASE_URL: DATABASE_URL!, DEAL_KEY: 'cd'.repeat(32) }
  instances = await Promise.all([startServerProcess(env), startServerProcess(env)])
  const [one, two] = instances as [ServerProcess, ServerProcess]

  const client = consoleClient(one)
  expect((await client.setPassword(undefined, shared)).code).toBe(0)
  const { cookie } = await client.signIn()
  const { token, hash } = await fetchForm(one.url, 'geteilt.de')
  expect(
    (await requestAs('geteilt.de', `${one.url}/api/contact`, { method: 'POST', body: { ...VISITOR, themail3h6: 'k@example.net', offer: '800', token, hash } }))
      .status,
  ).toBe(200)
  const id = ((await (await client.call('/api/inbox', { cookie })).json()) as InboxPage).items[0]!.id
  expect((await client.call(`/api/inquiries/${id}/accept`, { method: 'POST', body: {}, cookie })).status).toBe(200)
  const deal = ((await (await client.call(`/api/inquiries/${id}`, { cookie })).json()) as InquiryDetail).deal!
  await expect.poll(() => smtp!.messages.filter((mail) => mail.envelope.to.includes('k@example.net')).length).toBe(1)
  const page = /\/kauf\/[A-Za-z0-9_.-]+/.exec(smtp.messages.find((mail) => mail.envelope.to.includes('k@example.net'))!.parsed.text!)![0]

  // The page made on one instance opens on the other.
  expect((await requestAs('geteilt.de', `${two.url}${page}`)).status).toBe(200)
  for (const step of ['paid', 'transfer']) {
    const response = await client.call(`/api/deals/${deal.id}/${step}`, { method: 'POST', body: step === 'transfer' ? { code: 'Shared-Code-1' } : {}, cookie })
    expect(response.status, await response.clone().text()).toBe(200)
  }
  // The code sealed on one instance opens on the other (the same DEAL_KEY).
  const headers = { origin: 'http://geteilt.de', 'sec-fetch-site': 'same-origin' }
  const revealed = await requestAs('geteilt.de', `${two.url}${page}`, { method: 'POST', form: { action: 'reveal', email: 'k@example.net' }, headers })
  expect(revealed.html).toContain('<code class="deal-code">Shared-Code-1</code>')
  expect((await requestAs('geteilt.de', `${one.url}/`)).html).toContain('name="message"')
  // Completed through instance two; instance one shows the name as sold within seconds.
  expect((await requestAs('geteilt.de', `${two.url}${page}`, { method: 'POST', form: { action: 'received' }, headers })).status).toBe(303)
  expect((await requestAs('geteilt.de', `${two.url}/`)).html).not.toContain('name="message"')
  await expect.poll(async () => (await requestAs('geteilt.de', `${one.url}/`)).html.includes('name="message"'), { timeout: 15_000 }).toBe(false)
  expect((await requestAs('geteilt.de', `${one.url}/sitemap.xml`)).html).not.toContain('<loc>')
  expect(fs.readFileSync(domainsFile, 'utf8')).toBe(before)
}, 90_000)
