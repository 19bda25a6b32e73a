// `npm run bench`: build, start the production server (SMTP to a local sink), and measure in one run:
// GET / and POST /api/contact throughput and latency, cold start, memory and page weight, and, when nginx is
// installed, nginx serving the same page as a static file as the reference; in Chromium, what the first load fetches
// and how long the form takes to hydrate from the visitor's first focus. `--json` for JSON,
// `--duration N` for N seconds per load measurement (default 10). Traffic goes to 127.0.0.1 only.
// `--console`: the owner's console on a seeded store instead (scripts/bench-console.mjs); `--import`: the portfolio
// import at scale (scripts/bench-import.mjs); `--domains N`: a domains file of N names against one of 10
// (scripts/bench-domains.mjs); `--og-spray`: link-preview images asked for over distinct hosts (scripts/bench-og.mjs).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import zlib from 'node:zlib'
import http from 'node:http'
import autocannon from 'autocannon'
import { chromium } from 'playwright-core'
import { SMTPServer } from 'smtp-server'
import { build, root } from './build-lib.mjs'
import { freePort, rssMiB, SERVER_ENV, SERVER_MAIN, SERVER_NODE_FLAGS, startChild as start, stopChild as stop } from './server-lib.mjs'
import { issueToken } from '../src/server/contact/token.ts'

const args = process.argv.slice(2)
const asJson = args.includes('--json')
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback)
const duration = option('--duration', 10)
// --workers N: the server's WORKERS setting (a primary process and N servers sharing the port).
const workers = option('--workers', 1)
const CONNECTIONS = 50
const HOST = 'example.de'
/** A name with every block a listed name can have (domains file below): its page's size as sent is reported too. */
const FULL_HOST = 'sonnenhof-ferien.de'
const DOMAINS = `domains:
  ${FULL_HOST}:
    price: 4900
    priceType: negotiable
    vat: included
    minOffer: 1500
    buyUrl: https://escrow.example/kaufen/${FULL_HOST}
    description: Kurz, einprägsam, seit 2009 registriert – für Ferienwohnungen, Pensionen und Hofcafés.
`
const SECRET = 'bench-secret-0123456789abcdefghij'
const log = (...line) => asJson || console.log(...line)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const gzip = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length

async function load(url, options) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { host: HOST }, ...options })
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]))
  const ok = statusCodes['200'] ?? 0
  return {
    requestsPerSecond: Math.round(result.requests.average),
    // Only 200s: a 4xx answered quickly would otherwise count as throughput.
    okPerSecond: Math.round(ok / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok,
    notOk: result.requests.total - ok + result.errors + result.timeouts,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}

/** Polls every 10 ms until `url` answers 200; gives up at the deadline or as soon as `child` has exited. */
async function untilOk(url, deadline, child) {
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      if ((await fetch(url, { headers: { host: HOST }, signal: AbortSignal.timeout(1000) })).status === 200) return
    } catch {
      // not listening yet
    }
    await sleep(10)
  }
  throw new Error(`${url} did not answer 200 (${child.exitCode === null ? 'in time' : `the process exited with ${child.exitCode}`})`)
}

function pageWeight(html) {
  const assets = path.join(root, 'dist/client/assets')
  const kind = (ext) => fs.readdirSync(assets).filter((name) => name.endsWith(ext)).map((name) => fs.readFileSync(path.join(assets, name)))
  const sum = (buffers, f) => buffers.reduce((total, buffer) => total + f(buffer), 0)
  const row = (buffers) => ({ rawKB: +(sum(buffers, (b) => b.length) / 1024).toFixed(1), gzipKB: +(sum(buffers, gzip) / 1024).toFixed(1) })
  const htmlBuffer = Buffer.from(html)
  return { html: row([htmlBuffer]), css: row(kind('.css')), js: row(kind('.js')), total: row([htmlBuffer, ...kind('.css'), ...kind('.js')]) }
}

/** The bytes `url`'s body takes on the wire when the client accepts br and gzip, as Chromium over HTTPS does. */
function sentBytes(url, host) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host, 'accept-encoding': 'br, gzip' } }, (response) => {
        let bytes = 0
        response.on('data', (chunk) => (bytes += chunk.length)).on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' }))
      })
      .on('error', reject)
  })
}

const CHROMIUM_RUNS = 9
/**
 * In Chromium: the URLs the first load fetches (before any interaction) and the ones turning to the form adds, with
 * the bytes each is sent as; and, with the CPU slowed down 4x, the time from focusing the form's first field to the
 * hydrated form (loader.ts and ContactForm.tsx signal it), over fresh pages.
 */
