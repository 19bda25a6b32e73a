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
import { DatabaseSync } from 'node:sqlite'
import { signToken } from '../../src/server/http/form-token.ts'
import { build, root } from '../build-lib.ts'
import { freePort } from '../server-lib.ts'
import {
  argsOf,
  type BuiltServer,
  hasCommand,
  load,
  median,
  reporter,
  rssMiB,
  sleep,
  startBuiltServer,
  startMailSink,
  withNginx,
  withTempDir,
  wrkMedians,
} from './harness.ts'

const HOST = 'example.de'
const SECRET = 'bench-secret-0123456789abcdefghij'

interface Options {
  seconds: number
  warmup: number
}
type GetFigures = ReturnType<typeof wrkMedians>
interface BuildFigures {
  coldStartMs: number
  restartMs: number
  rssIdleMiB: number
  /** The idle RSS without the pages of files (the node binary's code and ICU data, shared and reclaimable). */
  anonIdleMiB: number
  rssAfterLoadMiB: number
  get: GetFigures
  post: { okPerSecond: number; p99Ms: number; stored?: number }
}

async function postFigures(url: string, seconds: number) {
  const fields = { name58fnlsd: 'Bench', name58fnlsdbee: '', themail3h6: 'bench@example.de', themail3h6bee: '', message: 'Benchmark' }
  let sent = 0
  const result = await load({
    url: `${url}/api/contact`,
    connections: 50,
    duration: seconds,
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          // A token of its own for each post, signed as the server signs one (taken by a build whose tokens are
          // single-use as by one whose tokens are derived per second), and a message of its own: the same token
          // with the same content is one inquiry sent twice (decision 055).
          const token = `bench${String(++sent).padStart(10, '0')}`
          const hash = signToken(SECRET, token, HOST, Date.now())
          return { ...request, body: JSON.stringify({ ...fields, message: `${fields.message} ${sent}`, token, hash }) }
        },
      },
    ],
  })
  return { okPerSecond: result.okPerSecond, p99Ms: result.p99Ms }
}

/** One build measured once: cold start, RSS idle, GET / (wrk), RSS after, POST (stored per second). */
async function measureBuild(main: string, options: Options): Promise<BuildFigures> {
  const sink = await startMailSink()
  const port = await freePort()
  try {
    return await withTempDir('domain-lander-speed-', async (tmp) => {
      let server: BuiltServer | undefined
      try {
        // Default settings: the log level and format a user gets (JSON lines to a pipe nobody reads slowly).
        const launch = () =>
          startBuiltServer({
            main,
            port,
            host: HOST,
            stdout: 'pipe',
            pollMs: 2,
            env: {
              DATA_DIR: tmp,
              SMTP_URL: sink.url,
              MAIL_TO: 'owner@example.org',
              CONTACT_SECRET: SECRET,
              CONTACT_RATE_LIMIT: '0',
              MIN_FILL_SECONDS: '0',
              // The console stays on, as by default, on a free port (3001 may be taken by a server of the developer's).
              ADMIN_PORT: '0',
              LOG_LEVEL: '',
            },
          })
        server = await launch()
        const coldStartMs = server.startMs
        const url = server.url
        await sleep(1000)
        const pid = server.child.pid!
        const rssIdleMiB = +rssMiB(pid).toFixed(1)
        const anonIdleMiB = +rssMiB(pid, 'RssAnon').toFixed(1)
        const get = wrkMedians(`${url}/`, { ...options, host: HOST })
        const rssAfterLoadMiB = +rssMiB(pid).toFixed(1)
        const post: BuildFigures['post'] = await postFigures(url, options.seconds)
        await server.stop()
        const db = new DatabaseSync(path.join(tmp, 'domain-lander.sqlite'), { readOnly: true })
        post.stored = Number((db.prepare('SELECT count(*) AS n FROM inquiries WHERE spam_reason IS NULL').get() as { n: number }).n)
        db.close()
        // The start an installed server makes every other time: its data directory and database exist (the cold start
        // above made them, migrations and all).
        server = await launch()
        const restartMs = server.startMs
        await server.stop()
        return { coldStartMs, restartMs, rssIdleMiB, anonIdleMiB, rssAfterLoadMiB, get, post }
      } finally {
        await server?.stop()
      }
    })
  } finally {
    await sink.close()
  }
}

/**
 * nginx serving the page as a file, one worker, in one of two ways: `gzip` as Debian's nginx.conf ships it (`gzip
 * on`: the page compressed per request at level 1; the reference figures were made this way), or `static`:
 * the same gzip bytes our server sends, compressed once beside the file (`gzip_static`), which is what nginx at its
 * fastest does for a page.
 */
const nginxFigures = (html: string, options: Options, mode: 'gzip' | 'static') =>
  withNginx(html, mode, async (url) => wrkMedians(url, { ...options, host: HOST }))

/** Builds `ref` in a worktree under the system's temporary directory; returns its server entry and a clean-up. */
function buildRef(ref: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-ref-'))
  const git = (...argv: string[]) => {
    const run = spawnSync('git', argv, { cwd: root, encoding: 'utf8' })
    if (run.status !== 0) throw new Error(`git ${argv.join(' ')}: ${run.stderr}`)
  }
  git('worktree', 'add', '--detach', dir, ref)
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
  // A ref from before the scripts were TypeScript (issue 16/19) builds with scripts/build.mjs.
  const script = fs.existsSync(path.join(dir, 'scripts/build.ts')) ? 'scripts/build.ts' : 'scripts/build.mjs'
  const built = spawnSync(process.execPath, [script], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`the build of ${ref} failed`)
  return { main: path.join(dir, 'dist/server/main.js'), cleanup: () => git('worktree', 'remove', '--force', dir) }
}

