// The contact form of English pages against the real server process, a real SMTP server and the real store: errors
// of the API and of the form without script in the page's language, the language stored with the inquiry and named
// in the owner's (German) mail, and the buyer's confirmation mail and link pages in the language they wrote in.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { TEXTS } from '../../src/shared/texts-all.ts'
import { VISITOR, fetchForm, requestAs, type RawResponse } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { queryStore } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.ts'

const EN = TEXTS.en
const DOMAINS = `
unknownHosts: not-found
domains:
  deutsch.de: { minOffer: 1500 }
  english.com: { language: en, minOffer: 1500, confirm: notice }
  both.de: { language: auto, confirm: verify }
`

let server: ServerProcess
let smtp: SmtpSink
beforeAll(async () => {
  smtp = await startSmtpSink()
  server = await startServerProcess({ DOMAINS_FILE: writeTestFile(DOMAINS), SMTP_URL: smtp.url })
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  removeTestFiles()
})

let visitors = 0
const nextEmail = (name: string) => `${name}-${++visitors}@example.net`

/** The form of `host` as a browser with this Accept-Language gets it, posted as JSON (the script) or as a form. */
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
const mailTo = async (address: string): Promise<ReceivedMail> => {
  await expect.poll(() => smtp.messages.some((mail) => mail.envelope.to.includes(address))).toBe(true)
  return smtp.messages.find((mail) => mail.envelope.to.includes(address))!
}
const ownerMailAbout = async (message: string): Promise<ReceivedMail> => {
  await expect.poll(() => smtp.messages.some((mail) => mail.envelope.to.includes('owner@example.org') && mail.parsed.text?.includes(message))).toBe(true)
  return smtp.messages.find((mail) => mail.envelope.to.includes('owner@example.org') && mail.parsed.text?.includes(message))!
}
const languageStored = async (email: string) =>
  (await queryStore<{ language: string }>(server.dataDir, 'SELECT language FROM inquiries WHERE email = ?', [email])).map((row) => row.language)

describe('the API', () => {
  /** Each way of getting it wrong, and the text that says so. */
  const WRONG = [
    ['empty fields', { name58fnlsd: '', themail3h6: 'x', message: '' }, {}, 400, 'invalid'],
    ['an offer that is no amount', { offer: 'lots' }, {}, 400, 'invalid'],
    ['a token from nowhere', { token: 'AAAAAAAAAAAAAAA' }, {}, 403, 'tokenInvalid'],
    ['another site', {}, { origin: 'https://evil.example' }, 403, 'crossSite'],
    ['a body over 32 KB', { message: 'x'.repeat(33 * 1024) }, {}, 413, 'tooLarge'],
  ] as const

  test.each(WRONG)('%s: an English page’s answer is English, a German page’s the German it was', async (_what, fields, headers, status, key) => {
    const english = await send('english.com', fields, { headers, acceptLanguage: 'de-DE' })
    const german = await send('deutsch.de', fields, { headers, acceptLanguage: 'en-US' })
    expect([english.status, errorOf(english).error]).toEqual([status, EN[key]])
    expect([german.status, errorOf(german).error]).toEqual([status, TEXT[key]])
    // The page's language is the file's: neither answer varies by Accept-Language.
    expect([english.headers.vary, german.headers.vary]).toEqual([undefined, undefined])
  })

  test('the field hints are in the page’s language', async () => {
    const fields = { name58fnlsd: '', themail3h6: 'x', message: '', offer: 'lots' }
    expect(errorOf(await send('english.com', fields)).fields).toEqual({
      name58fnlsd: EN.hintName,
      themail3h6: EN.hintEmail,
      message: EN.hintMessage,
      offer: EN.hintOffer,
    })
    expect(errorOf(await send('deutsch.de', fields)).fields).toEqual({
      name58fnlsd: TEXT.hintName,
      themail3h6: TEXT.hintEmail,
      message: TEXT.hintMessage,
      offer: TEXT.hintOffer,
    })
    // An offer in another currency is only found wrong once the domain is known.
    expect(errorOf(await send('english.com', { offer: '$1,500' })).fields).toEqual({ offer: EN.hintOffer })
  })

  test('an unsupported content type is answered in the page’s language', async () => {
    const english = await requestAs('english.com', `${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'text/plain' } })
    expect([english.status, errorOf(english).error]).toEqual([415, EN.unsupportedType])
    const german = await requestAs('deutsch.de', `${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'text/plain' } })
    expect([german.status, errorOf(german).error]).toEqual([415, TEXT.unsupportedType])
  })

  test('with language: auto the errors follow Accept-Language, and say that they do', async () => {
    const english = await send('both.de', { message: '' }, { acceptLanguage: 'en-GB,en;q=0.9' })
    const german = await send('both.de', { message: '' }, { acceptLanguage: 'de-CH' })
    expect(errorOf(english)).toEqual({ error: EN.invalid, fields: { message: EN.hintMessage } })
    expect(errorOf(german)).toEqual({ error: TEXT.invalid, fields: { message: TEXT.hintMessage } })
    expect([english.headers.vary, german.headers.vary]).toEqual(['Accept-Language', 'Accept-Language'])
  })
})

