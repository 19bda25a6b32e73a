// `npm run bench -- --speed` and `npm run bench -- --compare REF`: the public page measured from outside, the way a
// user runs it (the production server with the Node flags `npm start` uses, default settings, no domains file,
// behind nothing), against nginx serving the same page as a static file (one worker) in the same session.
// GET / with wrk (2 threads, 50 connections, Accept-Encoding: gzip, 15 s warm-up, then 3 runs of 10 s, medians);
// POST /api/contact with autocannon (every request needs a fresh signed token, which wrk cannot make); cold start
// to the first 200 (a fresh data directory) and again on the same data directory (a restart); RSS idle and after the
// load. nginx runs twice a round: `gzip on` as Debian ships it, and `gzip_static` (see nginxFigures).
// `--compare REF` builds the git ref REF in a worktree of its own and measures both builds in turn, alternating
// which goes first in each round (`--rounds N`, default 3), so that a claim "faster" or "slower" is one command with
// both figures side by side. Traffic goes to 127.0.0.1 only; every run is bounded in time.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { DatabaseSync } from 'node:sqlite'
import autocannon from 'autocannon'
import { SMTPServer } from 'smtp-server'
import { build, root } from './build-lib.mjs'
import { freePort, rssMiB, SERVER_ENV, SERVER_NODE_FLAGS, startChild as start, stopChild as stop } from './server-lib.mjs'
import { issueToken } from '../src/server/contact/token.ts'

const HOST = 'example.de'
const SECRET = 'bench-secret-0123456789abcdefghij'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function untilOk(url, deadline, child) {
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      if ((await fetch(url, { headers: { host: HOST }, signal: AbortSignal.timeout(1000) })).status === 200) return
    } catch {
      // not listening yet
    }
    await sleep(2)
  }
  throw new Error(`${url} did not answer 200 (${child.exitCode === null ? 'in time' : `the process exited with ${child.exitCode}`})`)
}

