// The rules of decision 037 against the real server process, a real SMTP server and the test project's store (SQLite
// or PostgreSQL): "bereits verkauft" to the other inquirers when a deal completes (console and CLI), a deal's deadline
// moved (console and CLI, the buyer's page showing it), a checkout confirmed or declined in the buyer's language, no
// counter-offer on a checkout from any side, one sale of a name at a time, and nothing more for a sold name.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail } from '../../src/shared/console-api.ts'
import type { DealSummary } from '../../src/shared/deal-api.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR, type RawResponse } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deal-rules-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `domains:
  fest.de: { price: 4900, priceType: fixed }
  zweimal.de: { price: 3000, priceType: fixed, language: auto }
  fixed.com: { price: 2000, priceType: fixed, language: en, currency: USD }
  beide.de: { minOffer: 100, language: auto }
  terminal.de: { minOffer: 100 }
  still.de: { minOffer: 100 }
  frist.de: { minOffer: 100 }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const send = (pathName: string, body?: unknown, method = 'POST') => client.call(pathName, { method, body, cookie })
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }, ...args)
const open = (host: string, pathName: string, options: Parameters<typeof requestAs>[2] = {}) => requestAs(host, `${server.url}${pathName}`, options)
const sameOrigin = (host: string) => ({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })
const detail = async (id: number) => (await (await send(`/api/inquiries/${id}`, undefined, 'GET')).json()) as InquiryDetail
const textOf = (page: RawResponse) =>
  page.html
    .replace(/<(svg|style|head)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')

let people = 0
const nextAddress = () => `person${++people}@example.net`

/** The inquiry of `email` in the inbox. */
async function inquiryOf(email: string): Promise<number> {
  const item = ((await (await send('/api/inbox', undefined, 'GET')).json()) as InboxPage).items.find((entry) => entry.email === email)
  expect(item, email).toBeDefined()
  return item!.id
}

/** A visitor writes from `host` (in `language` where the page speaks both) with an offer. */
async function writeFrom(host: string, fields: Record<string, string> = {}, language = 'de-DE') {
  const email = fields.themail3h6 ?? nextAddress()
  const { token, hash } = await fetchForm(server.url, host, { 'accept-language': language })
  const response = await open(host, '/api/contact', {
    method: 'POST',
    body: { ...VISITOR, themail3h6: email, offer: '500', token, hash, ...fields },
    headers: { 'accept-language': language },
  })
  expect(response.status, response.html).toBe(200)
  return { id: await inquiryOf(email), email }
}

/** A checkout sent as the browser sends it; the answer and the buyer's address. */
async function checkout(host: string, language = 'de-DE') {
  const page = await open(host, '/kaufen', { headers: { 'accept-language': language } })
  const token = /name="token" value="([^"]+)"/.exec(page.html)?.[1] ?? 'none'
  const hash = /name="hash" value="([^"]+)"/.exec(page.html)?.[1] ?? 'none'
  const terms = /name="terms" value="([^"]+)"/.exec(page.html)?.[1] ?? 'none'
  const email = nextAddress()
  const form = {
    name58fnlsd: 'Kim Käufer',
    name58fnlsdbee: '',
    themail3h6: email,
    themail3h6bee: '',
    street: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    binding: 'on',
    token,
    hash,
    terms,
  }
  const answer = await open(host, '/kaufen', { method: 'POST', form, headers: { ...sameOrigin(host), 'accept-language': language } })
  return { answer, email }
}
async function storedCheckout(host: string, language = 'de-DE') {
  const { answer, email } = await checkout(host, language)
  expect(answer.status, answer.html).toBe(303)
  return { id: await inquiryOf(email), email }
}

const mailsTo = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email))
async function mailTo(email: string, count = 1): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(email).length).toBeGreaterThanOrEqual(count)
  return mailsTo(email)[count - 1]!
}

/** Accepts in the console; the deal. */
async function accepted(id: number): Promise<DealSummary> {
  const response = await send(`/api/inquiries/${id}/accept`, {})
  expect(response.status, await response.clone().text()).toBe(200)
  return ((await response.json()) as InquiryDetail).deal!
}

