// The fixed-price checkout (decision 035) against the real server process, a real SMTP server and the test
// project's store (SQLite or PostgreSQL): "Jetzt kaufen" on the page of a fixed-price name, the checkout sent as a
// form without script, stored and mailed to the owner; confirmed in the console or the CLI (a deal at the listed
// price, its page linked in the buyer's mail) or declined; in English; and what an attacker tries. What an attacker
// tries that needs no mail delivered is answered by the app in process, with a console and a store of its own.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail } from '../../src/shared/console-api.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'
import { consoleClient } from '../helpers/console.ts'
import { requestAs, VISITOR, type RawResponse } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
let hooks: Receiver
/** For the tests that need no mail delivered: the app in process, signed in to its console. */
let app: InProcessApp
let appClient: ReturnType<typeof consoleClient>
let appCookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-'))
const domainsFile = path.join(dir, 'domains.yaml')
/** hook.de has a webhook: every process that reads the domains file needs the secret that signs it. */
const NOTIFY_SECRET = 'Ein-langes-Geheimnis-fuer-die-Signatur-2026'

beforeAll(async () => {
  hooks = await startReceiver()
  fs.writeFileSync(
    domainsFile,
    `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
domains:
  fest.de: { price: 4900, priceType: fixed, vat: included }
  verhandel.de: { price: 5000, priceType: negotiable }
  extern.de: { price: 3000, priceType: fixed, buyUrl: "https://escrow.example/kaufen" }
  reserviert.de: { price: 3000, priceType: fixed, status: reserved }
  verkauft.de: { price: 3000, priceType: fixed, status: sold }
  fixed.com: { price: 2000, priceType: fixed, language: en, currency: USD }
  hook.de: { price: 900, priceType: fixed, notify: "${hooks.url}/kauf" }
  preiswechsel.de: { price: 600, priceType: fixed, vat: included }
  "*.wild-fix.de": { price: 900, priceType: fixed }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, NOTIFY_SECRET })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  app = await buildTestApp({ MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, NOTIFY_SECRET })
  appClient = consoleClient(app)
  expect((await appClient.setPassword()).code).toBe(0)
  ;({ cookie: appCookie } = await appClient.signIn())
})
afterAll(async () => {
  await app?.close()
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  await hooks?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

type RequestAs = (
  host: string,
  url: string,
  options?: { method?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> },
) => Promise<RawResponse>

const sameOrigin = (host: string) => ({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile, NOTIFY_SECRET }, ...args)

let buyers = 0
function buyer(fields: Record<string, string> = {}) {
  const email = `kaeufer${++buyers}@example.net`
  return {
    name58fnlsd: `Käufer ${buyers}`,
    name58fnlsdbee: '',
    themail3h6: email,
    themail3h6bee: '',
    company: 'Beispiel GmbH',
    street: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    vat_id: 'de123456789',
    binding: 'on',
    ...fields,
  }
}

/** A buyer's requests and the owner's console, on the server process or on the app in process. */
function visitsTo(target: () => { url: string; requestAs: RequestAs; client: ReturnType<typeof consoleClient>; cookie: string }) {
  const open = (host: string, pathName: string, options: Parameters<RequestAs>[2] = {}) => target().requestAs(host, `${target().url}${pathName}`, options)
  const send = (pathName: string, body?: unknown, method = 'POST') => target().client.call(pathName, { method, body, cookie: target().cookie })

  /** The checkout form's token and hash, as a browser gets them from GET /kaufen. */
  async function checkoutForm(host: string) {
    const page = await open(host, '/kaufen')
    expect(page.status, page.html).toBe(200)
    const token = /name="token" value="([^"]+)"/.exec(page.html)?.[1]
    const hash = /name="hash" value="([^"]+)"/.exec(page.html)?.[1]
    const terms = /name="terms" value="([^"]+)"/.exec(page.html)?.[1]
    expect(token && hash && terms, page.html).toBeTruthy()
    return { token: token!, hash: hash!, terms: terms! }
  }

  /** Sends the checkout as a browser without script does; resolves with the answer and the buyer's address. */
  async function checkout(host: string, fields: Record<string, string> = {}, headers: Record<string, string> = sameOrigin(host)) {
    const form = { ...buyer(fields), ...(await checkoutForm(host)), ...fields }
    const answer = await open(host, '/kaufen', { method: 'POST', form, headers })
    return { answer, email: form.themail3h6 }
  }

  const inbox = async () => (await (await send('/api/inbox', undefined, 'GET')).json()) as InboxPage
  const detail = async (id: number) => (await (await send(`/api/inquiries/${id}`, undefined, 'GET')).json()) as InquiryDetail

  /** A checkout sent and stored: its inquiry's id and the buyer's address. */
  async function stored(host: string, fields: Record<string, string> = {}) {
    const { answer, email } = await checkout(host, fields)
    expect(answer.status, answer.html).toBe(303)
    expect(answer.headers.location).toBe('/kaufen?gesendet=1')
    const item = (await inbox()).items.find((entry) => entry.email === email)
    expect(item).toBeDefined()
    return { id: item!.id, email }
  }

  return { open, send, checkoutForm, checkout, inbox, detail, stored }
}

const { open, send, checkoutForm, checkout, inbox, detail, stored } = visitsTo(() => ({ url: server.url, requestAs, client, cookie }))
/** The same, answered by the app in process. */
const inProcess = visitsTo(() => ({ url: app.url, requestAs: app.requestAs, client: appClient, cookie: appCookie }))

function mailsTo(email: string) {
  return smtp.messages.filter((m) => m.envelope.to.includes(email))
}
async function mailTo(email: string, count = 1): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(email).length).toBeGreaterThanOrEqual(count)
  return mailsTo(email)[count - 1]!
}
/** The owner's mail about the inquiry whose buyer is `email`. */
async function ownerMailAbout(email: string): Promise<ReceivedMail> {
  const find = () => smtp.messages.find((m) => m.envelope.to.includes('owner@example.org') && (m.parsed.text ?? '').includes(email))
  await expect.poll(find).toBeDefined()
  return find()!
}

function pageLinkIn(mail: ReceivedMail, host: string): string {
  const match = new RegExp(`https://${host.replace(/\./g, '\\.')}(/kauf/[A-Za-z0-9_.-]+)`).exec(mail.parsed.text ?? '')
  expect(match, mail.parsed.text).not.toBeNull()
  return match![1]!
}

const textOf = (page: RawResponse) =>
  page.html
    .replace(/<(svg|style|head)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')

describe('the page of a fixed-price name', () => {
  test('has "Jetzt kaufen" leading to the checkout on the same host', async () => {
    const page = await open('fest.de', '/')
    expect(page.html).toMatch(/<a class="buy" href="\/kaufen">Jetzt kaufen<\/a>/)
  })

  test.each([
    ['a negotiable price', 'verhandel.de'],
    ['a reserved name', 'reserviert.de'],
    ['a sold name', 'verkauft.de'],
  ])('has no checkout button with %s', async (_case, host) => {
    expect((await open(host, '/')).html).not.toContain('href="/kaufen"')
  })

  test('with a buyUrl keeps the button to the checkout elsewhere, and has none here', async () => {
    const page = await open('extern.de', '/')
    expect(page.html).toContain('href="https://escrow.example/kaufen"')
    expect(page.html).not.toContain('href="/kaufen"')
  })

  test('the checkout asks name, e-mail, company, address, country, VAT ID and the binding tick, without any script', async () => {
    const page = await open('fest.de', '/kaufen')
    expect(page.status).toBe(200)
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow')
    expect(page.html).not.toMatch(/<script(?![^>]*type="application\/json")/)
    for (const name of ['name58fnlsd', 'themail3h6', 'company', 'street', 'postcode', 'city', 'vat_id']) expect(page.html).toContain(`name="${name}"`)
    expect(page.html).toMatch(/<select[^>]*name="country"/)
    expect(page.html).toContain('<option value="DE">Deutschland</option>')
    expect(page.html).toMatch(/<input type="checkbox" required="" name="binding" value="on"\/>/)
    // Decoys, as on the contact form; no field names a price.
    expect(page.html).toContain('name="name58fnlsdbee"')
    expect(page.html).toContain('name="themail3h6bee"')
    expect(page.html).not.toMatch(/name="(?:offer|price|amount)"/)
    expect(textOf(page)).toContain('Sie kaufen die Domain fest.de zum Festpreis: 4.900 € inkl. MwSt.')
  })

  test.each([
    ['a negotiable price', 'verhandel.de', 404],
    ['a checkout elsewhere (buyUrl)', 'extern.de', 404],
    ['a reserved name', 'reserviert.de', 404],
    ['a sold name', 'verkauft.de', 410],
    ['a host this server does not sell', 'unbekannt.de', 404],
  ])('is refused for %s, shown and sent alike', async (_case, host, status) => {
    expect((await inProcess.open(host, '/kaufen')).status).toBe(status)
    const answer = await inProcess.open(host, '/kaufen', { method: 'POST', form: buyer({ token: 'A'.repeat(15), hash: 'x' }), headers: sameOrigin(host) })
    expect(answer.status).toBe(status)
  })
})

describe('a checkout sent without script', () => {
  test('is stored at the listed price before the buyer is told, and the owner is mailed the purchase', async () => {
    const { answer, email } = await checkout('fest.de')
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe('/kaufen?gesendet=1')
    const sent = await open('fest.de', '/kaufen?gesendet=1')
    expect(textOf(sent)).toContain('Vielen Dank! Ihr Kauf ist eingegangen.')
    const item = (await inbox()).items.find((entry) => entry.email === email)!
    expect(item.offer).toBe('4.900\u00a0€')
    const shown = await detail(item.id)
    expect(shown.checkout).toEqual({
      company: 'Beispiel GmbH',
      street: 'Hauptstraße 1',
      postcode: '10115',
      city: 'Berlin',
      country: 'DE',
      vatId: 'DE123456789',
    })
    expect(shown.offer).toMatchObject({ amount: 4900, currency: 'EUR' })
    const mail = await ownerMailAbout(email)
    expect(mail.parsed.text).toContain('Kauf zum Festpreis: 4.900\u00a0€ inkl. MwSt.')
    expect(mail.parsed.text).toContain('Hauptstraße 1')
    expect(mail.parsed.text).toContain('10115 Berlin')
    expect(mail.parsed.text).toContain('Deutschland (DE)')
    expect(mail.parsed.text).toContain('USt-IdNr.: DE123456789')
  })

  test('notifies the domain’s webhooks in the same step, as an inquiry does', async () => {
    const { id } = await stored('hook.de')
    const [request] = await hooks.waitFor(1, (r) => r.url === '/kauf' && JSON.parse(r.body).id === id)
    expect(JSON.parse(request!.body)).toMatchObject({ event: 'inquiry.created', kind: 'checkout', offer: { amount: 900, currency: 'EUR' }, status: 'new' })
  })

  test('cannot choose its price: an amount in the form is ignored, the file’s price is stored', async () => {
    const { id } = await stored('fest.de', { offer: '1', price: '1', amount: '1' })
    expect((await detail(id)).offer).toMatchObject({ amount: 4900, currency: 'EUR' })
  })

  test('without the binding tick is refused with the hint, and what was typed is shown again as text', async () => {
    const name = '<img src=x onerror=alert(1)>'
    const { answer, email } = await inProcess.checkout('fest.de', { binding: '', name58fnlsd: name })
    expect(answer.status).toBe(400)
    expect(answer.html).toContain('Bitte bestätigen Sie, dass Sie verbindlich zum angezeigten Preis kaufen.')
    expect(answer.html).toContain('value="&lt;img src=x onerror=alert(1)&gt;"')
    expect(answer.html).not.toContain('<img src=x')
    expect((await inProcess.inbox()).items.some((entry) => entry.email === email)).toBe(false)
  })

  test.each([
    ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    ['a page of another site without Origin', { 'sec-fetch-site': 'cross-site' }],
  ])('from %s is refused (403) and nothing is stored', async (_case, headers) => {
    const { answer, email } = await inProcess.checkout('fest.de', {}, headers)
    expect(answer.status).toBe(403)
    expect((await inProcess.inbox()).items.some((entry) => entry.email === email)).toBe(false)
  })

  test('with a forged or another host’s token is refused (403) and nothing is stored', async () => {
    const other = await inProcess.checkoutForm('fixed.com')
    const forged: Record<string, string>[] = [{ hash: `${other.hash.split('.')[0]}.${'A'.repeat(43)}` }, { token: other.token, hash: other.hash }]
    for (const token of forged) {
      const { answer, email } = await inProcess.checkout('fest.de', token)
      expect(answer.status).toBe(403)
      expect((await inProcess.inbox()).items.some((entry) => entry.email === email)).toBe(false)
    }
  })

  test('with a filled decoy is kept as spam: the owner is not mailed, and it cannot be confirmed', async () => {
    const { id, email } = await stored('fest.de', { name58fnlsdbee: 'bot' })
    expect((await detail(id)).status).toBe('spam')
    const response = await send(`/api/inquiries/${id}/accept`, {})
    expect(response.status).toBe(409)
    // A genuine checkout sent after it reaches the owner; the spam one never does.
    const later = await stored('fest.de')
    await ownerMailAbout(later.email)
    expect(smtp.messages.some((m) => (m.parsed.text ?? '').includes(email))).toBe(false)
  })

  test('what the buyer typed is text in the console’s page, its export (CSV) and the owner’s mail', async () => {
    const company = '=HYPERLINK("http://evil.example")'
    const { id, email } = await stored('fest.de', { company, city: '<b>Köln</b>' })
    expect((await detail(id)).checkout).toMatchObject({ company, city: '<b>Köln</b>' })
    const mail = await ownerMailAbout(email)
    expect(mail.parsed.text).toContain('<b>Köln</b>')
    expect(mail.parsed.html ?? '').not.toContain('<b>Köln</b>')
    const page = await (await client.call(`/anfragen/${id}`, { cookie })).text()
    expect(page).toContain('Kauf zum Festpreis')
    expect(page).not.toContain('<b>Köln</b>')
    const csv = await (await send('/api/export?format=csv', undefined, 'GET')).text()
    expect(csv).not.toMatch(/(^|[,;\n])"?=HYPERLINK/)
  })
})

describe('the owner', () => {
  test('confirms in the console: a deal at the listed price, and the buyer is mailed its page', async () => {
    const { id, email } = await stored('fest.de')
    const confirmed = await send(`/api/inquiries/${id}/accept`, {})
    expect(confirmed.status, await confirmed.clone().text()).toBe(200)
    const shown = (await confirmed.json()) as InquiryDetail
    expect(shown.deal).toMatchObject({ status: 'awaiting_payment' })
    const mail = await mailTo(email)
    expect(mail.parsed.text).toContain('4.900\u00a0€')
    const page = await open('fest.de', pageLinkIn(mail, 'fest.de'))
    expect(page.status).toBe(200)
    expect(textOf(page)).toContain('4.900 € inkl. MwSt.')
    expect(textOf(page)).toContain('IBAN DE89 3704 0044 0532 0130 00')
    // One sale of a name at a time: the next tests buy fest.de again.
    expect((await send(`/api/deals/${shown.deal!.id}/cancel`, { reason: 'Test' })).status).toBe(200)
  })

  test('confirms from the CLI: `checkout confirm ID` prints the deal, and the buyer’s mail links its page', async () => {
    const { id, email } = await stored('fest.de')
    const run = await cli('checkout', 'confirm', String(id))
    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/Deal \d+ is waiting for payment: https:\/\/fest\.de\/kauf\//)
    const page = pageLinkIn(await mailTo(email), 'fest.de')
    expect(run.out).toContain(page)
    expect((await open('fest.de', page)).status).toBe(200)
    const deal = /Deal (\d+) is waiting/.exec(run.out)![1]!
    expect((await cli('deal', 'cancel', deal)).code).toBe(0)
  })

  test('declines in the console or the CLI: the buyer is mailed politely, with the reason, and no deal is made', async () => {
    const first = await stored('fest.de')
    const declined = await send(`/api/inquiries/${first.id}/decline`, { note: 'Die Domain ist leider schon vergeben.' })
    expect(declined.status).toBe(200)
    expect(((await declined.json()) as InquiryDetail).deal).toBeNull()
    expect((await mailTo(first.email)).parsed.text).toContain('Die Domain ist leider schon vergeben.')

    const second = await stored('fest.de')
    const run = await cli('checkout', 'decline', String(second.id), '--reason', 'Verkauf an einen anderen Käufer.')
    expect(run.code, run.err).toBe(0)
    const mail = await mailTo(second.email)
    expect(mail.parsed.text).toContain('Leider kann ich Ihr Angebot nicht annehmen.')
    expect(mail.parsed.text).toContain('Verkauf an einen anderen Käufer.')
    expect((await detail(second.id)).deal).toBeNull()
  })

  test('the CLI refuses `checkout confirm` for an inquiry that is no checkout', async () => {
    const email = `anfrage${++buyers}@example.net`
    const form = await checkoutForm('fest.de')
    const response = await open('fest.de', '/api/contact', { method: 'POST', body: { ...VISITOR, themail3h6: email, ...form } })
    expect(response.status, response.html).toBe(200)
    const item = (await inbox()).items.find((entry) => entry.email === email)!
    const run = await cli('checkout', 'confirm', String(item.id))
    expect(run.code).toBe(2)
    expect(run.err).toContain(`inquiry ${item.id} is no checkout`)
  })
})

describe('a price changed while the form is open', () => {
  const host = 'preiswechsel.de'
  const hiddenIn = (html: string) =>
    Object.fromEntries(['token', 'hash', 'terms'].map((name) => [name, new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1]!]))
  const bindingBox = (html: string) => /<input[^>]*name="binding"[^>]*>/.exec(html)![0]

  test('binds nobody: the old form comes back at the new price with the tick cleared, nothing stored; ticked again, it is the new price’s', async () => {
    // A checkout sent at 600 € before the change, and a form opened at 600 € and sent after it.
    const before = await inProcess.stored(host)
    const page = await inProcess.open(host, '/kaufen')
    expect(textOf(page)).toContain('zum Festpreis: 600 € inkl. MwSt.')
    const typed = { ...buyer(), ...hiddenIn(page.html) }
    // The owner raises the price in the file (as `domains set` does: written anew, then renamed over it).
    fs.writeFileSync(`${domainsFile}.neu`, fs.readFileSync(domainsFile, 'utf8').replace(`${host}: { price: 600,`, `${host}: { price: 60000,`))
    fs.renameSync(`${domainsFile}.neu`, domainsFile)
    // The reload runs in a process of its own: seconds on a busy machine.
    await expect.poll(async () => textOf(await inProcess.open(host, '/kaufen')), { timeout: 60_000 }).toContain('zum Festpreis: 60.000 € inkl. MwSt.')

    const answer = await inProcess.open(host, '/kaufen', { method: 'POST', form: typed, headers: sameOrigin(host) })
    expect(answer.status, answer.html).toBe(409)
    const shown = textOf(answer)
    expect(shown).toContain('Der Preis oder die Zahlungsbedingungen haben sich geändert')
    expect(shown).toContain('Der Preis ist jetzt 60.000 € inkl. MwSt.')
    expect(shown).toContain('Ich kaufe die Domain verbindlich zum angezeigten Preis (60.000 € inkl. MwSt.).')
    expect(shown).not.toContain('600 €')
    expect(bindingBox(answer.html)).not.toContain('checked')
    expect(answer.html).toContain('value="Hauptstraße 1"')
    expect((await inProcess.inbox()).items.some((entry) => entry.email === typed.themail3h6)).toBe(false)

    // The page it got back, ticked again: a purchase at the price it shows.
    const again = await inProcess.open(host, '/kaufen', {
      method: 'POST',
      form: { ...typed, ...hiddenIn(answer.html), binding: 'on' },
      headers: sameOrigin(host),
    })
    expect(again.status, again.html).toBe(303)
    const item = (await inProcess.inbox()).items.find((entry) => entry.email === typed.themail3h6)!
    expect((await inProcess.detail(item.id)).offer).toMatchObject({ amount: 60000, currency: 'EUR' })
    // The checkout sent before the change keeps the price its buyer was shown and ticked (decision 035).
    expect((await inProcess.detail(before.id)).offer).toMatchObject({ amount: 600, currency: 'EUR' })
  }, 120_000)

  test('an old form without the terms, or with other terms, is shown again too', async () => {
    const page = await inProcess.open(host, '/kaufen')
    const { terms, ...rest } = hiddenIn(page.html)
    for (const sent of [rest, { ...rest, terms: `${terms}x` }]) {
      const answer = await inProcess.open(host, '/kaufen', { method: 'POST', form: { ...buyer(), ...sent }, headers: sameOrigin(host) })
      expect(answer.status).toBe(409)
      expect(bindingBox(answer.html)).not.toContain('checked')
    }
  })
})

describe('a wildcard entry with a fixed price', () => {
  const label = 'ihr-konto-gesperrt-anmelden-evil-example.wild-fix.de'

  test('gives a name under it the page and its form, but no checkout: no button, 404 shown and sent, nothing stored', async () => {
    const page = await inProcess.open(label, '/')
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('href="/kaufen"')
    expect((await inProcess.open(label, '/kaufen')).status).toBe(404)
    const form = { ...buyer(), token: 'A'.repeat(15), hash: 'x', terms: 'x' }
    const answer = await inProcess.open(label, '/kaufen', { method: 'POST', form, headers: sameOrigin(label) })
    expect(answer.status).toBe(404)
    expect((await inProcess.inbox()).items.some((entry) => entry.email === form.themail3h6 || entry.domain === label)).toBe(false)
  })

  test('and neither does a name shown through `unknownHosts: page` with a fixed price by default', async () => {
    const file = path.join(dir, 'unknown-hosts.yaml')
    fs.writeFileSync(file, 'unknownHosts: page\ndefault: { price: 900, priceType: fixed }\ndomains:\n  gelistet.de: {}\n')
    const other = await buildTestApp({ DOMAINS_FILE: file })
    try {
      expect((await other.requestAs('gelistet.de', `${other.url}/kaufen`)).status).toBe(200)
      const page = await other.requestAs('irgendwas-anmelden.example', `${other.url}/`)
      expect(page.status).toBe(200)
      expect(page.html).not.toContain('href="/kaufen"')
      expect((await other.requestAs('irgendwas-anmelden.example', `${other.url}/kaufen`)).status).toBe(404)
    } finally {
      await other.close()
    }
  })
})

describe('privacy', () => {
  test('`access` lists the checkout with its address, and `forget` erases it with its inquiry', async () => {
    const { id, email } = await stored('fest.de', { street: 'Geheimweg 7' })
    const access = await cli('access', '--email', email)
    expect(access.code, access.err).toBe(0)
    const report = JSON.parse(access.out) as { inquiries: { id: number; checkout?: { street: string } }[] }
    expect(report.inquiries.find((entry) => entry.id === id)?.checkout).toMatchObject({ street: 'Geheimweg 7', postcode: '10115', country: 'DE' })
    const forget = await cli('forget', '--email', email)
    expect(forget.code, forget.err).toBe(0)
    expect((await send(`/api/inquiries/${id}`, undefined, 'GET')).status).toBe(404)
    expect((await cli('access', '--email', email)).out).not.toContain('Geheimweg')
  })
})

describe('an English page', () => {
  test('says "Buy now", and its checkout and answer are in English; the deal page too', async () => {
    expect((await open('fixed.com', '/')).html).toMatch(/<a class="buy" href="\/kaufen">Buy now<\/a>/)
    const form = await open('fixed.com', '/kaufen')
    expect(form.html).toContain('<html lang="en">')
    expect(textOf(form)).toContain('You are buying the domain fixed.com at the fixed price: $2,000')
    expect(form.html).toContain('<option value="DE">Germany</option>')
    const { id, email } = await stored('fixed.com', { country: 'GB', vat_id: '' })
    expect(textOf(await open('fixed.com', '/kaufen?gesendet=1'))).toContain('Thank you! Your purchase has been received.')
    expect((await detail(id)).checkout).toMatchObject({ country: 'GB', vatId: null })
    expect((await send(`/api/inquiries/${id}/accept`, {})).status).toBe(200)
    const page = await open('fixed.com', pageLinkIn(await mailTo(email), 'fixed.com'))
    expect(page.html).toContain('<html lang="en">')
    expect(textOf(page)).toContain('$2,000')
  })
})

describe('limits', () => {
  let limited: ServerProcess
  beforeAll(async () => {
    limited = await startServerProcess({ SMTP_URL: smtp.url, DOMAINS_FILE: domainsFile, NOTIFY_SECRET, MIN_FILL_SECONDS: '30', CONTACT_RATE_LIMIT: '1' })
  })
  afterAll(async () => {
    await limited?.stop()
    limited?.cleanup()
  })

  test('a checkout sent faster than the minimum fill time is kept as spam; beyond the hourly limit it is refused (429)', async () => {
    const post = async () => {
      const page = await requestAs('fest.de', `${limited.url}/kaufen`)
      const token = /name="token" value="([^"]+)"/.exec(page.html)![1]!
      const hash = /name="hash" value="([^"]+)"/.exec(page.html)![1]!
      const terms = /name="terms" value="([^"]+)"/.exec(page.html)![1]!
      return requestAs('fest.de', `${limited.url}/kaufen`, { method: 'POST', form: { ...buyer(), token, hash, terms }, headers: sameOrigin('fest.de') })
    }
    expect((await post()).status).toBe(303)
    const second = await post()
    expect(second.status).toBe(429)
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0)
    const run = await runCli(limited.dataDir, { ...(await storeEnv(limited.dataDir)), DOMAINS_FILE: domainsFile, NOTIFY_SECRET }, 'list', '--json')
    expect(run.code, run.err).toBe(0)
    const rows = JSON.parse(run.out) as { spam: string | null }[]
    expect(rows.map((row) => row.spam)).toEqual(['too-fast'])
  })
})