/** wrk's summary of one run: requests per second, p99 in ms, non-2xx answers and socket errors. */
function wrk(url, seconds) {
  const run = spawnSync(
    'wrk',
    ['-t2', '-c50', `-d${seconds}s`, '--latency', '-H', `Host: ${HOST}`, '-H', 'Accept-Encoding: gzip', url],
    { encoding: 'utf8', timeout: (seconds + 30) * 1000 },
  )
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.error}`)
  const out = run.stdout
  const ms = (text) => {
    const [, value, unit] = /([\d.]+)(us|ms|s)\b/.exec(text)
    return +value * { us: 0.001, ms: 1, s: 1000 }[unit]
  }
  return {
    requestsPerSecond: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])),
    p99Ms: +ms(/^\s+99%\s+(\S+)/m.exec(out)[1]).toFixed(2),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? 'none',
  }
}

/** GET / as the issue measures it: 15 s warm-up, then 3 runs of `seconds`, medians. */
function getFigures(url, seconds, warmup) {
  wrk(url, warmup)
  const runs = [1, 2, 3].map(() => wrk(url, seconds))
  return { requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)), p99Ms: median(runs.map((r) => r.p99Ms)), runs }
}

async function postFigures(url, seconds) {
  const fields = { name58fnlsd: 'Bench', name58fnlsdbee: '', themail3h6: 'bench@example.de', themail3h6bee: '', message: 'Benchmark' }
  const result = await autocannon({
    url: `${url}/api/contact`,
    connections: 50,
    duration: seconds,
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
  return { okPerSecond: Math.round((result.statusCodeStats['200']?.count ?? 0) / result.duration), p99Ms: result.latency.p99 }
}

/** One build measured once: cold start, RSS idle, GET / (wrk), RSS after, POST (stored per second). */
async function measureBuild(main, options) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-speed-'))
  const sink = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, onData: (stream, _s, done) => stream.resume().on('end', () => done()) })
  await new Promise((resolve, reject) => sink.once('error', reject).listen(0, '127.0.0.1', resolve))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let server
  try {
    // Default settings: the log level and format a user gets (JSON lines to a pipe nobody reads slowly).
    const launch = () => start(process.execPath, [...SERVER_NODE_FLAGS, main], {
      env: {
        ...process.env,
        ...SERVER_ENV,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: tmp,
        SMTP_URL: `smtp://127.0.0.1:${sink.server.address().port}`,
        MAIL_TO: 'owner@example.org',
        CONTACT_SECRET: SECRET,
        CONTACT_RATE_LIMIT: '0',
        MIN_FILL_SECONDS: '0',
        // The console stays on, as by default, on a free port (3001 may be taken by a server of the developer's).
        ADMIN_PORT: '0',
        LOG_LEVEL: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const started = performance.now()
    server = launch()
    server.stdout.resume()
    await untilOk(`${url}/`, Date.now() + 20_000, server)
    const coldStartMs = Math.round(performance.now() - started)
    await sleep(1000)
    const rssIdleMiB = +rssMiB(server.pid).toFixed(1)
    const get = getFigures(`${url}/`, options.seconds, options.warmup)
    const rssAfterLoadMiB = +rssMiB(server.pid).toFixed(1)
    const post = await postFigures(url, options.seconds)
    await stop(server)
    const db = new DatabaseSync(path.join(tmp, 'domain-lander.sqlite'), { readOnly: true })
    post.stored = db.prepare('SELECT count(*) AS n FROM inquiries WHERE spam_reason IS NULL').get().n
    db.close()
    // The start an installed server makes every other time: its data directory and database exist (the cold start
    // above made them, migrations and all).
    const restarted = performance.now()
    server = launch()
    server.stdout.resume()
    await untilOk(`${url}/`, Date.now() + 20_000, server)
    const restartMs = Math.round(performance.now() - restarted)
    await stop(server)
    return { coldStartMs, restartMs, rssIdleMiB, rssAfterLoadMiB, get, post }
  } finally {
    if (server) await stop(server)
    await new Promise((resolve) => sink.close(resolve))
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * nginx serving the page as a file, one worker, in one of two ways: `gzip` as Debian's nginx.conf ships it (`gzip
 * on`: the page compressed per request at level 1; the issue's reference figures were made this way), or `static`:
 * the same gzip bytes our server sends, compressed once beside the file (`gzip_static`), which is what nginx at its
 * fastest does for a page.
 */
async function nginxFigures(html, options, mode) {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-nginx-'))
  fs.chmodSync(dir, 0o755)
  fs.mkdirSync(path.join(dir, 'www'), { mode: 0o755 })
  fs.writeFileSync(path.join(dir, 'www/index.html'), html)
  if (mode === 'static') fs.writeFileSync(path.join(dir, 'www/index.html.gz'), zlib.gzipSync(html, { level: 9 }))
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; default_type text/html; ${mode === 'static' ? 'gzip_static on;' : 'gzip on;'}
  server { listen 127.0.0.1:${port}; root ${dir}/www; location / { try_files /index.html =404; } } }`,
  )
  const nginx = start('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    await untilOk(`http://127.0.0.1:${port}/`, Date.now() + 5000, nginx)
    return getFigures(`http://127.0.0.1:${port}/`, options.seconds, options.warmup)
  } finally {
    await stop(nginx)
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Builds `ref` in a worktree under the system's temporary directory; returns its server entry and a clean-up. */
function buildRef(ref) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-ref-'))
  const git = (...argv) => {
    const run = spawnSync('git', argv, { cwd: root, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`git ${argv.join(' ')}: ${run.stderr}`)
  }
  git('worktree', 'add', '--detach', dir, ref)
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`the build of ${ref} failed`)
  return { main: path.join(dir, 'dist/server/main.js'), cleanup: () => git('worktree', 'remove', '--force', dir) }
}

const row = (figures) => ({
  'GET / req/s': figures.get.requestsPerSecond,
  'GET / p99 ms': figures.get.p99Ms,
  'POST stored/s': figures.post.okPerSecond,
  'cold start ms': figures.coldStartMs,
  'restart ms': figures.restartMs,
  'RSS idle MiB': figures.rssIdleMiB,
  'RSS after load MiB': figures.rssAfterLoadMiB,
})

