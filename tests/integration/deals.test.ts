// Deals against the real server process, a real SMTP server and the test project's store (SQLite or PostgreSQL):
// "Annehmen" makes a deal whose page the acceptance mail links to; the page on the domain's own host in the buyer's
// language, with the payment as configured (the EPC QR code decoded by a real decoder); the owner's steps from the
// console and the CLI, each mailing the buyer; the buyer's steps on the page; and what an attacker tries.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage, InquiryDetail } from '../../src/shared/console-api.ts'
import type { DealSummary, SalesPage } from '../../src/shared/deal-api.ts'
import { runCli, runCliWithInput } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, requestAs, VISITOR, type RawResponse } from '../helpers/contact.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { decodeQrSvg } from '../helpers/qr.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deals-'))
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `portfolio: true
default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
    link: "https://pay.example/{betrag}?ref={referenz}&cur={waehrung}"
domains:
  beispiel.de: { price: 5000, minOffer: 1000, vat: included, mailTo: sales@example.org }
  zweite.de: { minOffer: 100 }
  verkauf.de: { price: 900, minOffer: 100 }
  dritte.de: { price: 700, minOffer: 100 }
  # One open deal per name (decision 037): a test that needs a deal of its own has a name of its own.
  angebot.de: { price: 5000, minOffer: 1000, vat: included, mailTo: sales@example.org }
  giro.de: { minOffer: 100 }
  angriff.de: { minOffer: 100 }
  eins.de: { minOffer: 100 }
  zwei.de: { minOffer: 100 }
  quer.de: { minOffer: 100 }
  storno.de: { minOffer: 100 }
  spaet.de: { minOffer: 100 }
  vergeben.de: { minOffer: 100 }
  english.com:
    language: en
    currency: USD
    minOffer: 100
    payment: { seller: Example Ltd, escrow: { name: Escrow Example, url: "https://escrow.example/start" } }
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

let visitors = 0
/** A visitor writes from `host` with an offer; resolves with the inquiry's id and their address. */
async function writeFrom(host: string, offer: string, fields: Record<string, string> = {}) {
  const email = `kaeufer${++visitors}@example.net`
  const { token, hash } = await fetchForm(server.url, host)
  const response = await requestAs(host, `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: email, message: `Anfrage ${visitors}`, offer, token, hash, ...fields },
  })
  expect(response.status, response.html).toBe(200)
  const page = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  return { id: page.items[0]!.id, email }
}

/** The `count`-th mail to `email`. */
async function mailTo(email: string, count = 1): Promise<ReceivedMail> {
  const to = () => smtp.messages.filter((m) => m.envelope.to.includes(email))
  await expect.poll(() => to().length).toBeGreaterThanOrEqual(count)
  return to()[count - 1]!
}

const send = (pathName: string, body?: unknown, method = 'POST') => client.call(pathName, { method, body, cookie })
const env = () => storeEnv(server.dataDir)
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await env()), DOMAINS_FILE: domainsFile }, ...args)

/** The deal page's path in a mail: https://<host>/kauf/<token>. */
function pageLinkIn(mail: ReceivedMail, host: string): string {
  const match = new RegExp(`https://${host.replace(/\./g, '\\.')}(/kauf/[A-Za-z0-9_.-]+)`).exec(mail.parsed.text ?? '')
  expect(match, mail.parsed.text).not.toBeNull()
  return match![1]!
}

