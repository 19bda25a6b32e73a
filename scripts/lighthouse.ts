// `npm run lighthouse`: Lighthouse (mobile) on the production server with the local Chromium, printing the four
// category scores and every audit that did not pass. The page is measured the way visitors get it in production
// (deploy/Caddyfile): over HTTPS through Caddy, which compresses and proxies to the server. Caddy's own local CA
// (`tls internal`, kept in a temporary directory and never installed anywhere) signs the certificate, and this
// Chromium ignores that it does not know that CA. The page is the fullest one: price terms, a buy button, "So läuft
// der Kauf ab", a description and an offer field; once in German and once in French (decision 048: a French page
// loads its own table of texts). `--json` for JSON, `--report FILE` to keep the whole report (FILE-fr.json beside it
// for the French page).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { build } from './build-lib.ts'
import { freePort, startServer } from './server-lib.ts'
import { ensureTool } from './system-tools.ts'

const HOST = 'example.de'
const FRENCH_HOST = 'exemple.fr'
const args = process.argv.slice(2)
const reportFile = args.includes('--report') ? args[args.indexOf('--report') + 1] : undefined
await build()
const chromium = ensureTool('chromium')
const caddyPath = ensureTool('caddy')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-lighthouse-'))
const dataDir = path.join(dir, 'data')
const serverPort = await freePort()
const httpsPort = await freePort()
const domainsFile = path.join(dir, 'domains.yaml')
fs.writeFileSync(
  domainsFile,
  `portfolio: true
domains:
${Array.from({ length: 14 }, (_, i) => `  beispiel-${i + 1}.de: { price: ${1000 + i * 500} }`).join('\n')}
  ${HOST}:
    price: 4900
    priceType: negotiable
    vat: included
    minOffer: 1500
    buyUrl: https://escrow.example/kaufen/${HOST}
    description: Kurz, einprägsam, seit 2004 registriert.
  ${FRENCH_HOST}:
    language: fr
    price: 4900
    priceType: negotiable
    vat: included
    minOffer: 1500
    buyUrl: https://escrow.example/kaufen/${FRENCH_HOST}
    description: Court, facile à retenir, enregistré depuis 2004.
`,
)
const server = await startServer(serverPort, { DATA_DIR: dataDir, DOMAINS_FILE: domainsFile })

/** Caddy in front of the server as in deploy/Caddyfile, with a certificate for HOST from Caddy's local CA. */
async function startCaddy() {
  const caddyfile = path.join(dir, 'Caddyfile')
  fs.writeFileSync(
    caddyfile,
    `{
	admin off
	skip_install_trust
	storage file_system ${path.join(dir, 'caddy')}
	auto_https disable_redirects
	https_port ${httpsPort}
}

https://${HOST}:${httpsPort}, https://${FRENCH_HOST}:${httpsPort} {
	bind 127.0.0.1
	tls internal
	encode zstd gzip
	reverse_proxy 127.0.0.1:${serverPort}
}
`,
  )
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config') }
  const child = spawn(caddyPath, ['run', '--adapter', 'caddyfile', '--config', caddyfile], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const log: Buffer[] = []
  child.stderr.on('data', (chunk: Buffer) => log.push(chunk))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const request = https.get(
        { host: '127.0.0.1', port: httpsPort, path: '/healthz', servername: HOST, headers: { host: `${HOST}:${httpsPort}` }, rejectUnauthorized: false },
        (response) => resolve(response.resume().statusCode === 200),
      )
      request.on('error', () => resolve(false)).setTimeout(1000, () => request.destroy())
    })
  const deadline = Date.now() + 20_000
  while (!(await answers())) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill()
      throw new Error(`Caddy did not start:\n${Buffer.concat(log).toString()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}

let caddy: Awaited<ReturnType<typeof startCaddy>> | undefined
let chrome: chromeLauncher.LaunchedChrome | undefined
try {
  caddy = await startCaddy()
  chrome = await chromeLauncher.launch({
    chromePath: chromium,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1, MAP ${FRENCH_HOST} 127.0.0.1`,
      // The certificate is from Caddy's local CA, which this throwaway browser profile does not know.
      '--ignore-certificate-errors',
    ],
  })
  const results: { url: string; scores: Record<string, number>; failed: { audit: string; score: number | null; value: string }[] }[] = []
  for (const [host, report] of [
    [HOST, reportFile],
    [FRENCH_HOST, reportFile?.replace(/(\.json)?$/, '-fr.json')],
  ] as const) {
    const url = `https://${host}:${httpsPort}/`
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error' },
      {
        extends: 'lighthouse:default',
        settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'], formFactor: 'mobile' },
      },
    )
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
    const { lhr } = result
    if (report) fs.writeFileSync(report, JSON.stringify(lhr, null, 2))
    const scores = Object.fromEntries(Object.values(lhr.categories).map((category) => [category.title, Math.round((category.score ?? 0) * 100)]))
    const failed = Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode))
      .map((audit) => ({ audit: audit.id, score: audit.score, value: audit.displayValue ?? '' }))
    results.push({ url, scores, failed })
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify(results.length === 1 ? results[0] : results, null, 2))
  } else {
    for (const { url, scores, failed } of results) {
      console.log(`Lighthouse (mobile) for ${url} (through Caddy, as deployed)`)
      console.table(scores)
      if (failed.length) console.table(failed)
    }
  }
} finally {
  await chrome?.kill()
  await caddy?.stop()
  await server.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}
