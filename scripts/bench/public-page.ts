// `npm run bench`: build, start the production server (SMTP to a local sink), and measure in one run:
// GET / and POST /api/contact throughput and latency, cold start, memory and page weight, and, when nginx is
// installed, nginx serving the same page as a static file as the reference; in Chromium, what the first load fetches
// and how long the form takes to hydrate from the visitor's first focus. `--json` for JSON,
// `--duration N` for N seconds per load measurement (default 10), `--workers N` for the server's WORKERS setting.
// Traffic goes to 127.0.0.1 only. The other benches: scripts/bench/main.ts.
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import zlib from 'node:zlib'
import type { Options as AutocannonOptions } from 'autocannon'
import { chromium } from 'playwright-core'
import { issueToken } from '../../src/server/http/form-token.ts'
import { build, root } from '../build-lib.ts'
import {
  argsOf,
  type BuiltServer,
  hasCommand,
  load,
  type LoadFigures,
  reporter,
  rssMiB,
  sleep,
  startBuiltServer,
  startMailSink,
  withNginx,
  withTempDir,
} from './harness.ts'

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

const gzip = (buffer: Buffer) => zlib.gzipSync(buffer, { level: 9 }).length

function pageWeight(html: string) {
  const assets = path.join(root, 'dist/client/assets')
  const kind = (ext: string) =>
    fs
      .readdirSync(assets)
      .filter((name) => name.endsWith(ext))
      .map((name) => fs.readFileSync(path.join(assets, name)))
  const sum = (buffers: Buffer[], f: (buffer: Buffer) => number) => buffers.reduce((total, buffer) => total + f(buffer), 0)
  const row = (buffers: Buffer[]) => ({ rawKB: +(sum(buffers, (b) => b.length) / 1024).toFixed(1), gzipKB: +(sum(buffers, gzip) / 1024).toFixed(1) })
  const htmlBuffer = Buffer.from(html)
  return { html: row([htmlBuffer]), css: row(kind('.css')), js: row(kind('.js')), total: row([htmlBuffer, ...kind('.css'), ...kind('.js')]) }
}

/** The bytes `url`'s body takes on the wire when the client accepts br and gzip, as Chromium over HTTPS does. */
function sentBytes(url: string, host: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host, 'accept-encoding': 'br, gzip' } }, (response) => {
        let bytes = 0
        response
          .on('data', (chunk: Buffer) => (bytes += chunk.length))
          .on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' }))
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
async function browserFigures(port: number) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!fs.existsSync(executablePath)) return 'Chromium not installed (apt-get install chromium): no browser figures'
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--host-resolver-rules=MAP * 127.0.0.1'] })
  const pageUrl = `http://${HOST}:${port}/`
  try {
    const hydrationMs: number[] = []
    let fetched: { beforeInteraction: string[]; afterInteraction: string[] } | undefined
    for (let run = 0; run < CHROMIUM_RUNS; run++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const requests: string[] = []
      page.on('request', (request) => requests.push(request.url()))
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await page.goto(pageUrl, { waitUntil: 'networkidle' })
      const beforeInteraction = [...requests]
      hydrationMs.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const { document, performance } = globalThis
              const started = performance.now()
              document.querySelector('form.contact')!.addEventListener('lander:hydrated', () => resolve(performance.now() - started), { once: true })
              document.getElementById('contact-name')!.focus()
            }),
        ),
      )
      fetched ??= { beforeInteraction, afterInteraction: requests.slice(beforeInteraction.length) }
      await context.close()
    }
    const weigh = async (urls: string[]) => {
      const files = await Promise.all(
        urls.map(async (url) => ({ path: new URL(url).pathname, ...(await sentBytes(url.replace(`${HOST}:`, '127.0.0.1:'), HOST)) })),
      )
      return { files, totalKB: +(files.reduce((sum, file) => sum + file.bytes, 0) / 1024).toFixed(1) }
    }
    const firstLoad = await weigh(fetched!.beforeInteraction)
    const later = await weigh(fetched!.afterInteraction)
    hydrationMs.sort((a, b) => a - b)
    return {
      firstLoad,
      afterFirstInteraction: later,
      totalKB: +(firstLoad.totalKB + later.totalKB).toFixed(1),
      focusToHydratedMs: {
        cpuSlowdown: 4,
        runs: hydrationMs.map((ms) => Math.round(ms)),
        median: Math.round(hydrationMs[Math.floor(hydrationMs.length / 2)]!),
      },
    }
  } finally {
    await browser.close()
  }
}