const open = (host: string, pathName: string, options: Parameters<typeof requestAs>[2] = {}) => requestAs(host, `${server.url}${pathName}`, options)
/** Posts a form of the page as the browser does (same origin). */
const post = (host: string, pathName: string, form: Record<string, string>) =>
  open(host, pathName, { method: 'POST', form, headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' } })

/** The visible text of a page, without markup. */
const textOf = (page: RawResponse) =>
  page.html
    .replace(/<(svg|style|head)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')

async function acceptedDeal(host: string, offer: string) {
  const visitor = await writeFrom(host, offer)
  const response = await send(`/api/inquiries/${visitor.id}/accept`, {})
  expect(response.status, await response.clone().text()).toBe(200)
  const mail = await mailTo(visitor.email)
  return { ...visitor, mail, page: pageLinkIn(mail, host) }
}

describe('accepting an offer', () => {
  test('makes a deal and mails the buyer the link to its page on the domain’s own host', async () => {
    const { mail, page } = await acceptedDeal('beispiel.de', '2.500')
    expect(mail.parsed.subject).toBe('Re: Anfrage zu beispiel.de: Angebot angenommen')
    expect(mail.parsed.text).toContain('Vereinbarter Betrag: 2.500\u00a0€')
    expect(mail.parsed.text).toContain(
      `Alles Weitere (Zahlung, Übertragung der Domain) finden Sie auf Ihrer persönlichen Kaufseite:\nhttps://beispiel.de${page}`,
    )
    // 128 random bits and a 128-bit MAC; nothing of the buyer in it.
    expect(page).toMatch(/^\/kauf\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/)
    const answer = await open('beispiel.de', page)
    expect(answer.status).toBe(200)
    expect(answer.headers['cache-control']).toBe('no-store')
    expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow')
    expect(answer.html).toContain('<meta name="robots" content="noindex,nofollow" />')
    expect(answer.html).toContain('<html lang="de">')
    // No script on the page: it works without one.
    expect(answer.html).not.toMatch(/<script(?![^>]*type="application\/json")/)
  })

  test('the page shows the domain, amount with VAT note, reference, seller, timeline, what to do, bank data and the contact', async () => {
    const { page } = await acceptedDeal('angebot.de', '2.500')
    const answer = await open('angebot.de', page)
    const text = textOf(answer)
    expect(text).toContain('Ihr Kauf von angebot.de')
    expect(text).toContain('Vereinbarter Betrag 2.500 € inkl. MwSt.')
    expect(text).toMatch(/Kaufnummer DL-20\d\d-\d{4}/)
    expect(text).toContain('Verkäufer Jürgen Müller')
    expect(text).toMatch(/Zahlung \(aktueller Schritt\) bis \d+\. \w+ 20\d\d um \d\d:\d\d Uhr/)
    expect(text).toContain('Übertragung (folgt)')
    expect(text).toContain('Abgeschlossen (folgt)')
    expect(text).toContain('Bitte zahlen Sie den vereinbarten Betrag')
    expect(text).toContain('IBAN DE89 3704 0044 0532 0130 00')
    expect(text).toContain('BIC COBADEFFXXX')
    expect(text).toContain('schreiben Sie an sales@example.org')
    expect(answer.html).toContain('aria-current="step"')
  })

  test('the GiroCode on the page decodes to the IBAN, the amount in cents and the reference; the payment link is filled in', async () => {
    const { page } = await acceptedDeal('giro.de', '1.234')
    const answer = await open('giro.de', page)
    const reference = /DL-20\d\d-\d{4}/.exec(answer.html)![0]
    const svg = /<svg[\s\S]*?<\/svg>/.exec(answer.html)![0]
    expect(decodeQrSvg(svg)).toBe(`BCD\n002\n1\nSCT\nCOBADEFFXXX\nJürgen Müller\nDE89370400440532013000\nEUR1234.00\n\n\n${reference}`)
    expect(answer.html).toContain(`href="https://pay.example/1234.00?ref=${reference}&amp;cur=EUR"`)
  })

  test('an English buyer gets the page in English; escrow is explained; no QR code for a currency other than euros', async () => {
    const { page, mail } = await acceptedDeal('english.com', '900')
    expect(mail.parsed.text).toContain('https://english.com/kauf/')
    const answer = await open('english.com', page)
    const text = textOf(answer)
    expect(answer.html).toContain('<html lang="en">')
    expect(text).toContain('Your purchase of english.com')
    expect(text).toContain('Agreed amount $900')
    expect(text).toContain('Seller Example Ltd')
    expect(text).toContain('You pay the escrow service Escrow Example. It pays the seller only once the domain has arrived with you.')
    expect(text).toMatch(/Payment \(current step\) by \d+ \w+ 20\d\d at \d\d:\d\d \(Berlin time\)/)
    expect(answer.html).toContain('href="https://escrow.example/start"')
    expect(answer.html).not.toContain('<svg')
  })

  test('from the CLI too: accept prints the deal and its page, and the buyer’s mail links it', async () => {
    const visitor = await writeFrom('zweite.de', '300')
    const run = await cli('accept', String(visitor.id))
    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/Deal \d+ is waiting for payment: https:\/\/zweite\.de\/kauf\//)
    const mail = await mailTo(visitor.email)
    const page = pageLinkIn(mail, 'zweite.de')
    expect(run.out).toContain(page)
    expect((await open('zweite.de', page)).status).toBe(200)
  })
})

describe('attacks on the deal page', () => {
  test('forged, altered, enumerated and other hosts’ ids all get the same 404 page', async () => {
    const { page } = await acceptedDeal('angriff.de', '2.000')
    const token = page.slice('/kauf/'.length)
    const [id, mac] = token.split('.') as [string, string]
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1)
    const wrong = [
      `${id}.${flip(mac, 0)}`,
      `${flip(id, 5)}.${mac}`,
      `${'A'.repeat(22)}.${'A'.repeat(22)}`,
      id,
      '1',
      '42',
      `${token}x`,
      encodeURIComponent('<script>alert(1)</script>'),
    ]
    const reference = await open('angriff.de', `/kauf/${wrong[0]}`)
    expect(reference.status).toBe(404)
    expect(reference.headers['cache-control']).toBe('no-store')
    for (const candidate of wrong) {
      const answer = await open('angriff.de', `/kauf/${candidate}`)
      expect(answer.status, candidate).toBe(404)
      expect(answer.html, candidate).toBe(reference.html)
    }
    // The right token on another of the owner's hosts is not this deal's page either.
    const elsewhere = await open('zweite.de', page)
    expect(elsewhere.status).toBe(404)
    expect(elsewhere.html).not.toContain('angriff.de')
  })

  test('one deal’s page never shows another’s', async () => {
    const first = await acceptedDeal('eins.de', '2.100')
    const second = await acceptedDeal('zwei.de', '2.200')
    const one = textOf(await open('eins.de', first.page))
    const two = textOf(await open('zwei.de', second.page))
    expect(one).toContain('2.100 €')
    expect(one).not.toContain('2.200 €')
    expect(two).toContain('2.200 €')
    expect(/DL-20\d\d-\d{4}/.exec(one)![0]).not.toBe(/DL-20\d\d-\d{4}/.exec(two)![0])
  })

  test('a cross-site POST to the page is refused and changes nothing', async () => {
    const { page } = await acceptedDeal('quer.de', '2.300')
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
      const answer = await open('quer.de', page, { method: 'POST', form: { action: 'cancel' }, headers })
      expect(answer.status, JSON.stringify(headers)).toBe(403)
    }
    expect(textOf(await open('quer.de', page))).toContain('Zahlung (aktueller Schritt)')
  })
})

/** The deal of an inquiry, as the console shows it. */
async function dealOf(inquiryId: number): Promise<DealSummary> {
  const detail = (await (await client.call(`/api/inquiries/${inquiryId}`, { cookie })).json()) as InquiryDetail
  expect(detail.deal).not.toBeNull()
  return detail.deal!
}

const CODE = 'Xq7#Transfer-Code-4711'

describe('the steps of a deal', () => {
  test('paid, transfer, reveal, received: each mails the buyer, the page moves on, and the name is sold everywhere at once', async () => {
    const { id, email, page } = await acceptedDeal('verkauf.de', '800')
    const deal = await dealOf(id)
    expect(deal).toMatchObject({ status: 'awaiting_payment', amount: '800\u00a0€', overdue: false, hasTransferCode: false })

    // "Zahlung erhalten" in the console.
    const paid = await send(`/api/deals/${deal.id}/paid`, {})
    expect(paid.status, await paid.clone().text()).toBe(200)
    expect(await paid.json()).toMatchObject({ status: 'paid', nextDeadlineLabel: 'Übertragung bis' })
    const paidMail = await mailTo(email, 2)
    expect(paidMail.parsed.subject).toBe('Re: Anfrage zu verkauf.de: Zahlung erhalten')
    expect(paidMail.parsed.text).toContain(`Ihre Zahlung von 800\u00a0€ für verkauf.de (Kaufnummer ${deal.reference}) ist eingegangen.`)
    expect(paidMail.parsed.text).toContain(`https://verkauf.de${page}`)
    expect(paidMail.parsed.replyTo?.text).toBe('owner@example.org')
    let text = textOf(await open('verkauf.de', page))
    expect(text).toContain('Zahlung (erledigt)')
    expect(text).toMatch(/Übertragung \(aktueller Schritt\) bis/)
    expect(text).not.toContain('IBAN')
    // Twice is refused, and nothing is mailed twice.
    expect((await send(`/api/deals/${deal.id}/paid`, {})).status).toBe(409)

    // The transfer code from the CLI's standard input.
    const transfer = await runCliWithInput(
      server.dataDir,
      { ...(await env()), DOMAINS_FILE: domainsFile },
      `${CODE}\n`,
      'deal',
      'transfer',
      String(deal.id),
      '--code-stdin',
    )
    expect(transfer.code, transfer.err).toBe(0)
    expect(transfer.out).toContain(`Deal ${deal.id} (${deal.reference}) is now transferred`)
    const transferMail = await mailTo(email, 3)
    expect(transferMail.parsed.subject).toBe('Re: Anfrage zu verkauf.de: Übertragung der Domain')
    expect(transferMail.parsed.text).toContain('Aus Sicherheitsgründen steht er nicht in dieser E-Mail')
    let answer = await open('verkauf.de', page)
    expect(textOf(answer)).toContain('Transfer-Code Zu Ihrer Sicherheit')
    expect(answer.html).not.toContain(CODE)

    // A wrong address: refused, what was typed shown as text.
    answer = await post('verkauf.de', page, { action: 'reveal', email: '"><script>alert(1)</script>@example.net' })
    expect(answer.status).toBe(400)
    expect(answer.html).toContain('Diese E-Mail-Adresse passt nicht zu diesem Kauf.')
    expect(answer.html).not.toContain('<script>alert(1)')
    expect(answer.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.net')
    expect(answer.html).not.toContain(CODE)
    // The right one, as people type it.
    answer = await post('verkauf.de', page, { action: 'reveal', email: `  ${email.toUpperCase()} ` })
    expect(answer.status).toBe(200)
    expect(answer.headers['cache-control']).toBe('no-store')
    expect(answer.html).toContain(`<code class="deal-code">${CODE.replace('#', '#')}</code>`)

    // Before: the other names' pages and the plain list show it (and keep what they made for the next visitor).
    expect((await open('zweite.de', '/')).html).toContain('https://verkauf.de/')
    expect((await open('zweite.de', '/domains')).html).toContain('verkauf.de')

    // "Domain erhalten".
    answer = await post('verkauf.de', page, { action: 'received' })
    expect(answer.status).toBe(303)
    expect(answer.headers.location).toBe(page)
    const doneMail = await mailTo(email, 4)
    expect(doneMail.parsed.subject).toBe('Re: Anfrage zu verkauf.de: Kauf abgeschlossen')
    text = textOf(await open('verkauf.de', page))
    expect(text).toContain('verkauf.de: verkauft')
    expect(text).toContain('Abgeschlossen (aktueller Schritt)')
    // At once: the name's page says sold, the sitemap and the portfolio drop it.
    const home = await open('verkauf.de', '/')
    expect(home.html).toMatch(/verkauft/i)
    expect(home.html).not.toContain('name="message"')
    expect((await open('verkauf.de', '/sitemap.xml')).html).not.toContain('<loc>')
    expect((await open('zweite.de', '/')).html).not.toContain('https://verkauf.de/')
    expect((await open('zweite.de', '/domains')).html).not.toContain('verkauf.de')
    expect((await open('zweite.de', '/domains')).html).toContain('dritte.de')
    expect((await dealOf(id)).status).toBe('completed')

    // The code is nowhere but sealed in the store: not in a mail, the log, the CLI, the console, `access`.
    for (const mail of smtp.messages) expect(mail.raw).not.toContain(CODE)
    expect(server.output.join('\n')).not.toContain(CODE)
    const listed = await cli('deals', '--json')
    expect(listed.code).toBe(0)
    expect(listed.out).not.toContain(CODE)
    expect(JSON.parse(listed.out)).toEqual(expect.arrayContaining([expect.objectContaining({ id: deal.id, status: 'completed', hasTransferCode: true })]))
    expect((await cli('deal', 'show', String(deal.id))).out).not.toContain(CODE)
    expect((await cli('access', '--email', email)).out).not.toContain(CODE)
    expect(await (await client.call('/api/deals', { cookie })).text()).not.toContain(CODE)
    const rows = (await queryStore(server.dataDir, 'SELECT transfer_code FROM deals WHERE id = ?', [deal.id])) as { transfer_code: string }[]
    expect(rows[0]!.transfer_code).toMatch(/^v1\./)
    expect(rows[0]!.transfer_code).not.toContain(CODE)
    // The key lives beside the database, for the owner only.
    expect(fs.statSync(path.join(server.dataDir, 'deal-key')).mode & 0o777).toBe(0o600)
  }, 90_000)

  test('the buyer may cancel before paying, not after; the owner cancels with a reason that is mailed and shown as text', async () => {
    const buyer = await acceptedDeal('storno.de', '1.500')
    let answer = await post('storno.de', buyer.page, { action: 'cancel' })
    expect(answer.status).toBe(303)
    expect((await mailTo(buyer.email, 2)).parsed.subject).toBe('Re: Anfrage zu storno.de: Kauf abgebrochen')
    expect(textOf(await open('storno.de', buyer.page))).toContain('Sie haben den Kauf abgebrochen.')
    expect((await dealOf(buyer.id).catch(() => null)) ?? null).toBeNull()

    // The buyer's cancel freed the name: another offer for it is accepted.
    const owner = await acceptedDeal('storno.de', '1.600')
    const deal = await dealOf(owner.id)
    expect((await send(`/api/deals/${deal.id}/paid`, {})).status).toBe(200)
    // Paid: the buyer's cancel is no longer there, and a forged one changes nothing.
    expect(textOf(await open('storno.de', owner.page))).not.toContain('Kauf abbrechen')
    answer = await post('storno.de', owner.page, { action: 'cancel' })
    expect(answer.status).toBe(303)
    expect((await dealOf(owner.id)).status).toBe('paid')
    const reason = '<img src=x onerror=alert(1)>\r\nBcc: victim@example.org\u001b[31m'
    const cancelled = await send(`/api/deals/${deal.id}/cancel`, { reason })
    expect(cancelled.status).toBe(200)
    const mail = await mailTo(owner.email, 3)
    expect(mail.parsed.text).toContain('Begründung: <img src=x onerror=alert(1)>\nBcc: victim@example.org[31m')
    expect(mail.envelope.to).toEqual([owner.email])
    expect(mail.raw).not.toContain('\u001b')
    answer = await open('storno.de', owner.page)
    expect(answer.html).not.toContain('<img src=x')
    expect(answer.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    // A cancelled deal frees the name: it is not sold.
    expect((await open('storno.de', '/')).html).toContain('name="message"')
  })

  test('the CLI lists deals and takes the owner’s steps; a step that does not apply exits with 2', async () => {
    const { id, email } = await acceptedDeal('dritte.de', '600')
    const deal = await dealOf(id)
    const listed = await cli('deals')
    expect(listed.code).toBe(0)
    expect(listed.out).toContain(deal.reference)
    expect((await cli('deal', 'complete', String(deal.id))).code).toBe(2)
    const paid = await cli('deal', 'paid', String(deal.id))
    expect(paid.code, paid.err).toBe(0)
    await mailTo(email, 2)
    expect((await cli('deal', 'paid', String(deal.id))).err).toContain(`deal ${deal.id} is paid`)
    const shown = await cli('deal', 'show', String(deal.id), '--json')
    expect(JSON.parse(shown.out)).toMatchObject({ id: deal.id, status: 'paid', amount: '600\u00a0€' })
    expect((await cli('deal', 'transfer', String(deal.id))).code).toBe(2)
    expect((await cli('deal', 'show', '999999')).code).toBe(2)
    expect((await cli('deal', 'nonsense', '1')).code).toBe(2)
    const cancelled = await cli('deal', 'cancel', String(deal.id), '--reason', 'Die Domain ist doch nicht frei.')
    expect(cancelled.code, cancelled.err).toBe(0)
    expect((await mailTo(email, 3)).parsed.text).toContain('Begründung: Die Domain ist doch nicht frei.')
  }, 120_000)

  test('"Verkäufe" lists the deals, next deadline first, overdue ones marked; its routes need a session and the same origin', async () => {
    const late = await acceptedDeal('spaet.de', '400')
    const lateDeal = await dealOf(late.id)
    await queryStore(server.dataDir, 'UPDATE deals SET payment_due_at = ? WHERE id = ?', [Date.now() - 60_000, lateDeal.id])
    const listing = await client.call('/api/deals', { cookie })
    expect(listing.status, await listing.clone().text()).toBe(200)
    const sales = (await listing.json()) as SalesPage
    expect(sales.deals[0]).toMatchObject({ id: lateDeal.id, overdue: true })
    const page = await client.call('/verkaeufe', { cookie })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Verkäufe')
    expect(html).toContain(lateDeal.reference)
    expect(html).toContain('(überfällig)')
    expect((await client.call('/verkaeufe')).status).toBe(303)
    for (const pathName of [
      `/api/deals/${lateDeal.id}/paid`,
      `/api/deals/${lateDeal.id}/cancel`,
      `/api/deals/${lateDeal.id}/transfer`,
      `/api/deals/${lateDeal.id}/complete`,
    ]) {
      expect((await client.call(pathName, { method: 'POST', body: {} })).status, pathName).toBe(401)
      expect(
        (await client.call(pathName, { method: 'POST', body: {}, cookie, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status,
      ).toBe(403)
    }
    expect((await client.call('/api/deals')).status).toBe(401)
    expect((await dealOf(late.id)).status).toBe('awaiting_payment')
  })
})

describe('one open deal per name (decision 037)', () => {
  test('a second offer for a name with an open deal is not accepted, in the console (409) or the CLI (exit 2), until that deal is cancelled', async () => {
    const first = await acceptedDeal('vergeben.de', '700')
    const deal = await dealOf(first.id)
    const second = await writeFrom('vergeben.de', '800')
    const refused = await send(`/api/inquiries/${second.id}/accept`, {})
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      error: `Diese Domain wird gerade verkauft (Verkauf Nr. ${deal.id}): ein Verkauf je Domain zur Zeit. Brechen Sie ihn zuerst ab (Verkäufe).`,
    })
    const run = await cli('accept', String(second.id))
    expect(run.code).toBe(2)
    expect(run.err).toContain(
      `this name is being sold already (deal ${deal.id}): one sale of a name at a time; cancel that deal first (deal cancel ${deal.id})`,
    )
    // Nothing was stored or mailed for the second buyer.
    const detail = (await (await client.call(`/api/inquiries/${second.id}`, { cookie })).json()) as InquiryDetail
    expect(detail).toMatchObject({ status: 'new', replies: [], deal: null })

    expect((await send(`/api/deals/${deal.id}/cancel`, { reason: 'Die Zahlung kam nicht.' })).status).toBe(200)
    const accepted = await send(`/api/inquiries/${second.id}/accept`, {})
    expect(accepted.status, await accepted.clone().text()).toBe(200)
    const page = pageLinkIn(await mailTo(second.email), 'vergeben.de')
    expect(textOf(await open('vergeben.de', page))).toContain('800 €')
    expect(smtp.messages.filter((mail) => mail.envelope.to.includes(second.email))).toHaveLength(1)
  }, 60_000)
})

describe('rate limits on the deal page', () => {
  let limited: ServerProcess | undefined
  let page: string
  // Started by the first test that needs it (mailTo waits with expect.poll, which only a test may).
  let started: Promise<void> | undefined
  const start = () =>
    (started ??= (async () => {
      limited = await startServerProcess({ SMTP_URL: smtp.url, MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, CONTACT_RATE_LIMIT: '2' })
      const email = 'begrenzt@example.net'
      const { token, hash } = await fetchForm(limited.url, 'beispiel.de')
      const sent = await requestAs('beispiel.de', `${limited.url}/api/contact`, {
        method: 'POST',
        body: { ...VISITOR, themail3h6: email, offer: '3.000', token, hash },
      })
      expect(sent.status).toBe(200)
      const env = { ...(await storeEnv(limited.dataDir)), DOMAINS_FILE: domainsFile }
      const id = /^(\d+)/m.exec((await runCli(limited.dataDir, env, 'list')).out.split('\n')[2] ?? '')?.[1]
      expect((await runCli(limited.dataDir, env, 'accept', id!)).code).toBe(0)
      page = pageLinkIn(await mailTo(email), 'beispiel.de')
    })())
  afterAll(async () => {
    await limited?.stop()
    limited?.cleanup()
  })

  /** A post of the page's form from `client` (another loopback address is another client), with `headers`. */
  const postFrom = (client: string, form: Record<string, string>, headers: Record<string, string>) =>
    requestAs('beispiel.de', `${limited!.url}${page}`, { method: 'POST', form, headers, localAddress: client })
  const sameOrigin = { origin: 'http://beispiel.de', 'sec-fetch-site': 'same-origin' }

  test('the buyer’s posts (the address check above all) are limited per client address: beyond the limit 429, no code', async () => {
    await start()
    const tryReveal = () => postFrom('127.0.0.1', { action: 'reveal', email: 'guess@example.net' }, { ...sameOrigin, 'x-forwarded-for': '203.0.113.9' })
    // CONTACT_RATE_LIMIT=2: two posts an hour from one client.
    expect((await tryReveal()).status).toBe(303)
    expect((await tryReveal()).status).toBe(303)
    const refused = await tryReveal()
    expect(refused.status).toBe(429)
    expect(refused.html).toContain('Zu viele Versuche.')
  }, 90_000)

  test('another site’s posts are refused before they count: after ten of them, answered 403, the buyer’s own steps still go through', async () => {
    await start()
    // What a page the buyer opens elsewhere can make the buyer's browser send, from the buyer's address.
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site' },
    ]
    for (let i = 0; i < 10; i++) {
      const answer = await postFrom('127.0.0.3', { action: 'cancel' }, crossSite[i % crossSite.length]!)
      expect(answer.status, JSON.stringify(crossSite[i % crossSite.length])).toBe(403)
    }
    expect((await postFrom('127.0.0.3', { action: 'reveal', email: 'begrenzt@example.net' }, sameOrigin)).status).toBe(303)
    expect((await postFrom('127.0.0.3', { action: 'reveal', email: 'begrenzt@example.net' }, sameOrigin)).status).toBe(303)
    expect((await postFrom('127.0.0.3', { action: 'reveal', email: 'begrenzt@example.net' }, sameOrigin)).status).toBe(429)
    // None of the refused posts cancelled anything.
    expect(textOf(await requestAs('beispiel.de', `${limited!.url}${page}`, { localAddress: '127.0.0.4' }))).toContain('Zahlung (aktueller Schritt)')
  }, 90_000)
})
