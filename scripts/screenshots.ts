// `npm run screenshots`: pictures of the public page and the console for the docs, taken from the real server in
// Chromium. Starts the built server on a throwaway DATA_DIR with a few domains and writes docs/page-*.png (a name
// with price terms, a buy button and "So läuft der Kauf ab", at 360 and 1280 px, light and dark, and a French and a
// Polish page on a phone, docs/page-phone-fr.png and docs/page-phone-pl.png); for the console it sends inquiries
// through the public contact API, sets a password with the CLI, edits a price with the CLI (a row of the Protokoll),
// signs in and writes docs/console-*.png (with Domains and Protokoll); for a deal it accepts an offer with the CLI and
// writes the buyer's deal page on a phone
// (docs/deal-phone*.png) and the console's "Verkäufe" (docs/console-sales*.png). `npm run screenshots -- page` (or
// `console`, `deals`, `overview`: the Übersicht after a few visits by browsers, docs/console-overview*.png) takes only those.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { build, root } from './build-lib.ts'
import { recordPictures } from './console-code.ts'
import { freePort, startServer } from './server-lib.ts'
import { issueToken } from '../src/server/http/form-token.ts'
import { FIELD } from '../src/shared/contact.ts'

const only = process.argv[2]
if (only !== undefined && !['page', 'console', 'deals', 'overview'].includes(only))
  throw new Error(`usage: npm run screenshots [-- page | console | deals | overview]`)
const SECRET = 'screenshots-secret-0123456789'
const PAGE_HOST = 'sonnenhof-ferien.de'
const PAGE_SIZES = { phone: { width: 360, height: 640 }, desktop: { width: 1280, height: 800 } }
/** Pages in two of the languages decision 048 added, on a phone. */
const LANGUAGE_HOSTS = { fr: 'gite-en-provence.fr', pl: 'pensjonat-mazury.pl' }
const PASSWORD = 'screenshots only, never used elsewhere'
const SCHEMES = ['light', 'dark'] as const
type Scheme = (typeof SCHEMES)[number]
const INQUIRIES: [domain: string, name: string, email: string, message: string, offer: string][] = [
  ['beispiel.de', 'Erika Mustermann', 'erika@example.org', 'Guten Tag,\nich interessiere mich für die Domain. Wäre ein Preis um 3.000 € denkbar?', '3000'],
  ['kaffee-shop.de', 'Jonas Weber', 'jonas.weber@example.net', 'Hallo, wir eröffnen im Frühjahr ein Café und suchen genau diesen Namen.', ''],
  ['münchen-immobilien.de', 'Ana García', 'ana@example.com', 'Hello, is the domain still available? We are a real estate agency.', '12000'],
  ['beispiel.de', 'Peter Schmidt', 'p.schmidt@example.de', 'Letztes Angebot: 4.500 €, Zahlung über Treuhand.', '4500'],
]

/** POST /api/contact for a host (fetch does not let a caller choose the Host header). */
function post(port: number, host: string, body: Record<string, string>): Promise<{ status: number | undefined; body: string }> {
  const text = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/contact',
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (response) => {
        let answer = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (answer += chunk))
        response.on('end', () => resolve({ status: response.statusCode, body: answer }))
      },
    )
    request.on('error', reject)
    request.end(text)
  })
}