export async function benchSpeed(args) {
  const asJson = args.includes('--json')
  const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback)
  const options = { seconds: option('--duration', 10), warmup: option('--warmup', 15) }
  const rounds = option('--rounds', args.includes('--compare') ? 3 : 1)
  const ref = args.includes('--compare') ? args[args.indexOf('--compare') + 1] : undefined
  if (spawnSync('sh', ['-c', 'command -v wrk && command -v nginx'], { stdio: 'ignore' }).status !== 0) {
    console.error('bench --speed needs wrk and nginx (apt-get install wrk nginx)')
    process.exit(1)
  }
  await build()
  const builds = { current: path.join(root, 'dist/server/main.js') }
  const reference = ref && buildRef(ref)
  if (reference) builds[ref] = reference.main
  const log = (...line) => asJson || console.log(...line)
  const results = Object.fromEntries(Object.keys(builds).map((name) => [name, []]))
  const nginx = { gzip: [], static: [] }
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternating who goes first: a machine that warms up or gets busier during the session favours neither.
      const order = Object.keys(builds)
      if (round % 2 === 1) order.reverse()
      for (const name of order) {
        log(`round ${round + 1}/${rounds}: ${name} ...`)
        results[name].push(await measureBuild(builds[name], options))
      }
      const page = await pageOf(builds.current)
      for (const mode of ['gzip', 'static']) {
        log(`round ${round + 1}/${rounds}: nginx (${mode}) ...`)
        nginx[mode].push(await nginxFigures(page, options, mode))
      }
    }
  } finally {
    reference?.cleanup()
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => {
      const pick = (f) => median(runs.map(f))
      return [
        name,
        {
          get: { requestsPerSecond: pick((r) => r.get.requestsPerSecond), p99Ms: pick((r) => r.get.p99Ms) },
          post: { okPerSecond: pick((r) => r.post.okPerSecond) },
          coldStartMs: pick((r) => r.coldStartMs),
          restartMs: pick((r) => r.restartMs),
          rssIdleMiB: pick((r) => r.rssIdleMiB),
          rssAfterLoadMiB: pick((r) => r.rssAfterLoadMiB),
          rounds: runs,
        },
      ]
    }),
  )
  const nginxOf = (runs) => ({ requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)), p99Ms: median(runs.map((r) => r.p99Ms)), rounds: runs })
  const nginxSummary = { gzip: nginxOf(nginx.gzip), static: nginxOf(nginx.static) }
  if (asJson) return console.log(JSON.stringify({ builds: summary, nginx: nginxSummary }, null, 2))
  const ratio = (figures, mode) => +(figures.get.requestsPerSecond / nginxSummary[mode].requestsPerSecond).toFixed(3)
  const table = Object.fromEntries(
    Object.entries(summary).map(([name, figures]) => [name, { ...row(figures), 'vs nginx gzip on': ratio(figures, 'gzip'), 'vs nginx gzip_static': ratio(figures, 'static') }]),
  )
  table['nginx, gzip on (Debian default), 1 worker'] = { 'GET / req/s': nginxSummary.gzip.requestsPerSecond, 'GET / p99 ms': nginxSummary.gzip.p99Ms }
  table['nginx, gzip_static, 1 worker'] = { 'GET / req/s': nginxSummary.static.requestsPerSecond, 'GET / p99 ms': nginxSummary.static.p99Ms }
  console.table(table)
  console.log(`medians of ${rounds} round(s); GET / by wrk: 2 threads, 50 connections, gzip, ${options.warmup} s warm-up, 3 runs of ${options.seconds} s each`)
  for (const [name, runs] of Object.entries(results)) {
    console.log(`${name}: GET / req/s by round ${runs.map((r) => r.get.requestsPerSecond).join(', ')}; POST stored/s ${runs.map((r) => r.post.okPerSecond).join(', ')} (stored ${runs.map((r) => r.post.stored).join(', ')})`)
  }
}

/** The page's HTML as the build at `main` sends it, for nginx to serve as a file. */
async function pageOf(main) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-page-'))
  const port = await freePort()
  const server = start(process.execPath, [...SERVER_NODE_FLAGS, main], {
    env: { ...process.env, ...SERVER_ENV, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: tmp, CONTACT_SECRET: SECRET, ADMIN_PORT: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await untilOk(`http://127.0.0.1:${port}/`, Date.now() + 20_000, server)
    return await (await fetch(`http://127.0.0.1:${port}/`, { headers: { host: HOST } })).text()
  } finally {
    await stop(server)
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}
