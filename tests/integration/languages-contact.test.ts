// French, Spanish, Italian, Dutch and Polish pages against the real server process, a real SMTP server and the real
// store (decision 048): the API's and the script-less form's answers in the page's language, the language stored
// with the inquiry and named in the owner's German mail, the buyer's notice in it, `/domains` and the checkout in it,
// and `auto` choosing among the owner's languages.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { LANGUAGE_NAME } from '../../src/shared/language.ts'
import { BUYER_WORDS } from '../../src/server/mail/buyer-words.ts'
import { DEAL_TEXTS } from '../../src/shared/deal-texts.ts'
import { consoleClient } from '../helpers/console.ts'
import { acceptedOffer, confirmedPurchase } from '../helpers/purchase.ts'
import { VISITOR, fetchForm, requestAs, type RawResponse } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { queryStore } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const SITES = [
  ['fr', 'vente.fr'],
  ['es', 'venta.es'],
  ['it', 'vendita.it'],
  ['nl', 'tekoop.nl'],
  ['pl', 'sprzedam.pl'],
] as const
const DOMAINS = `
unknownHosts: not-found
portfolio: true
default:
  confirm: notice
  minOffer: 1500
  payment: { bank: { holder: Erika Mustermann, iban: DE89 3704 0044 0532 0130 00 } }
domains:
${SITES.map(([language, host]) => `  ${host}: { language: ${language}, price: 4900, priceType: fixed }`).join('\n')}
  europa.eu: { language: auto, languages: [fr, de, pl] }
`

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
beforeAll(async () => {
  smtp = await startSmtpSink()
  server = await startServerProcess({ DOMAINS_FILE: writeTestFile(DOMAINS), SMTP_URL: smtp.url, MIN_FILL_SECONDS: '0' })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  removeTestFiles()
})

async function send(
  host: string,
  fields: Record<string, unknown>,
  options: { acceptLanguage?: string; form?: boolean; headers?: Record<string, string> } = {},
) {
  const language: Record<string, string> = options.acceptLanguage === undefined ? {} : { 'accept-language': options.acceptLanguage }
  const { token, hash } = await fetchForm(server.url, host, language)
  const body = { ...VISITOR, token, hash, ...fields }
  const headers = { ...language, ...options.headers }
  return options.form
    ? requestAs(host, `${server.url}/api/contact`, { method: 'POST', form: body as Record<string, string>, headers })
    : requestAs(host, `${server.url}/api/contact`, { method: 'POST', body, headers })
}
const errorOf = (response: RawResponse) => JSON.parse(response.html) as { error: string; fields?: Record<string, string> }

describe.each(SITES)('a %s page', (language, host) => {
  const text = TEXTS[language]

  test('answers a wrong send, a form from another site and a wrong form without script in its language', async () => {
    const wrong = await send(host, { name58fnlsd: '', themail3h6: 'x', message: '', offer: 'lots' }, { acceptLanguage: 'de-DE' })
    expect([wrong.status, errorOf(wrong)]).toEqual([
      400,
      { error: text.invalid, fields: { name58fnlsd: text.hintName, themail3h6: text.hintEmail, message: text.hintMessage, offer: text.hintOffer } },
    ])
    expect(wrong.headers.vary).toBeUndefined()
    const crossSite = await send(host, {}, { headers: { origin: 'https://evil.example' } })
    expect([crossSite.status, errorOf(crossSite).error]).toEqual([403, text.crossSite])
    const form = await send(host, { themail3h6: 'kupiec@', message: 'Combien <b>coûte</b> ?' }, { form: true })
    expect(form.status).toBe(400)
    expect(form.html).toContain(`<html lang="${language}">`)
    expect(form.html).toContain(text.hintEmail)
    expect(form.html).toContain('Combien &lt;b&gt;coûte&lt;/b&gt; ?')
  })

  test('stores the inquiry in its language; the owner’s mail stays German and names it, the buyer’s notice is in it', async () => {
    const email = `buyer-${language}@example.net`
    const message = `An inquiry from ${host}`
    expect((await send(host, { themail3h6: email, message })).status).toBe(200)
    expect(await queryStore<{ language: string }>(server.dataDir, 'SELECT language FROM inquiries WHERE email = ?', [email])).toEqual([{ language }])
    await expect.poll(() => smtp.messages.filter((mail) => mail.parsed.text?.includes(message) || mail.envelope.to.includes(email)).length).toBe(2)
    const owner = smtp.messages.find((mail) => mail.envelope.to.includes('owner@example.org') && mail.parsed.text?.includes(message))!
    expect(owner.parsed.subject).toBe(`Anfrage zu ${host}`)
    expect(owner.parsed.text).toContain(`Sprache: ${LANGUAGE_NAME[language]}`)
    const notice = smtp.messages.find((mail) => mail.envelope.to.includes(email))!
    const words = BUYER_WORDS[language].confirm
    expect(notice.parsed.subject).toBe(words.subject.notice(host))
    expect(notice.parsed.text?.startsWith([words.greeting, '', words.lead.notice(host), '', words.close.notice].join('\n')), notice.parsed.text).toBe(true)
    expect(notice.parsed.text).toContain(words.signature(host))
  })

  test('/domains and the checkout are in its language', async () => {
    const list = await requestAs(host, `${server.url}/domains`)
    expect(list.status).toBe(200)
    expect(list.html).toContain(`<html lang="${language}">`)
    expect(list.html).toContain(text.domainListTitle)
    const checkout = await requestAs(host, `${server.url}/kaufen`)
    expect(checkout.status).toBe(200)
    expect(checkout.html).toContain(`<html lang="${language}">`)
    expect(checkout.html).toContain(text.checkoutStreet)
    expect(checkout.html).toContain(text.checkoutSubmit)
  })
})