describe('a checkout in the buyer’s language', () => {
  test('an English buyer’s checkout is confirmed in English, with the deal page linked', async () => {
    const { id, email } = await storedCheckout('fixed.com')
    const deal = await accepted(id)
    const mail = await mailTo(email)
    expect(mail.parsed.subject).toBe('Re: Inquiry about fixed.com: Purchase confirmed')
    expect(mail.parsed.text).toContain('thank you for your purchase: I confirm it and sell you fixed.com at the fixed price of $2,000.')
    expect(mail.parsed.text).toMatch(/https:\/\/fixed\.com\/kauf\/[A-Za-z0-9_.-]+/)
    expect(mail.parsed.text).not.toMatch(/Guten Tag|Angebot|schrieben Sie/)
    expect((await cli('deal', 'cancel', String(deal.id))).code).toBe(0)
  })

  test('an English buyer’s checkout is declined in English, with the owner’s reason (from the CLI too)', async () => {
    const first = await storedCheckout('fixed.com')
    expect((await send(`/api/inquiries/${first.id}/decline`, { note: 'The name is reserved for a partner.' })).status).toBe(200)
    const mail = await mailTo(first.email)
    expect(mail.parsed.subject).toBe('Re: Inquiry about fixed.com: Purchase declined')
    expect(mail.parsed.text).toContain('Unfortunately I cannot confirm your purchase.')
    expect(mail.parsed.text).toContain('The name is reserved for a partner.')

    const second = await storedCheckout('fixed.com')
    const run = await cli('checkout', 'decline', String(second.id), '--reason', 'Sorry.')
    expect(run.code, run.err).toBe(0)
    expect((await mailTo(second.email)).parsed.subject).toBe('Re: Inquiry about fixed.com: Purchase declined')
  })

  test('a German buyer’s checkout keeps the German mails (Annahme, Ablehnung)', async () => {
    const { id, email } = await storedCheckout('fest.de')
    const deal = await accepted(id)
    const mail = await mailTo(email)
    expect(mail.parsed.subject).toBe('Re: Anfrage zu fest.de: Angebot angenommen')
    expect(mail.parsed.text).toContain('Vereinbarter Betrag: 4.900\u00a0€')
    expect((await cli('deal', 'cancel', String(deal.id))).code).toBe(0)
  })

  test('the English templates are the owner’s to edit, like the others', async () => {
    const saved = await send('/api/templates/checkout-accept-en', { text: 'Dear buyer, {domain} is yours for {betrag}: {link}' })
    expect(saved.status, await saved.clone().text()).toBe(200)
    const listed = ((await saved.json()) as { templates: { kind: string; language: string; isDefault: boolean }[] }).templates
    expect(listed.find((entry) => entry.kind === 'checkout-accept-en')).toMatchObject({ language: 'en', isDefault: false })
    expect(listed.find((entry) => entry.kind === 'sold')).toMatchObject({ language: 'de', isDefault: true })
    expect((await send('/api/templates/checkout-accept-en', { text: 'Hi {frist}' })).status).toBe(400)
    const { id, email } = await storedCheckout('fixed.com')
    const deal = await accepted(id)
    expect((await mailTo(email)).parsed.text).toMatch(/^Dear buyer, fixed\.com is yours for \$2,000: https:\/\/fixed\.com\/kauf\//)
    expect((await send('/api/templates/checkout-accept-en', undefined, 'DELETE')).status).toBe(200)
    expect((await cli('deal', 'cancel', String(deal.id))).code).toBe(0)
  })
})

describe('a checkout is bought at its price', () => {
  test('a counter-offer to it is refused by the console’s API and the CLI, and nothing is mailed', async () => {
    const { id, email } = await storedCheckout('fest.de')
    const response = await send(`/api/inquiries/${id}/counter`, { amount: '3000' })
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: string }).error).toBe(
      'Ein Kauf zum Festpreis wird bestätigt oder abgelehnt, nicht mit einem Gegenangebot beantwortet.',
    )
    const run = await cli('counter', String(id), '--amount', '3000')
    expect(run.code).toBe(2)
    expect(run.err).toContain(`inquiry ${id} is a checkout at the fixed price: confirm or decline it`)
    expect((await detail(id)).replies).toEqual([])
    expect(mailsTo(email)).toEqual([])
  })
})