/** GET / for `seconds` at 50 connections. */
const loadOf = (url: string, seconds: number, options: Partial<AutocannonOptions> = {}) =>
  load({ url, connections: CONNECTIONS, duration: seconds, headers: { host: HOST }, ...options })

/** GET / and POST /api/contact against nginx, page weight, memory and the browser figures: the bench without --console. */
export async function benchPublicPage(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const duration = args.number('--duration', 10)
  // --workers N: the server's WORKERS setting (a primary process and N servers sharing the port).
  const workers = args.number('--workers', 1)
  const { log, report } = reporter(args.asJson)
  await build()
  const sink = await startMailSink()
  const results: {
    workers: number
    coldStartMs?: number
    rssIdleMiB?: number
    pageWeight?: ReturnType<typeof pageWeight>
    get?: LoadFigures
    getGzip?: LoadFigures & { bodyBytes?: number }
    fullPageBodyBytes?: number
    browser?: string | Awaited<ReturnType<typeof browserFigures>>
    post?: LoadFigures & { stored?: number }
    rssAfterLoadMiB?: number
    nginx?: LoadFigures | string
    getVsNginx?: number
    mailsDeliveredDuringRun?: number
  } = { workers }
  await withTempDir('domain-lander-bench-', async (tmp) => {
    // HOST is not in it: it gets the page of an unlisted name, as without a domains file.
    fs.writeFileSync(path.join(tmp, 'domains.yaml'), DOMAINS)
    let server: BuiltServer | undefined
    try {
      server = await startBuiltServer({
        host: HOST,
        env: {
          DATA_DIR: tmp,
          DOMAINS_FILE: path.join(tmp, 'domains.yaml'),
          SMTP_URL: sink.url,
          MAIL_TO: 'owner@example.org',
          MAIL_FROM: 'lander@example.org',
          CONTACT_SECRET: SECRET,
          CONTACT_RATE_LIMIT: '0',
          MIN_FILL_SECONDS: '0',
          LOG_LEVEL: 'warn',
          WORKERS: String(workers),
          // The load goes to 127.0.0.1, which shows the page only as a local preview.
        },
      })
      const { url, port } = server
      const pid = server.child.pid!
      results.coldStartMs = server.startMs
      await sleep(500)
      results.rssIdleMiB = +rssMiB(pid).toFixed(1)
      const html = await (await fetch(`${url}/`, { headers: { host: HOST } })).text()
      results.pageWeight = pageWeight(html)

      log(`GET / for ${duration} s at ${CONNECTIONS} connections (after a 2 s warm-up) ...`)
      await loadOf(`${url}/`, 2)
      results.get = await loadOf(`${url}/`, duration)

      log(`GET / with Accept-Encoding: gzip for ${duration} s ...`)
      const gzipHeaders = { host: HOST, 'accept-encoding': 'gzip' }
      await loadOf(`${url}/`, 2, { headers: gzipHeaders })
      results.getGzip = await loadOf(`${url}/`, duration, { headers: gzipHeaders })
      results.getGzip.bodyBytes = (await sentBytes(`${url}/`, HOST)).bytes
      results.fullPageBodyBytes = (await sentBytes(`${url}/`, FULL_HOST)).bytes

      log('Chromium: first load, and focus to hydrated form with the CPU slowed down 4x ...')
      results.browser = await browserFigures(port)

      log(`POST /api/contact for ${duration} s, a fresh token per request ...`)
      const fields = { name58fnlsd: 'Bench', name58fnlsdbee: '', themail3h6: 'bench@example.de', themail3h6bee: '', message: 'Benchmark' }
      let sent = 0
      results.post = await loadOf(`${url}/api/contact`, duration, {
        method: 'POST',
        headers: { host: HOST, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const { token, signedIssueTime } = issueToken(SECRET, HOST)
              // A message of its own each: one second's visitors share a token, and the same token with the same
              // content is one inquiry sent twice (decision 055).
              return { ...request, body: JSON.stringify({ ...fields, message: `${fields.message} ${++sent}`, token, hash: signedIssueTime }) }
            },
          },
        ],
      })
      results.rssAfterLoadMiB = +rssMiB(pid).toFixed(1)

      log('nginx reference (static file, one worker) ...')
      const nginx = hasCommand('nginx')
        ? await withNginx(html, 'plain', async (nginxUrl) => {
            await loadOf(nginxUrl, 2)
            return loadOf(nginxUrl, duration)
          })
        : null
      results.nginx = nginx ?? 'nginx not installed (apt-get install nginx): no reference ratio'
      if (nginx) results.getVsNginx = +(results.get.requestsPerSecond / nginx.requestsPerSecond).toFixed(3)
    } finally {
      await server?.stop()
      await sink.close()
      // A 200 must mean a stored inquiry: count the rows, after the server has let go of the file.
      const file = path.join(tmp, 'domain-lander.sqlite')
      if (results.post && fs.existsSync(file)) {
        const db = new DatabaseSync(file, { readOnly: true })
        results.post.stored = Number((db.prepare('SELECT count(*) AS n FROM inquiries WHERE spam_reason IS NULL').get() as { n: number }).n)
        db.close()
      }
    }
  })
  const mails = sink.delivered()
  results.mailsDeliveredDuringRun = mails

  report(results, () => {
    const w = results.pageWeight!
    const get = results.get!
    const getGzip = results.getGzip!
    const post = results.post!
    const row = (r: LoadFigures, ratePerSecond: number) => ({ 'req/s': ratePerSecond, 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'not 200': r.notOk })
    console.table({
      'GET /': row(get, get.requestsPerSecond),
      'GET / gzip': row(getGzip, getGzip.requestsPerSecond),
      'POST /api/contact (200s/s)': row(post, post.okPerSecond),
      ...(typeof results.nginx === 'object' ? { 'nginx static GET / (reference)': row(results.nginx, results.nginx.requestsPerSecond) } : {}),
    })
    const codes = (r: LoadFigures) =>
      Object.entries(r.statusCodes)
        .map(([code, n]) => `${n}×${code}`)
        .join(', ') || 'none'
    console.log(`POST answers: ${codes(post)}; errors ${post.errors}, timeouts ${post.timeouts}; stored ${post.stored}; mails delivered ${mails}`)
    if (get.notOk) console.log(`GET answers: ${codes(get)}; errors ${get.errors}, timeouts ${get.timeouts}`)
    console.log(typeof results.nginx === 'object' ? `GET / vs nginx: ${results.getVsNginx}` : results.nginx)
    console.log(`server processes: ${workers === 1 ? '1' : `${workers} workers and a primary`}`)
    console.log(`cold start to first 200: ${results.coldStartMs} ms; RSS idle ${results.rssIdleMiB} MiB, after load ${results.rssAfterLoadMiB} MiB`)
    const kb = (k: keyof typeof w) => `${w[k].rawKB} KB raw / ${w[k].gzipKB} KB gzip`
    console.log(`page weight (computed): HTML ${kb('html')}; CSS ${kb('css')}; JS ${kb('js')}; total ${kb('total')}`)
    console.log(
      `GET / gzip: body ${getGzip.bodyBytes} bytes as sent; ${FULL_HOST} (price terms, buy button, steps, offer field): ${results.fullPageBodyBytes} bytes`,
    )
    const b = results.browser
    if (typeof b === 'object') {
      const files = (part: { files: { path: string; bytes: number; encoding: string }[] }) =>
        part.files.map((f) => `${f.path} ${(f.bytes / 1024).toFixed(1)} KB ${f.encoding}`).join(', ')
      console.log(`first load (before any interaction): ${b.firstLoad.totalKB} KB sent: ${files(b.firstLoad)}`)
      console.log(`after the first focus on the form: ${b.afterFirstInteraction.totalKB} KB: ${files(b.afterFirstInteraction)}; total ${b.totalKB} KB`)
      console.log(`focus to hydrated form, CPU 4x slower: median ${b.focusToHydratedMs.median} ms (runs ${b.focusToHydratedMs.runs.join(', ')} ms)`)
    } else console.log(b)
  })
}