async function browserFigures(port) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!fs.existsSync(executablePath)) return 'Chromium not installed (apt-get install chromium): no browser figures'
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--host-resolver-rules=MAP * 127.0.0.1'] })
  const pageUrl = `http://${HOST}:${port}/`
  try {
    const hydrationMs = []
    let fetched
    for (let run = 0; run < CHROMIUM_RUNS; run++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const requests = []
      page.on('request', (request) => requests.push(request.url()))
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await page.goto(pageUrl, { waitUntil: 'networkidle' })
      const beforeInteraction = [...requests]
      hydrationMs.push(
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              const { document, performance } = globalThis
              const started = performance.now()
              document.querySelector('form.contact').addEventListener('lander:hydrated', () => resolve(performance.now() - started), { once: true })
              document.getElementById('contact-name').focus()
            }),
        ),
      )
      fetched ??= { beforeInteraction, afterInteraction: requests.slice(beforeInteraction.length) }
      await context.close()
    }
    const weigh = async (urls) => {
      const files = await Promise.all(urls.map(async (url) => ({ path: new URL(url).pathname, ...(await sentBytes(url.replace(`${HOST}:`, '127.0.0.1:'), HOST)) })))
      return { files, totalKB: +(files.reduce((sum, file) => sum + file.bytes, 0) / 1024).toFixed(1) }
    }
    const firstLoad = await weigh(fetched.beforeInteraction)
    const later = await weigh(fetched.afterInteraction)
    hydrationMs.sort((a, b) => a - b)
    return {
      firstLoad,
      afterFirstInteraction: later,
      totalKB: +(firstLoad.totalKB + later.totalKB).toFixed(1),
      focusToHydratedMs: { cpuSlowdown: 4, runs: hydrationMs.map((ms) => Math.round(ms)), median: Math.round(hydrationMs[Math.floor(hydrationMs.length / 2)]) },
    }
  } finally {
    await browser.close()
  }
}

