// `npm run screenshots`: pictures of the console for the docs, taken from the real server in Chromium. Starts the
// built server on a throwaway DATA_DIR with a few domains, sends inquiries through the public contact API, sets a
// password with the CLI, signs in and writes docs/console-*.png.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { build, root } from './build-lib.mjs'
import { freePort, startServer } from './server-lib.mjs'
import { issueToken } from '../src/server/contact/token.ts'
import { FIELD } from '../src/shared/contact.ts'

const SECRET = 'screenshots-secret-0123456789'
const PASSWORD = 'screenshots only, never used elsewhere'
const INQUIRIES = [
  ['beispiel.de', 'Erika Mustermann', 'erika@example.org', 'Guten Tag,\nich interessiere mich für die Domain. Wäre ein Preis um 3.000 € denkbar?', '3000'],
  ['kaffee-shop.de', 'Jonas Weber', 'jonas.weber@example.net', 'Hallo, wir eröffnen im Frühjahr ein Café und suchen genau diesen Namen.', ''],
  ['münchen-immobilien.de', 'Ana García', 'ana@example.com', 'Hello, is the domain still available? We are a real estate agency.', '12000'],
  ['beispiel.de', 'Peter Schmidt', 'p.schmidt@example.de', 'Letztes Angebot: 4.500 €, Zahlung über Treuhand.', '4500'],
]

/** POST /api/contact for a host (fetch does not let a caller choose the Host header). */
function post(port, host, body) {
  const text = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/contact', method: 'POST', headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
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
  `domains:
  beispiel.de: { price: 5000, minOffer: 1000 }
  kaffee-shop.de: {}
  münchen-immobilien.de: { price: 15000, minOffer: 8000 }
`,
)
const env = { DATA_DIR: dataDir, DOMAINS_FILE: domainsFile, CONTACT_SECRET: SECRET, MIN_FILL_SECONDS: '0', CONTACT_RATE_LIMIT: '0' }
const [port, adminPort] = [await freePort(), await freePort()]
const server = await startServer(port, { ...env, ADMIN_PORT: String(adminPort) })
let browser
try {
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
  const cli = spawnSync(process.execPath, [path.join(root, 'bin/domain-lander.mjs'), 'set-password', '--stdin'], { input: `${PASSWORD}\n`, env: { ...process.env, ...env }, encoding: 'utf8' })
  if (cli.status !== 0) throw new Error(`set-password: ${cli.stderr}`)

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme: scheme })
    await page.goto(`http://127.0.0.1:${adminPort}/anmelden`)
    await page.getByLabel('Passwort').fill(PASSWORD)
    await page.getByRole('button', { name: 'Anmelden' }).click()
    await page.waitForURL(`http://127.0.0.1:${adminPort}/`)
    const suffix = scheme === 'light' ? '' : '-dark'
    await page.screenshot({ path: path.join(root, `docs/console-inbox${suffix}.png`) })
    await page.getByRole('link', { name: /Erika Mustermann/ }).first().click()
    await page.waitForURL(/\/anfragen\//)
    await page.screenshot({ path: path.join(root, `docs/console-inquiry${suffix}.png`) })
    await page.close()
  }
  console.log('written: docs/console-inbox.png, docs/console-inquiry.png (and -dark)')
} finally {
  await browser?.close()
  await server.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
