// One server, many domains: the domains file decides what each host gets, where its inquiries go and which hosts
// may have a certificate. Answered by the app in process; reloads, signals and refused starts by the real server
// process.
import fs from 'node:fs'
import { afterEach, describe, expect, test } from 'vitest'
import { buildTestApp, startApp, type InProcessApp } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { VISITOR, expectError, fetchForm, getPage as getPageOverSocket, postContact, requestAs as requestOverSocket, timesShown } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile as domainsFile } from '../helpers/domains.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

// A reload reads the file in a process of its own: beside the suite and two CPU burners one took over 5 s.
const RELOAD_MS = 60_000

let app: InProcessApp | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await app?.close()
  await smtp?.close()
  app = smtp = undefined
  removeTestFiles()
})

const DOMAINS = `
unknownHosts: not-found
www: redirect
legal:
  imprintUrl: https://verkauf.example.org/impressum
  privacyText: |
    Verantwortlich ist Erika Mustermann.
    Wir speichern Ihre Anfrage nur zu ihrer Beantwortung.
default:
  mailTo: verkauf@example.org
domains:
  example.de:
    price: 4900
    minOffer: 1500
    description: Kurz und einprägsam.
  münchen.de:
    price: 12000
    mailTo: muenchen@example.org
  "*.parked.de": {}
  old.de:
    listed: false
`

const getPage = (url: string, host: string) => app!.requestAs(host, `${url}/`)
const requestAs: InProcessApp['requestAs'] = (...args) => app!.requestAs(...args)

async function withDomains(text = DOMAINS, env: Record<string, string> = {}) {
  smtp = await startSmtpSink()
  app = await buildTestApp({ DOMAINS_FILE: domainsFile(text), SMTP_URL: smtp.url, ...env })
  return app
}