describe('one sale of a name at a time', () => {
  test('while a deal is open the checkout says so (409, both languages), a second pending checkout cannot be confirmed, and after a cancel it can', async () => {
    const first = await storedCheckout('zweimal.de')
    const waiting = await storedCheckout('zweimal.de', 'en-GB')
    const deal = await accepted(first.id)

    const german = await open('zweimal.de', '/kaufen', { headers: { 'accept-language': 'de-DE' } })
    expect(german.status).toBe(409)
    expect(textOf(german)).toContain('Für diese Domain läuft gerade ein Kauf.')
    const english = await open('zweimal.de', '/kaufen', { headers: { 'accept-language': 'en-US' } })
    expect(english.status).toBe(409)
    expect(textOf(english)).toContain('A purchase of this domain is under way')
    const { answer, email } = await checkout('zweimal.de')
    expect(answer.status).toBe(409)
    expect(((await (await send('/api/inbox', undefined, 'GET')).json()) as InboxPage).items.some((item) => item.email === email)).toBe(false)

    const refused = await send(`/api/inquiries/${waiting.id}/accept`, {})
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: string }).error).toContain(`Diese Domain wird gerade verkauft (Verkauf Nr. ${deal.id})`)
    const run = await cli('checkout', 'confirm', String(waiting.id))
    expect(run.code).toBe(2)
    expect(run.err).toContain(`this name is being sold already (deal ${deal.id})`)
    expect(mailsTo(waiting.email)).toEqual([])

    expect((await cli('deal', 'cancel', String(deal.id), '--reason', 'Zahlung kam nicht.')).code).toBe(0)
    expect((await open('zweimal.de', '/kaufen')).status).toBe(200)
    const second = await accepted(waiting.id)
    expect(second.status).toBe('awaiting_payment')
    // Written while the name is still for sale (a sold name's page has no form).
    const late = await writeFrom('zweimal.de')
    // A sold name: no checkout (410), nothing accepted.
    expect((await cli('deal', 'paid', String(second.id))).code).toBe(0)
    expect((await cli('deal', 'complete', String(second.id))).code).toBe(0)
    expect((await open('zweimal.de', '/kaufen')).status).toBe(410)
    const afterSale = await send(`/api/inquiries/${late.id}/accept`, {})
    expect(afterSale.status).toBe(409)
    expect(((await afterSale.json()) as { error: string }).error).toContain('Diese Domain ist verkauft')
    const cliAfterSale = await cli('accept', String(late.id))
    expect(cliAfterSale.code).toBe(2)
    expect(cliAfterSale.err).toContain('this name is sold')
  })
})

describe('"bereits verkauft"', () => {
  test('completing in the console with "Andere Interessenten informieren" mails each other inquirer once, in their language, as text', async () => {
    const buyer = await writeFrom('beide.de')
    const germanAddress = nextAddress()
    await writeFrom('beide.de', { themail3h6: germanAddress, message: 'Erste Anfrage' })
    const german = await writeFrom('beide.de', { themail3h6: germanAddress, name58fnlsd: '<b>Anna</b>', message: '<script>x</script> Noch eine' })
    const english = await writeFrom('beide.de', { message: 'How much?' }, 'en-GB,en;q=0.9')
    const declined = await writeFrom('beide.de')
    expect((await send(`/api/inquiries/${declined.id}/decline`, {})).status).toBe(200)
    await mailTo(declined.email)

    const deal = await accepted(buyer.id)
    expect((await cli('deal', 'paid', String(deal.id))).code).toBe(0)
    const completed = await send(`/api/deals/${deal.id}/complete`, { notifyOthers: true })
    expect(completed.status, await completed.clone().text()).toBe(200)
    expect((await completed.json()) as DealSummary).toMatchObject({ status: 'completed', soldNotices: 2 })

    const germanMail = await mailTo(germanAddress)
    expect(germanMail.parsed.subject).toBe('Re: Anfrage zu beide.de: Bereits verkauft')
    expect(germanMail.parsed.text).toContain('Die Domain ist inzwischen verkauft')
    expect(germanMail.parsed.text).toContain('> <script>x</script> Noch eine')
    expect(germanMail.parsed.html).toBeFalsy()
    const englishMail = await mailTo(english.email)
    expect(englishMail.parsed.subject).toBe('Re: Inquiry about beide.de: Already sold')
    expect(englishMail.parsed.text).toContain('The domain has been sold in the meantime')
    expect(englishMail.parsed.text).toContain('> How much?')

    // Once per address; not the buyer (their mails: acceptance, paid, completed); not the declined one.
    await expect.poll(() => smtp.messages.filter((m) => /Bereits verkauft|Already sold/.test(m.parsed.subject ?? '')).length).toBe(2)
    expect(mailsTo(germanAddress)).toHaveLength(1)
    await mailTo(buyer.email, 3)
    expect(mailsTo(buyer.email).map((m) => m.parsed.subject)).not.toContainEqual(expect.stringMatching(/Bereits verkauft/))
    expect(mailsTo(declined.email)).toHaveLength(1)
    // The console shows who was told.
    expect((await detail(german.id)).replies.map((reply) => reply.kind)).toEqual(['sold-notice'])
    expect((await detail(english.id)).replies.map((reply) => reply.kind)).toEqual(['sold-notice'])
  })

  test('`deal complete ID --notify-others` tells them from the CLI; without it nobody is told', async () => {
    const buyer = await writeFrom('terminal.de')
    const other = await writeFrom('terminal.de')
    const deal = await accepted(buyer.id)
    expect((await cli('deal', 'paid', String(deal.id))).code).toBe(0)
    const run = await cli('deal', 'complete', String(deal.id), '--notify-others')
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('1 other inquiry is told it is sold.')
    expect((await mailTo(other.email)).parsed.subject).toBe('Re: Anfrage zu terminal.de: Bereits verkauft')
    const misplaced = await cli('deal', 'paid', String(deal.id), '--notify-others')
    expect(misplaced.code).toBe(2)
    expect(misplaced.err).toContain('--notify-others belongs to deal complete and deal transfer')

    const quiet = await writeFrom('still.de')
    const bystander = await writeFrom('still.de')
    const second = await accepted(quiet.id)
    expect((await cli('deal', 'paid', String(second.id))).code).toBe(0)
    const plain = await cli('deal', 'complete', String(second.id))
    expect(plain.code, plain.err).toBe(0)
    expect(plain.out).not.toContain('told it is sold')
    // The notices would be in the completion's transaction: none is in the bystander's history.
    expect((await detail(bystander.id)).replies).toEqual([])
  })
})