describe('the form without script', () => {
  test('a wrong form is answered by the English page with English hints and what was typed', async () => {
    const response = await send('english.com', { themail3h6: 'john@', message: 'How much is <b>it</b>?' }, { form: true })
    expect(response.status).toBe(400)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.html).toContain('<html lang="en">')
    expect(response.html).toContain(EN.invalid)
    expect(response.html).toContain(EN.hintEmail)
    expect(response.html).not.toContain(TEXT.hintEmail)
    expect(response.html).toContain('How much is &lt;b&gt;it&lt;/b&gt;?')
  })

  test('a sent form lands on the English page that says it was sent', async () => {
    const response = await send('english.com', { themail3h6: nextEmail('noscript'), message: 'Sent without script' }, { form: true })
    expect([response.status, response.headers.location]).toEqual([303, '/?gesendet=1'])
    const landed = await requestAs('english.com', `${server.url}/?gesendet=1`)
    expect(landed.html).toContain(`>${EN.success}</div>`)
  })
})

describe('the mails', () => {
  test('an English inquiry is stored as English; the owner’s German mail names the language, the buyer’s notice is English', async () => {
    const email = nextEmail('john')
    const message = `I would like to buy english.com (${email})`
    expect((await send('english.com', { themail3h6: email, message })).status).toBe(200)
    expect(await languageStored(email)).toEqual(['en'])
    const owner = await ownerMailAbout(message)
    expect(owner.parsed.subject).toBe('Anfrage zu english.com')
    expect(owner.parsed.text).toContain('Sprache: Englisch')
    const notice = await mailTo(email)
    expect(notice.parsed.subject).toBe('Your inquiry about english.com has arrived')
    expect(notice.parsed.text).toMatch(/^Hello,\n\nYour inquiry about english\.com has arrived\./)
    expect(notice.parsed.text).not.toMatch(/Anfrage|Guten Tag/)
  })

  test('a German inquiry says so too', async () => {
    const email = nextEmail('erika')
    const message = `Was kostet deutsch.de? (${email})`
    expect((await send('deutsch.de', { themail3h6: email, message })).status).toBe(200)
    expect(await languageStored(email)).toEqual(['de'])
    expect((await ownerMailAbout(message)).parsed.text).toContain('Sprache: Deutsch')
  })

  test('verify on an auto page: mail, link pages and the owner’s mail follow the language the buyer wrote in', async () => {
    const email = nextEmail('jane')
    const message = `Is both.de still available? (${email})`
    expect((await send('both.de', { themail3h6: email, message }, { acceptLanguage: 'en-US,en;q=0.9' })).status).toBe(200)
    expect(await languageStored(email)).toEqual(['en'])
    const sent = await requestAs('both.de', `${server.url}/?gesendet=1`, { headers: { 'accept-language': 'en-US' } })
    expect(sent.html).toContain(EN.successVerify)

    const verify = await mailTo(email)
    expect(verify.parsed.subject).toBe('Please confirm your inquiry about both.de')
    const t = new URL(/https:\/\/\S+/.exec(verify.parsed.text ?? '')![0]).searchParams.get('t')!
    // Opened in a browser that prefers German, the link still answers in the inquiry's language, and does not vary.
    const page = await requestAs('both.de', `${server.url}/bestaetigen?t=${encodeURIComponent(t)}`, { headers: { 'accept-language': 'de-DE' } })
    expect(page.status).toBe(200)
    expect(page.html).toContain('<html lang="en">')
    expect(page.html).toContain(`<title>${EN.confirmTitle}</title>`)
    expect(page.html).toContain(EN.confirmText('both.de'))
    expect(page.html).toContain(`<button type="submit">${EN.confirmButton}</button>`)
    expect(page.headers.vary).toBeUndefined()
    const confirmed = await requestAs('both.de', `${server.url}/bestaetigen`, { method: 'POST', form: { t }, headers: { 'accept-language': 'de-DE' } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.html).toContain(EN.confirmedText)
    expect((await ownerMailAbout(message)).parsed.text).toContain('Sprache: Englisch')
  })

  test('a link that names no inquiry is answered in the language of the browser, and varies by it', async () => {
    const english = await requestAs('both.de', `${server.url}/bestaetigen?t=nonsense`, { headers: { 'accept-language': 'en' } })
    const german = await requestAs('both.de', `${server.url}/bestaetigen?t=nonsense`, { headers: { 'accept-language': 'de' } })
    expect([english.status, german.status]).toEqual([400, 400])
    expect(english.html).toContain(EN.confirmInvalid)
    expect(german.html).toContain(TEXT.confirmInvalid)
    expect([english.headers.vary, german.headers.vary]).toEqual(['Accept-Language', 'Accept-Language'])
  })
})