const row = (
  figures: Pick<BuildFigures, 'coldStartMs' | 'restartMs' | 'rssIdleMiB' | 'anonIdleMiB' | 'rssAfterLoadMiB'> & {
    get: { requestsPerSecond: number; p99Ms: number }
    post: { okPerSecond: number }
  },
) => ({
  'GET / req/s': figures.get.requestsPerSecond,
  'GET / p99 ms': figures.get.p99Ms,
  'POST stored/s': figures.post.okPerSecond,
  'cold start ms': figures.coldStartMs,
  'restart ms': figures.restartMs,
  'RSS idle MiB': figures.rssIdleMiB,
  'of it anonymous MiB': figures.anonIdleMiB,
  'RSS after load MiB': figures.rssAfterLoadMiB,
})

export async function benchSpeed(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const asJson = args.asJson
  const options: Options = { seconds: args.number('--duration', 10), warmup: args.number('--warmup', 15) }
  const rounds = args.number('--rounds', args.has('--compare') ? 3 : 1)
  const ref = args.value('--compare')
  if (!hasCommand('wrk') || !hasCommand('nginx')) {
    console.error('bench --speed needs wrk and nginx (apt-get install wrk nginx)')
    process.exit(1)
  }
  await build()
  const builds: Record<string, string> = { current: path.join(root, 'dist/server/main.js') }
  const reference = ref ? buildRef(ref) : undefined
  if (ref && reference) builds[ref] = reference.main
  const { log } = reporter(asJson)
  const results: Record<string, BuildFigures[]> = Object.fromEntries(Object.keys(builds).map((name) => [name, []]))
  const nginx: Record<'gzip' | 'static', GetFigures[]> = { gzip: [], static: [] }
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternating who goes first: a machine that warms up or gets busier during the session favours neither.
      const order = Object.keys(builds)
      if (round % 2 === 1) order.reverse()
      for (const name of order) {
        log(`round ${round + 1}/${rounds}: ${name} ...`)
        results[name]!.push(await measureBuild(builds[name]!, options))
      }
      const page = await pageOf(builds.current!)
      for (const mode of ['gzip', 'static'] as const) {
        log(`round ${round + 1}/${rounds}: nginx (${mode}) ...`)
        nginx[mode].push(await nginxFigures(page, options, mode))
      }
    }
  } finally {
    reference?.cleanup()
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => {
      const pick = (f: (r: BuildFigures) => number) => median(runs.map(f))
      return [
        name,
        {
          get: { requestsPerSecond: pick((r) => r.get.requestsPerSecond), p99Ms: pick((r) => r.get.p99Ms) },
          post: { okPerSecond: pick((r) => r.post.okPerSecond) },
          coldStartMs: pick((r) => r.coldStartMs),
          restartMs: pick((r) => r.restartMs),
          rssIdleMiB: pick((r) => r.rssIdleMiB),
          anonIdleMiB: pick((r) => r.anonIdleMiB),
          rssAfterLoadMiB: pick((r) => r.rssAfterLoadMiB),
          rounds: runs,
        },
      ]
    }),
  )
  const nginxOf = (runs: GetFigures[]) => ({
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    rounds: runs,
  })
  const nginxSummary = { gzip: nginxOf(nginx.gzip), static: nginxOf(nginx.static) }
  if (asJson) return console.log(JSON.stringify({ builds: summary, nginx: nginxSummary }, null, 2))
  const ratio = (figures: { get: { requestsPerSecond: number } }, mode: 'gzip' | 'static') =>
    +(figures.get.requestsPerSecond / nginxSummary[mode].requestsPerSecond).toFixed(3)
  const table: Record<string, Record<string, number>> = Object.fromEntries(
    Object.entries(summary).map(([name, figures]) => [
      name,
      { ...row(figures), 'vs nginx gzip on': ratio(figures, 'gzip'), 'vs nginx gzip_static': ratio(figures, 'static') },
    ]),
  )
  table['nginx, gzip on (Debian default), 1 worker'] = { 'GET / req/s': nginxSummary.gzip.requestsPerSecond, 'GET / p99 ms': nginxSummary.gzip.p99Ms }
  table['nginx, gzip_static, 1 worker'] = { 'GET / req/s': nginxSummary.static.requestsPerSecond, 'GET / p99 ms': nginxSummary.static.p99Ms }
  console.table(table)
  console.log(`medians of ${rounds} round(s); GET / by wrk: 2 threads, 50 connections, gzip, ${options.warmup} s warm-up, 3 runs of ${options.seconds} s each`)
  for (const [name, runs] of Object.entries(results)) {
    console.log(
      `${name}: GET / req/s by round ${runs.map((r) => r.get.requestsPerSecond).join(', ')}; POST stored/s ${runs.map((r) => r.post.okPerSecond).join(', ')} (stored ${runs.map((r) => r.post.stored).join(', ')})`,
    )
  }
}

/** The page's HTML as the build at `main` sends it, for nginx to serve as a file. */
async function pageOf(main: string): Promise<string> {
  return withTempDir('domain-lander-page-', async (tmp) => {
    const server = await startBuiltServer({ main, host: HOST, env: { DATA_DIR: tmp, CONTACT_SECRET: SECRET, ADMIN_PORT: 'off', LOG_LEVEL: 'warn' } })
    try {
      return await (await fetch(`${server.url}/`, { headers: { host: HOST } })).text()
    } finally {
      await server.stop()
    }
  })
}