await build()
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-screenshots-'))
const domainsFile = path.join(dataDir, 'domains.yaml')
fs.writeFileSync(
  domainsFile,
  `portfolio: true
default:
  payment:
    seller: Erika Mustermann e.K.
    bank: { holder: Erika Mustermann, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX }
    escrow: { name: Treuhand AG, url: "https://treuhand.example/" }
domains:
  beispiel.de: { price: 5000, minOffer: 1000 }
  kaffee-shop.de: {}
  münchen-immobilien.de: { price: 15000, minOffer: 8000 }
  ferienhof-allgaeu.de: { price: 3900, priceType: negotiable }
  sonnenhof-urlaub.de: { price: 2500 }
  ferien-am-see.de: { priceType: on-request }
  ${PAGE_HOST}:
    price: 4900
    priceType: negotiable
    vat: included
    buyUrl: https://treuhand.example/kaufen/sonnenhof-ferien.de
    description: Kurz, einprägsam, seit 2009 registriert – für Ferienwohnungen, Pensionen und Hofcafés.
  ${LANGUAGE_HOSTS.fr}:
    language: fr
    price: 4900
    priceType: negotiable
    vat: included
    description: Court et facile à retenir – idéal pour un gîte, des chambres d’hôtes ou une location saisonnière.
  ${LANGUAGE_HOSTS.pl}:
    language: pl
    price: 19000
    currency: PLN
    priceType: fixed
    vat: included
    description: Krótka, łatwa do zapamiętania nazwa dla pensjonatu, agroturystyki lub domków letniskowych.
`,
)
const env = { DATA_DIR: dataDir, DOMAINS_FILE: domainsFile, CONTACT_SECRET: SECRET, MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' }
const [port, adminPort] = [await freePort(), await freePort()]
const server = await startServer(port, { ...env, ADMIN_PORT: String(adminPort) })
let browser: Browser | undefined
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // The page is asked for by its name, which the browser must find on this machine.
    args: [
      `--host-resolver-rules=MAP ${PAGE_HOST} 127.0.0.1, MAP beispiel.de 127.0.0.1, MAP kaffee-shop.de 127.0.0.1, MAP sonnenhof-urlaub.de 127.0.0.1, ${Object.values(
        LANGUAGE_HOSTS,
      )
        .map((host) => `MAP ${host} 127.0.0.1`)
        .join(', ')}`,
    ],
  })
  if (only === undefined || only === 'page') await pageShots(browser, port)
  if (only !== 'page') await seedConsole(port)
  if (only === undefined || only === 'console') await consoleShots(browser, adminPort)
  if (only === undefined || only === 'deals') await dealShots(browser, port, adminPort)
  if (only === undefined || only === 'overview') await overviewShots(browser, port, adminPort)
} finally {
  await browser?.close()
  await server.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

/** The whole page of PAGE_HOST, as a phone and a desktop show it, light and dark. */
async function pageShots(browser: Browser, port: number) {
  const written: string[] = []
  for (const [device, viewport] of Object.entries(PAGE_SIZES)) {
    for (const scheme of SCHEMES) {
      const page = await browser.newPage({ viewport, colorScheme: scheme })
      await page.goto(`http://${PAGE_HOST}:${port}/`)
      const file = `docs/page-${device}${scheme === 'light' ? '' : '-dark'}.png`
      await page.screenshot({ path: path.join(root, file), fullPage: true })
      written.push(file)
      await page.close()
    }
  }
  for (const [language, host] of Object.entries(LANGUAGE_HOSTS)) {
    const page = await browser.newPage({ viewport: PAGE_SIZES.phone })
    await page.goto(`http://${host}:${port}/`)
    const file = `docs/page-phone-${language}.png`
    await page.screenshot({ path: path.join(root, file), fullPage: true })
    written.push(file)
    await page.close()
  }
  console.log(`written: ${written.join(', ')}`)
}

/** The inquiries the console shows, sent through the public contact API, and the console's password. */
async function seedConsole(port: number) {
  for (const [domain, name, email, message, offer] of INQUIRIES) {
    const host = new URL(`http://${domain}`).host
    const { token, signedIssueTime } = issueToken(SECRET, host)
    const response = await post(port, host, {
      [FIELD.name]: name,
      [FIELD.email]: email,
      [FIELD.message]: message,
      ...(offer && { [FIELD.offer]: offer }),
      [FIELD.token]: token,
      [FIELD.hash]: signedIssueTime,
      [FIELD.nameDecoy]: '',
      [FIELD.emailDecoy]: '',
    })
    if (response.status !== 200) throw new Error(`inquiry for ${domain}: ${response.status} ${response.body}`)
  }
  const cli = spawnSync(process.execPath, [path.join(root, 'bin/domain-lander.mjs'), 'set-password', '--stdin'], {
    input: `${PASSWORD}\n`,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  if (cli.status !== 0) throw new Error(`set-password: ${cli.stderr}`)
  const edit = spawnSync(process.execPath, [path.join(root, 'bin/domain-lander.mjs'), 'domains', 'set', 'ferienhof-allgaeu.de', 'price=4200'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  if (edit.status !== 0) throw new Error(`domains set: ${edit.stderr}`)
}

/** Signed in at `host` (localhost for the page "Anmeldung": passkeys take no IP address). */
async function signIn(browser: Browser, adminPort: number, scheme: Scheme, host = '127.0.0.1') {
  // German, as the owner's browser: the date fields then read TT.MM.JJJJ.
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: scheme, locale: 'de-DE' })
  await page.goto(`http://${host}:${adminPort}/anmelden`)
  await page.getByLabel('Passwort').fill(PASSWORD)
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
  await page.waitForURL(`http://${host}:${adminPort}/`)
  return page
}

/** The inbox and one inquiry, light and dark. */
async function consoleShots(browser: Browser, adminPort: number) {
  for (const scheme of SCHEMES) {
    const page = await signIn(browser, adminPort, scheme)
    const suffix = scheme === 'light' ? '' : '-dark'
    await page.screenshot({ path: path.join(root, `docs/console-inbox${suffix}.png`) })
    await page
      .getByRole('link', { name: /Erika Mustermann/ })
      .first()
      .click()
    await page.waitForURL(/\/anfragen\//)
    await page.screenshot({ path: path.join(root, `docs/console-inquiry${suffix}.png`) })
    // Domains (decision 044) with one name's form open, and the Protokoll (decision 043).
    await page.getByRole('link', { name: 'Domains', exact: true }).click()
    await page.waitForURL(/\/domains$/)
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await page.getByRole('button', { name: 'ferienhof-allgaeu.de bearbeiten' }).click()
    await page.screenshot({ path: path.join(root, `docs/console-domains${suffix}.png`), fullPage: true })
    await page.getByRole('link', { name: 'Protokoll', exact: true }).click()
    await page.waitForURL(/\/protokoll$/)
    await page.screenshot({ path: path.join(root, `docs/console-audit${suffix}.png`) })
    await page.close()
    // Anmeldung and Sitzungen (decision 041), from a second browser at localhost: two sessions in the list.
    const local = await signIn(browser, adminPort, scheme, 'localhost')
    await local.goto(`http://localhost:${adminPort}/anmeldung`)
    await local.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await local.screenshot({ path: path.join(root, `docs/console-security${suffix}.png`) })
    await local.goto(`http://localhost:${adminPort}/sitzungen`)
    await local.screenshot({ path: path.join(root, `docs/console-sessions${suffix}.png`) })
    await local.close()
  }
  const names = ['inbox', 'inquiry', 'domains', 'audit', 'security', 'sessions']
  recordPictures(
    root,
    names.flatMap((name) => [`console-${name}.png`, `console-${name}-dark.png`]),
  )
  console.log(
    'written: docs/console-inbox.png, docs/console-inquiry.png, docs/console-domains.png, docs/console-audit.png, docs/console-security.png, docs/console-sessions.png (and -dark)',
  )
}

/**
 * The Übersicht (decision 049) after visits by real browsers: each with a User-Agent of its own (headless Chromium's
 * is a bot's), from a search engine, a marketplace or typed in, some turning to the form.
 */
async function overviewShots(browser: Browser, port: number, adminPort: number) {
  const VISITS: [host: string, referer: string | undefined, locale: string, form: boolean][] = [
    ['beispiel.de', 'https://www.google.de/', 'de-DE', true],
    ['beispiel.de', 'https://sedo.com/search/details/?domain=beispiel.de', 'en-US', true],
    ['beispiel.de', undefined, 'de-DE', false],
    ['beispiel.de', undefined, 'de-AT', false],
    ['beispiel.de', 'https://www.namepros.com/', 'en-GB', false],
    ['kaffee-shop.de', undefined, 'de-DE', true],
    ['kaffee-shop.de', 'https://www.bing.com/', 'de-DE', false],
    ['sonnenhof-urlaub.de', undefined, 'nl-NL', false],
  ]
  for (const [i, [host, referer, locale, form]] of VISITS.entries()) {
    const context = await browser.newContext({
      locale,
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.${i} Safari/537.36`,
    })
    const page = await context.newPage()
    await page.goto(`http://${host}:${port}/`, referer ? { referer } : {})
    if (form) {
      await page.locator('form.contact textarea').first().focus()
      await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    }
    await context.close()
  }
  // Counts reach the store every 10 seconds.
  await new Promise((resolve) => setTimeout(resolve, 11_000))
  for (const scheme of SCHEMES) {
    const page = await signIn(browser, adminPort, scheme)
    await page.goto(`http://127.0.0.1:${adminPort}/uebersicht?days=30`)
    await page.waitForSelector('.stats-chart-daily svg')
    const suffix = scheme === 'light' ? '' : '-dark'
    await page.locator('section.visitor-stats').screenshot({ path: path.join(root, `docs/console-overview${suffix}.png`) })
    await page.close()
  }
  recordPictures(root, ['console-overview.png', 'console-overview-dark.png'])
  console.log('written: docs/console-overview.png (and -dark)')
}

/** The CLI of the server above, with its DATA_DIR and domains file. */
function cliJson(...args: string[]): unknown {
  const run = spawnSync(process.execPath, [path.join(root, 'bin/domain-lander.mjs'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`${args.join(' ')}: ${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** Peter Schmidt's offer accepted with the CLI: his deal page on a phone, and "Verkäufe", light and dark. */
async function dealShots(browser: Browser, port: number, adminPort: number) {
  const inquiry = (cliJson('list') as { id: number; email: string }[]).find((row) => row.email === 'p.schmidt@example.de')!
  const { dealPage } = cliJson('accept', String(inquiry.id)) as { dealPage: string }
  const local = new URL(dealPage)
  for (const scheme of SCHEMES) {
    const suffix = scheme === 'light' ? '' : '-dark'
    const page = await browser.newPage({ viewport: PAGE_SIZES.phone, colorScheme: scheme })
    await page.goto(`http://${local.host}:${port}${local.pathname}`)
    await page.screenshot({ path: path.join(root, `docs/deal-phone${suffix}.png`), fullPage: true })
    await page.close()
    const sales = await signIn(browser, adminPort, scheme)
    await sales.getByRole('link', { name: 'Verkäufe' }).click()
    await sales.waitForURL(/\/verkaeufe/)
    await sales.screenshot({ path: path.join(root, `docs/console-sales${suffix}.png`) })
    await sales.close()
  }
  recordPictures(root, ['console-sales.png', 'console-sales-dark.png'])
  console.log('written: docs/deal-phone.png, docs/console-sales.png (and -dark)')
}