describe('language: auto with languages: [fr, de, pl]', () => {
  test.each([
    ['pl-PL,pl;q=0.9,en;q=0.8', 'pl'],
    ['de-DE,de;q=0.9,fr;q=0.8', 'de'],
    ['en-US,en;q=0.9', 'fr'],
    ['nl;q=0.9,de;q=0.3,pl;q=0.3', 'de'],
  ] as const)('%s gets the %s page, which varies by Accept-Language', async (acceptLanguage, language) => {
    const page = await requestAs('europa.eu', `${server.url}/`, { headers: { 'accept-language': acceptLanguage } })
    expect(page.html).toContain(`<html lang="${language}">`)
    expect(page.headers.vary).toMatch(/Accept-Language/)
    const wrong = await send('europa.eu', { message: '' }, { acceptLanguage })
    expect(errorOf(wrong)).toEqual({ error: TEXTS[language].invalid, fields: { message: TEXTS[language].hintMessage } })
  })
})

describe('a deal', () => {
  const mailTo = async (email: string, subject: string) => {
    await expect.poll(() => smtp.messages.some((mail) => mail.envelope.to.includes(email) && mail.parsed.subject === subject)).toBe(true)
    return smtp.messages.find((mail) => mail.envelope.to.includes(email) && mail.parsed.subject === subject)!
  }

  test('a French offer accepted: the acceptance is French, with the amount as France writes it, and so is the deal page', async () => {
    const { email } = await acceptedOffer(server.url, 'vente.fr', client, cookie, '2000')
    const mail = await mailTo(email, 'Re: Demande concernant vente.fr: Offre acceptée')
    expect(mail.parsed.text).toContain('Je vous remercie de votre offre\u00a0: je l’accepte et vous vends vente.fr.')
    expect(mail.parsed.text).toContain('Montant convenu\u00a0: 2\u202f000\u00a0€')
    const link = /https:\/\/vente\.fr(\/kauf\/\S+)/.exec(mail.parsed.text ?? '')![1]!
    const page = await requestAs('vente.fr', `${server.url}${link}`, { headers: { 'accept-language': 'de-DE' } })
    expect(page.status).toBe(200)
    expect(page.html).toContain('<html lang="fr">')
    expect(page.html).toContain(DEAL_TEXTS.fr.title('vente.fr'))
    expect(page.html).toContain(DEAL_TEXTS.fr.payTitle)
    expect(page.html).toContain('2\u202f000\u00a0€')
  })

  test('a Polish purchase at the fixed price confirmed: the mail speaks of a purchase, in Polish', async () => {
    const { email } = await confirmedPurchase(server.url, 'sprzedam.pl', client, cookie)
    const mail = await mailTo(email, 'Re: Zapytanie dotyczące domeny sprzedam.pl: Zakup potwierdzony')
    expect(mail.parsed.text).toContain('dziękuję za zakup: potwierdzam go i sprzedaję Państwu domenę sprzedam.pl po stałej cenie 4900\u00a0€.')
    // A checkout's message is our German summary, not the buyer's words: nothing is quoted.
    expect(mail.parsed.text).not.toMatch(/^> /m)
  })
})