describe('a deal’s deadline', () => {
  const berlinDay = (ms: number) => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'long' }).format(new Date(ms))
  const isoDay = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date(ms))

  test('is moved from the CLI and the console; the buyer’s page shows the new date; a past date is refused', async () => {
    const buyer = await writeFrom('frist.de')
    const deal = await accepted(buyer.id)
    const page = /https:\/\/frist\.de(\/kauf\/[A-Za-z0-9_.-]+)/.exec((await mailTo(buyer.email)).parsed.text ?? '')![1]!

    const later = Date.now() + 20 * 86_400_000
    const run = await cli('deal', 'deadline', String(deal.id), '--payment', isoDay(later))
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain("The buyer's page shows the new date")
    expect(textOf(await open('frist.de', page))).toContain(berlinDay(later))
    const shown = JSON.parse((await cli('deal', 'show', String(deal.id), '--json')).out) as DealSummary
    expect(isoDay(shown.nextDeadline!)).toBe(isoDay(later))

    const past = await cli('deal', 'deadline', String(deal.id), '--payment', '2020-01-01')
    expect(past.code).toBe(2)
    expect(past.err).toContain('the new deadline is in the past')
    expect((await cli('deal', 'deadline', String(deal.id), '--payment', '31.12.2026')).err).toContain('--payment takes a day as YYYY-MM-DD')
    expect((await cli('deal', 'deadline', String(deal.id))).err).toContain('exactly one of --payment')

    const refused = await send(`/api/deals/${deal.id}/deadline`, { payment: '2020-01-01' })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: string }).error).toBe('Die neue Frist liegt in der Vergangenheit: Bitte ein Datum ab heute angeben.')
    const moved = await send(`/api/deals/${deal.id}/deadline`, { days: 30 })
    expect(moved.status, await moved.clone().text()).toBe(200)
    const summary = (await moved.json()) as DealSummary
    expect(isoDay(summary.nextDeadline!)).toBe(isoDay(Date.now() + 30 * 86_400_000))
    expect(textOf(await open('frist.de', page))).toContain(berlinDay(summary.nextDeadline!))
    // Paid: the transfer's deadline moves; the payment's no more.
    expect((await cli('deal', 'paid', String(deal.id))).code).toBe(0)
    expect((await send(`/api/deals/${deal.id}/deadline`, { payment: isoDay(later) })).status).toBe(409)
    const transfer = await send(`/api/deals/${deal.id}/deadline`, { transfer: isoDay(later) })
    expect(transfer.status).toBe(200)
    expect((await transfer.json()) as DealSummary).toMatchObject({ status: 'paid', nextDeadlineLabel: 'Übertragung bis' })
  })
})