/** A whole visit to `host`: page, form, post (with the Host header the browser would send). */
async function inquire(host: string, fields: Record<string, string> = {}) {
  const { token, hash } = await fetchForm(app!.url, host, {}, app!.fetch)
  return requestAs(host, `${app!.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash, ...fields } })
}

describe('pages', () => {
  test('a listed domain shows its price and description, formatted the German way', async () => {
    await withDomains()
    const { status, html } = await getPage(app!.url, 'example.de')
    expect(status).toBe(200)
    expect(html).toContain('<p class="price">Preis: 4.900\u00a0€</p>')
    expect(html).toContain('Kurz und einprägsam.')
    expect(html).toContain('Angebot in EUR (optional)')
    expect(html).toContain('Mindestangebot: 1.500\u00a0€')
  })

  test('a wildcard entry covers names one label below it; deeper names, unknown and unlisted hosts get 404', async () => {
    await withDomains()
    expect((await getPage(app!.url, 'shop.parked.de')).status).toBe(200)
    for (const host of ['other.de', 'old.de', 'parked.de', 'a.shop.parked.de', 'a.b.c.d.e.f.parked.de']) {
      const page = await getPage(app!.url, host)
      expect(page.status).toBe(404)
      expect(page.html).not.toContain('<form')
    }
  })

  test('unknown hosts can get a neutral page, or the page anyway', async () => {
    await withDomains(DOMAINS.replace('unknownHosts: not-found', 'unknownHosts: neutral'))
    const neutral = await getPage(app!.url, 'other.de')
    expect(neutral.status).toBe(200)
    expect(timesShown(neutral.html, 'Diese Domain ist hier nicht verfügbar.')).toBe(1)
    expect(neutral.html).not.toContain('other.de')
    await app!.close()
    app = await buildTestApp({ DOMAINS_FILE: domainsFile(DOMAINS.replace('unknownHosts: not-found', 'unknownHosts: page')) })
    expect((await getPage(app.url, 'other.de')).html).toContain('<h1 class="domain">other.de</h1>')
  })

  test('www. redirects to the bare domain, or shows the bare domain', async () => {
    await withDomains()
    const redirect = await requestAs('www.example.de:8080', `${app!.url}/?a=1`)
    expect(redirect.status).toBe(301)
    expect(redirect.headers.location).toBe('http://example.de:8080/?a=1')
    await app!.close()
    app = await buildTestApp({ DOMAINS_FILE: domainsFile(DOMAINS.replace('www: redirect', 'www: show')) })
    const shown = await getPage(app.url, 'www.example.de')
    expect(shown.status).toBe(200)
    expect(shown.html).toContain('<h1 class="domain">example.de</h1>')
  })

  test('without a domains file the footer stays empty and every valid host gets the page', async () => {
    app = await buildTestApp()
    const { html } = await getPage(app.url, 'irgendwas.de')
    expect(html).toContain('<footer class="footer"></footer>')
    expect(html).not.toContain('Angebot')
  })
})

describe('inquiries', () => {
  test('a domain with its own recipient mails there; others go to the default recipient', async () => {
    await withDomains()
    expect((await inquire('xn--mnchen-3ya.de', { message: 'München' })).status).toBe(200)
    expect((await inquire('example.de', { message: 'Beispiel' })).status).toBe(200)
    const mails = await smtp!.waitFor(2)
    const to = (words: string) => mails.find((mail) => mail.parsed.text?.includes(words))?.envelope.to
    expect(to('München')).toEqual(['muenchen@example.org'])
    expect(to('Beispiel')).toEqual(['verkauf@example.org'])
  })

  test('an offer at the minimum is mailed with the offer; one below is stored but not mailed', async () => {
    await withDomains()
    expect((await inquire('example.de', { offer: '1.000', message: 'zu wenig' })).status).toBe(200)
    expect((await inquire('example.de', { offer: '1500', message: 'genug' })).status).toBe(200)
    const [mail] = await smtp!.waitFor(1)
    // The offer below the minimum is never queued (its mail status below is null), so no second mail can follow.
    expect(smtp!.messages).toHaveLength(1)
    expect(mail!.parsed.text).toContain('Angebot: 1.500\u00a0€')
    const stored = await (await app!.store()).listInquiries({})
    expect(stored.map((i) => [i.message, i.offer?.amount, i.belowMinimum, i.mailStatus])).toEqual([
      ['genug', 1500, false, expect.any(String)],
      ['zu wenig', 1000, true, null],
    ])
  })

  test('low offers are mailed too when mailLowOffers is set', async () => {
    await withDomains(`mailLowOffers: true\n${DOMAINS}`)
    expect((await inquire('example.de', { offer: '10', message: 'wenig' })).status).toBe(200)
    const [mail] = await smtp!.waitFor(1)
    expect(mail!.parsed.text).toContain('(unter dem Mindestangebot)')
  })

  test('an offer that is not an amount is a field error', async () => {
    await withDomains()
    const response = await inquire('example.de', { offer: 'viel Geld' })
    expect(response.status).toBe(400)
    expect(JSON.parse(response.html).fields).toHaveProperty('offer')
  })

  test('a USD domain takes offers in dollars, stores and mails them as dollars, and the CLI exports them as USD', async () => {
    await withDomains(`default:\n  mailTo: verkauf@example.org\ndomains:\n  example.com:\n    currency: USD\n    minOffer: 1000\n`)
    expect((await getPage(app!.url, 'example.com')).html).toContain('Angebot in USD')
    expect((await inquire('example.com', { offer: '$1,500', message: 'In Dollar' })).status).toBe(200)
    // An amount in another currency is not silently taken for dollars.
    const euros = await inquire('example.com', { offer: '990 €', message: 'In Euro' })
    expect(euros.status).toBe(400)
    expect(JSON.parse(euros.html).fields).toHaveProperty('offer')
    const [mail] = await smtp!.waitFor(1)
    expect(mail!.parsed.text).toContain('Angebot: 1.500\u00a0$')
    expect(mail!.parsed.text).not.toContain('€')
    const [stored] = await (await app!.store()).listInquiries({})
    expect(stored!.offer).toEqual({ amount: 1500, currency: 'USD' })
    const env = await storeEnv(app!.dataDir)
    const exported = JSON.parse((await runCli(app!.dataDir, env, 'export', '--format', 'json')).out)
    expect(exported).toEqual([expect.objectContaining({ message: 'In Dollar', offer: 1500, currency: 'USD' })])
    expect((await runCli(app!.dataDir, env, 'export')).out).toMatch(/"In Dollar",1500,"USD",/)
    expect((await runCli(app!.dataDir, env, 'show', String(stored!.id))).out).toMatch(/Offer:\s+1500 USD/)
  })

  test('posts for hosts this server does not sell get 404', async () => {
    await withDomains()
    const { token, hash } = await fetchForm(app!.url, 'example.de', {}, app!.fetch)
    const response = await postContact(app!.url, { ...VISITOR, token, hash }, {}, '/api/contact', app!.fetch)
    await expectError(response, 404, 'Diese Domain ist hier nicht verfügbar.')
  })
})

describe('legal pages and links', () => {
  test('the footer links to the Impressum and Datenschutz, and the form carries the privacy note', async () => {
    await withDomains()
    const { html } = await getPage(app!.url, 'example.de')
    expect(html).toContain('<a href="https://verkauf.example.org/impressum">Impressum</a>')
    expect(html).toContain('<a href="/datenschutz">Datenschutz</a>')
    expect(html).toContain('nur verwendet, um Ihre Anfrage zu beantworten')
  })

  test('the server serves a configured text as /datenschutz, escaped, and 404 for one that is not configured', async () => {
    await withDomains(DOMAINS.replace('Verantwortlich ist Erika Mustermann.', 'Verantwortlich ist <b>Erika</b>.'))
    const page = await requestAs('example.de', `${app!.url}/datenschutz`)
    expect(page.status).toBe(200)
    expect(page.html).toContain('Verantwortlich ist &lt;b&gt;Erika&lt;/b&gt;.')
    expect(page.html).not.toContain('<script')
    expect((await requestAs('example.de', `${app!.url}/impressum`)).status).toBe(404)
  })
})

describe('legal pages without a domains file', () => {
  test('IMPRINT_URL links out; PRIVACY_FILE is served as /datenschutz and linked, with the note under the form', async () => {
    const file = domainsFile('Datenschutz: Wir speichern nur, was Sie uns schreiben.', 'datenschutz.txt')
    app = await buildTestApp({ IMPRINT_URL: 'https://verkauf.example.org/impressum', PRIVACY_FILE: file })
    const { html } = await getPage(app.url, 'example.de')
    expect(html).toContain(
      '<footer class="footer"><a href="https://verkauf.example.org/impressum">Impressum</a><a href="/datenschutz">Datenschutz</a></footer>',
    )
    expect(html).toContain('class="privacy-note"')
    const privacy = await requestAs('example.de', `${app.url}/datenschutz`)
    expect(privacy.status).toBe(200)
    expect(privacy.html).toContain('Wir speichern nur, was Sie uns schreiben.')
  })

  test('a wrong IMPRINT_URL stops start-up with a message naming it', async () => {
    await expect(startApp({ IMPRINT_URL: 'javascript:alert(1)' })).rejects.toThrow(/IMPRINT_URL: must be an http/)
  })
})

describe('TLS check for on-demand certificates', () => {
  test('only domains the file lists (and their www.) get 200', async () => {
    await withDomains()
    const check = async (domain: string) => (await app!.fetch(`${app!.url}/tls-check?domain=${encodeURIComponent(domain)}`)).status
    expect(await check('example.de')).toBe(200)
    expect(await check('www.example.de')).toBe(200)
    expect(await check('xn--mnchen-3ya.de')).toBe(200)
    expect(await check('shop.parked.de')).toBe(200)
    expect(await check('a.shop.parked.de')).toBe(404)
    expect(await check('parked.de')).toBe(404)
    expect(await check('old.de')).toBe(404)
    expect(await check('other.de')).toBe(404)
    expect(await check('bad name')).toBe(404)
    expect((await app!.fetch(`${app!.url}/tls-check`)).status).toBe(404)
  })

  test('without a domains file nothing gets a certificate unless ALLOW_ANY_TLS is set', async () => {
    app = await buildTestApp()
    expect((await app.fetch(`${app.url}/tls-check?domain=example.de`)).status).toBe(404)
    await app.close()
    app = await buildTestApp({ ALLOW_ANY_TLS: 'true' })
    expect((await app.fetch(`${app.url}/tls-check?domain=example.de`)).status).toBe(200)
    expect((await app.fetch(`${app.url}/tls-check?domain=not%20valid`)).status).toBe(404)
  })
})

describe('reloading', () => {
  test('a changed file is picked up without a restart; a broken edit is ignored and the old one stays', { timeout: 3 * RELOAD_MS }, async () => {
    const file = domainsFile(DOMAINS)
    const server = await startServerProcess({ DOMAINS_FILE: file })
    try {
      fs.writeFileSync(`${file}.tmp`, DOMAINS.replace('price: 4900', 'price: 5500'))
      fs.renameSync(`${file}.tmp`, file)
      await expect.poll(async () => (await getPageOverSocket(server.url, 'example.de')).html, { timeout: RELOAD_MS }).toContain('5.500')
      fs.writeFileSync(file, 'domains: [this is: not valid')
      await expect.poll(() => server.output.join('\n'), { timeout: RELOAD_MS }).toContain('domains file not reloaded')
      const { status, html } = await getPageOverSocket(server.url, 'example.de')
      expect(status).toBe(200)
      expect(html).toContain('5.500')
    } finally {
      await server.stop()
      server.cleanup()
    }
  })

  test('SIGHUP reloads the file in the running server process, which keeps answering', { timeout: 3 * RELOAD_MS }, async () => {
    const file = domainsFile(DOMAINS)
    const server = await startServerProcess({ DOMAINS_FILE: file })
    try {
      // Change the file without the watcher noticing the content (same name), then ask for a reload explicitly.
      fs.writeFileSync(file, DOMAINS.replace('price: 4900', 'price: 7700'))
      server.child.kill('SIGHUP')
      await expect.poll(async () => (await getPageOverSocket(server.url, 'example.de')).html, { timeout: RELOAD_MS }).toContain('7.700')
      await expect.poll(() => server.output.some((line) => line.includes('domains file reloaded'))).toBe(true)
    } finally {
      expect(await server.stop()).toBe(0)
      server.cleanup()
    }
  })

  test('a broken file stops the server at start with a message naming the problem', async () => {
    const file = domainsFile('domains:\n  example.de:\n    prize: 4900\n')
    await expect(startServerProcess({ DOMAINS_FILE: file })).rejects.toThrow(/domains\.example\.de.*prize|Unrecognized key/s)
  })

  test(
    'a mailTo with a line separator and a Bcc is refused, naming the key: at start, and on reload the old file stays',
    { timeout: 3 * RELOAD_MS },
    async () => {
      const hostile = DOMAINS.replace('description: Kurz und einprägsam.', 'description: Kurz.\n    mailTo: "owner@example.org\\u2028Bcc: x@evil.example"')
      const refused = /domains\.example\.de\.mailTo: must be exactly one plain e-mail address/
      await expect(startServerProcess({ DOMAINS_FILE: domainsFile(hostile) })).rejects.toThrow(refused)

      const file = domainsFile(DOMAINS)
      smtp = await startSmtpSink()
      const server = await startServerProcess({ DOMAINS_FILE: file, SMTP_URL: smtp.url })
      try {
        fs.writeFileSync(file, hostile)
        server.child.kill('SIGHUP')
        await expect
          .poll(() => server.output.some((line) => line.includes('domains file not reloaded') && refused.test(line)), { timeout: RELOAD_MS })
          .toBe(true)
        const { token, hash } = await fetchForm(server.url, 'example.de')
        const response = await requestOverSocket('example.de', `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash } })
        expect(response.status).toBe(200)
        const [mail] = await smtp.waitFor(1)
        expect(mail!.envelope.to).toEqual(['verkauf@example.org'])
        expect(mail!.raw).not.toContain('evil.example')
      } finally {
        expect(await server.stop()).toBe(0)
        server.cleanup()
      }
    },
  )

  test('a JSON domains file works as well', async () => {
    app = await buildTestApp({ DOMAINS_FILE: domainsFile(JSON.stringify({ domains: { 'example.de': { price: 100 } } }), 'domains.json') })
    expect((await getPage(app.url, 'example.de')).html).toContain('Preis: 100\u00a0€')
  })
})