async function nginxReference(html) {
  if (spawnSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' }).status !== 0) return null
  const port = await freePort()
  // nginx's worker drops root rights; mkdtemp's directories are private, so open this one up.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-nginx-'))
  fs.chmodSync(dir, 0o755)
  fs.mkdirSync(path.join(dir, 'www'), { mode: 0o755 })
  fs.writeFileSync(path.join(dir, 'www/index.html'), html)
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; default_type text/html;
  server { listen 127.0.0.1:${port}; root ${dir}/www; location / { try_files /index.html =404; } } }`,
  )
  const nginx = start('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    await untilOk(`http://127.0.0.1:${port}/`, Date.now() + 5000, nginx)
    await load(`http://127.0.0.1:${port}/`, { duration: 2 })
    return await load(`http://127.0.0.1:${port}/`, {})
  } finally {
    await stop(nginx)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** GET / and POST /api/contact against nginx, page weight, memory and the browser figures: the bench without --console. */
async function benchPublicPage() {
  await build()
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-'))
  // HOST is not in it: it gets the page of an unlisted name, as without a domains file.
  fs.writeFileSync(path.join(tmp, 'domains.yaml'), DOMAINS)
  let mails = 0
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => {
        mails++
        callback()
      })
    },
  })
  const results = { workers }
  let server
  try {
    await new Promise((resolve, reject) => sink.once('error', reject).listen(0, '127.0.0.1', resolve))
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const started = Date.now()
    // Started the way `npm start` and the deployments start it: same Node flags and environment.
    server = start(process.execPath, [...SERVER_NODE_FLAGS, SERVER_MAIN], {
      env: {
        ...process.env,
        ...SERVER_ENV,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: tmp,
        DOMAINS_FILE: path.join(tmp, 'domains.yaml'),
        SMTP_URL: `smtp://127.0.0.1:${sink.server.address().port}`,
        MAIL_TO: 'owner@example.org',
        MAIL_FROM: 'lander@example.org',
        CONTACT_SECRET: SECRET,
        CONTACT_RATE_LIMIT: '0',
        MIN_FILL_SECONDS: '0',
        LOG_LEVEL: 'warn',
        WORKERS: String(workers),
        // The load goes to 127.0.0.1, which shows the page only as a local preview.
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    await untilOk(`${url}/`, Date.now() + 20_000, server)
    results.coldStartMs = Date.now() - started
    await sleep(500)
    results.rssIdleMiB = +rssMiB(server.pid).toFixed(1)
    const html = await (await fetch(`${url}/`, { headers: { host: HOST } })).text()
    results.pageWeight = pageWeight(html)

    log(`GET / for ${duration} s at ${CONNECTIONS} connections (after a 2 s warm-up) ...`)
    await load(`${url}/`, { duration: 2 })
    results.get = await load(`${url}/`, {})

    log(`GET / with Accept-Encoding: gzip for ${duration} s ...`)
    await load(`${url}/`, { duration: 2, headers: { host: HOST, 'accept-encoding': 'gzip' } })
    results.getGzip = await load(`${url}/`, { headers: { host: HOST, 'accept-encoding': 'gzip' } })
    results.getGzip.bodyBytes = (await sentBytes(`${url}/`, HOST)).bytes
    results.fullPageBodyBytes = (await sentBytes(`${url}/`, FULL_HOST)).bytes

    log('Chromium: first load, and focus to hydrated form with the CPU slowed down 4x ...')
    results.browser = await browserFigures(port)

    log(`POST /api/contact for ${duration} s, a fresh token per request ...`)
    const fields = { name58fnlsd: 'Bench', name58fnlsdbee: '', themail3h6: 'bench@example.de', themail3h6bee: '', message: 'Benchmark' }
    results.post = await load(`${url}/api/contact`, {
      method: 'POST',
      headers: { host: HOST, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            const { token, signedIssueTime } = issueToken(SECRET, HOST)
            return { ...request, body: JSON.stringify({ ...fields, token, hash: signedIssueTime }) }
          },
        },
      ],
    })
    results.rssAfterLoadMiB = +rssMiB(server.pid).toFixed(1)

    log('nginx reference (static file, one worker) ...')
    const nginx = await nginxReference(html)
    results.nginx = nginx ?? 'nginx not installed (apt-get install nginx): no reference ratio'
    if (nginx) results.getVsNginx = +(results.get.requestsPerSecond / nginx.requestsPerSecond).toFixed(3)
  } finally {
    if (server) await stop(server)
    await new Promise((resolve) => sink.close(resolve))
    // A 200 must mean a stored inquiry: count the rows, after the server has let go of the file.
    const file = path.join(tmp, 'domain-lander.sqlite')
    if (results.post && fs.existsSync(file)) {
      const db = new DatabaseSync(file, { readOnly: true })
      results.post.stored = db.prepare('SELECT count(*) AS n FROM inquiries WHERE spam_reason IS NULL').get().n
      db.close()
    }
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  results.mailsDeliveredDuringRun = mails

  if (asJson) {
    console.log(JSON.stringify(results, null, 2))
  } else {
    const w = results.pageWeight
    const row = (r, ratePerSecond) => ({ 'req/s': ratePerSecond, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'not 200': r.notOk })
    console.table({
      'GET /': row(results.get, results.get.requestsPerSecond),
      'GET / gzip': row(results.getGzip, results.getGzip.requestsPerSecond),
      'POST /api/contact (200s/s)': row(results.post, results.post.okPerSecond),
      ...(typeof results.nginx === 'object' ? { 'nginx static GET / (reference)': row(results.nginx, results.nginx.requestsPerSecond) } : {}),
    })
    const codes = (r) => Object.entries(r.statusCodes).map(([code, n]) => `${n}×${code}`).join(', ') || 'none'
    console.log(`POST answers: ${codes(results.post)}; errors ${results.post.errors}, timeouts ${results.post.timeouts}; stored ${results.post.stored}; mails delivered ${mails}`)
    if (results.get.notOk) console.log(`GET answers: ${codes(results.get)}; errors ${results.get.errors}, timeouts ${results.get.timeouts}`)
    console.log(typeof results.nginx === 'object' ? `GET / vs nginx: ${results.getVsNginx}` : results.nginx)
    console.log(`server processes: ${workers === 1 ? '1' : `${workers} workers and a primary`}`)
    console.log(`cold start to first 200: ${results.coldStartMs} ms; RSS idle ${results.rssIdleMiB} MiB, after load ${results.rssAfterLoadMiB} MiB`)
    const kb = (k) => `${w[k].rawKB} KB raw / ${w[k].gzipKB} KB gzip`
    console.log(`page weight (computed): HTML ${kb('html')}; CSS ${kb('css')}; JS ${kb('js')}; total ${kb('total')}`)
    console.log(`GET / gzip: body ${results.getGzip.bodyBytes} bytes as sent; ${FULL_HOST} (price terms, buy button, steps, offer field): ${results.fullPageBodyBytes} bytes`)
    const b = results.browser
    if (typeof b === 'object') {
      const files = (part) => part.files.map((f) => `${f.path} ${(f.bytes / 1024).toFixed(1)} KB ${f.encoding}`).join(', ')
      console.log(`first load (before any interaction): ${b.firstLoad.totalKB} KB sent: ${files(b.firstLoad)}`)
      console.log(`after the first focus on the form: ${b.afterFirstInteraction.totalKB} KB: ${files(b.afterFirstInteraction)}; total ${b.totalKB} KB`)
      console.log(`focus to hydrated form, CPU 4x slower: median ${b.focusToHydratedMs.median} ms (runs ${b.focusToHydratedMs.runs.join(', ')} ms)`)
    } else console.log(b)
  }
}

if (args.includes('--speed') || args.includes('--compare')) await (await import('./bench-compare.mjs')).benchSpeed(args)
else if (args.includes('--console')) await (await import('./bench-console.mjs')).benchConsole(args)
else if (args.includes('--import')) await (await import('./bench-import.mjs')).benchImport(args)
else if (args.includes('--domains')) await (await import('./bench-domains.mjs')).benchDomains(args)
else if (args.includes('--og-spray')) await (await import('./bench-og.mjs')).benchOgSpray(args)
else await benchPublicPage()
