// What every bench shares: the command line, the built server started as `npm start` starts it, a local SMTP sink,
// load by autocannon and wrk, nginx serving a page as a file, memory from /proc, medians and percentiles, and the
// report (a table, or JSON with --json). Traffic goes to 127.0.0.1 only, and every load and child is bounded in time.
import { type ChildProcess, spawn, spawnSync, type SpawnOptions } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon, { type Options as AutocannonOptions } from 'autocannon'
import { SMTPServer } from 'smtp-server'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { freePort, SERVER_ENV, SERVER_MAIN, SERVER_NODE_FLAGS } from '../server-lib.ts'

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
/** The middle value (the upper one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
/** The q-quantile (0 < q <= 1) of samples sorted in ascending order. */
export const percentile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
export const ratio = (a: number, b: number): number => +(a / b).toFixed(2)

/** The bench's command line: `--json`, flags, `--name value` and `--name N` (N, or the fallback when absent or not a number > 0). */
export function argsOf(args: string[]) {
  const value = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
  return {
    asJson: args.includes('--json'),
    has: (name: string) => args.includes(name),
    value,
    number: (name: string, fallback: number): number => (args.includes(name) ? Number(value(name)) || fallback : fallback),
  }
}

/**
 * Progress lines, silent under --json (which prints only the results); the console's bench writes them to stderr.
 * `report` prints the results as JSON or through `print`.
 */
export function reporter(asJson: boolean, to: 'stdout' | 'stderr' = 'stdout') {
  return {
    log: (...line: unknown[]): void => {
      if (!asJson) (to === 'stdout' ? console.log : console.error)(...line)
    },
    report<T>(results: T, print: (results: T) => void): void {
      if (asJson) console.log(JSON.stringify(results, null, 2))
      else print(results)
    },
  }
}

export const hasCommand = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0

/** A temporary directory for `run`, removed afterwards whatever happens. */
export async function withTempDir<T>(prefix: string, run: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  try {
    return await run(dir)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** A child process with an `exited` promise made at spawn, so waiting for it cannot miss an exit that came early. */
type Child = ChildProcess & { exited: Promise<unknown> }

function startChild(command: string, argv: string[], options: SpawnOptions): Child {
  const child = spawn(command, argv, options) as Child
  child.exited = new Promise((resolve) => child.once('exit', resolve).once('error', resolve))
  return child
}

/** SIGTERM, and SIGKILL if the child has not exited 10 s later: a bench must end even when a child hangs. */
async function stopChild(child: Child): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await child.exited
  clearTimeout(timer)
}

/** GET with a Host header of our choosing (fetch() does not allow one): status and body; status 0 if not listening. */
export function get(port: number, host: string, target = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: target, headers: { host } }, (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      })
      .on('error', () => resolve({ status: 0, body: '' }))
  })
}

/** Polls every `pollMs` until `port` answers GET `target` for `host` with 200; gives up at the deadline or once `child` has exited. */
async function untilOk(
  port: number,
  { host, target = '/', deadline, child, pollMs }: { host: string; target?: string; deadline: number; child: ChildProcess; pollMs: number },
): Promise<void> {
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    if ((await get(port, host, target)).status === 200) return
    await sleep(pollMs)
  }
  throw new Error(`http://127.0.0.1:${port}${target} did not answer 200 (${child.exitCode === null ? 'in time' : `the process exited with ${child.exitCode}`})`)
}

export interface BuiltServer {
  child: Child
  port: number
  url: string
  /** From the spawn to the first 200. */
  startMs: number
  stop(): Promise<void>
}

/**
 * The production build (`main`, dist/server/main.js by default) on 127.0.0.1, started the way `npm start` and the
 * deployments start it (same Node flags and environment) with `env` on top; resolves once GET / for `host` answers
 * 200, polling every `pollMs` (the start time is measured to that answer).
 */
export async function startBuiltServer({
  env,
  host,
  main = SERVER_MAIN,
  port,
  stdout = 'ignore',
  timeoutMs = 20_000,
  pollMs = 10,
}: {
  env: Record<string, string>
  host: string
  main?: string
  port?: number
  /** 'pipe' reads what it logs (and throws it away) instead of handing it /dev/null. */
  stdout?: 'ignore' | 'pipe'
  timeoutMs?: number
  pollMs?: number
}): Promise<BuiltServer> {
  const serverPort = port ?? (await freePort())
  const started = performance.now()
  const child = startChild(process.execPath, [...SERVER_NODE_FLAGS, main], {
    // No daily checks: they would ask IANA and the names' registries (a bench reaches nothing past loopback), and
    // their runs would fall into the measurements.
    env: { ...process.env, ...SERVER_ENV, HOST: '127.0.0.1', PORT: String(serverPort), DOMAIN_CHECKS: 'off', ...env },
    stdio: ['ignore', stdout, 'inherit'],
  })
  child.stdout?.resume()
  try {
    await untilOk(serverPort, { host, deadline: Date.now() + timeoutMs, child, pollMs })
  } catch (error) {
    await stopChild(child)
    throw error
  }
  return { child, port: serverPort, url: `http://127.0.0.1:${serverPort}`, startMs: Math.round(performance.now() - started), stop: () => stopChild(child) }
}

/** An SMTP server on 127.0.0.1 that accepts every message and counts them. */
export async function startMailSink(): Promise<{ url: string; delivered(): number; close(): Promise<void> }> {
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
  await new Promise<void>((resolve, reject) => sink.once('error', reject).listen(0, '127.0.0.1', resolve))
  const { port } = sink.server.address() as net.AddressInfo
  return { url: `smtp://127.0.0.1:${port}`, delivered: () => mails, close: () => new Promise<void>((resolve) => sink.close(() => resolve())) }
}

export interface LoadFigures {
  requestsPerSecond: number
  /** Only 200s: a 4xx answered quickly would otherwise count as throughput. */
  okPerSecond: number
  p50Ms: number
  p99Ms: number
  ok: number
  notOk: number
  statusCodes: Record<string, number>
  errors: number
  timeouts: number
}

/**
 * One autocannon run. `microseconds` keeps every 2xx answer's time as autocannon measures it (process.hrtime) and adds
 * p50Us and p99Us: autocannon's own percentiles come from a histogram of whole milliseconds, too coarse where the
 * idle p99 is 1 ms.
 */
export async function load(options: AutocannonOptions): Promise<LoadFigures>
export async function load(options: AutocannonOptions, fine: { microseconds: true }): Promise<LoadFigures & { p50Us: number; p99Us: number }>
export async function load(options: AutocannonOptions, fine?: { microseconds: true }): Promise<LoadFigures & { p50Us?: number; p99Us?: number }> {
  const times: number[] = []
  const run = autocannon(options)
  if (fine) run.on('response', (_client, statusCode, _bytes, ms) => statusCode >= 200 && statusCode < 300 && times.push(ms))
  const result = await run
  const sorted = times.sort((a, b) => a - b)
  const us = (q: number) => (sorted.length === 0 ? Number.NaN : Math.round(percentile(sorted, q) * 1000))
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]))
  const ok = statusCodes['200'] ?? 0
  return {
    requestsPerSecond: Math.round(result.requests.average),
    okPerSecond: Math.round(ok / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok,
    notOk: result.requests.total - ok + result.errors + result.timeouts,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(fine && { p50Us: us(0.5), p99Us: us(0.99) }),
  }
}

export interface WrkFigures {
  requestsPerSecond: number
  p99Ms: number
  non2xx: number
  socketErrors: string
}

/** wrk's summary of one run (2 threads, 50 connections, gzip): requests per second, p99 in ms, non-2xx answers and socket errors. */
function wrk(url: string, seconds: number, host: string): WrkFigures {
  const run = spawnSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '--latency', '-H', `Host: ${host}`, '-H', 'Accept-Encoding: gzip', url], {
    encoding: 'utf8',
    timeout: (seconds + 30) * 1000,
  })
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.error}`)
  const out = run.stdout
  const match = (pattern: RegExp): string => {
    const found = pattern.exec(out)?.[1]
    if (found === undefined) throw new Error(`wrk's output has no ${pattern}:\n${out}`)
    return found
  }
  const ms = (text: string) => {
    const [, value, unit] = /([\d.]+)(us|ms|s)\b/.exec(text) ?? []
    return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit as 'us' | 'ms' | 's'] ?? Number.NaN)
  }
  return {
    requestsPerSecond: Math.round(Number(match(/Requests\/sec:\s+([\d.]+)/))),
    p99Ms: +ms(match(/^\s+99%\s+(\S+)/m)).toFixed(2),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? 'none',
  }
}

/** GET `url` by wrk: a warm-up of `warmup` s, then 3 runs of `seconds`, medians. */
export function wrkMedians(url: string, { seconds, warmup, host }: { seconds: number; warmup: number; host: string }) {
  wrk(url, warmup, host)
  const runs = [1, 2, 3].map(() => wrk(url, seconds, host))
  return { requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)), p99Ms: median(runs.map((r) => r.p99Ms)), runs }
}

/**
 * nginx serving `html` as a file, one worker, for as long as `measure` runs. `plain`: no compression; `gzip`: `gzip
 * on` as Debian's nginx.conf ships it (the page compressed per request at level 1); `static`: the same gzip bytes
 * our server sends, compressed once beside the file (`gzip_static`), which is what nginx at its fastest does.
 */
export async function withNginx<T>(html: string, mode: 'plain' | 'gzip' | 'static', measure: (url: string) => Promise<T>): Promise<T> {
  const port = await freePort()
  return withTempDir('domain-lander-nginx-', async (dir) => {
    // nginx's worker drops root rights; mkdtemp's directories are private, so open this one up.
    fs.chmodSync(dir, 0o755)
    fs.mkdirSync(path.join(dir, 'www'), { mode: 0o755 })
    fs.writeFileSync(path.join(dir, 'www/index.html'), html)
    if (mode === 'static') fs.writeFileSync(path.join(dir, 'www/index.html.gz'), zlib.gzipSync(html, { level: 9 }))
    const gzip = { plain: '', gzip: ' gzip on;', static: ' gzip_static on;' }[mode]
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi; default_type text/html;${gzip}
  server { listen 127.0.0.1:${port}; root ${dir}/www; location / { try_files /index.html =404; } } }`,
    )
    const nginx = startChild('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
    try {
      await untilOk(port, { host: 'localhost', deadline: Date.now() + 5000, child: nginx, pollMs: 10 })
      return await measure(`http://127.0.0.1:${port}/`)
    } finally {
      await stopChild(nginx)
    }
  })
}

/**
 * A VmRSS (resident now), VmHWM (resident at most) or RssAnon (resident and the process's own, not pages of files
 * such as the node binary: decision 052) line of /proc/PID/status, in MiB; null once the process is gone.
 */
export function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon'): number | null {
  try {
    // A process that has exited but not been reaped yet has a status file without memory lines.
    const kib = new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? null : Number(kib) / 1024
  } catch {
    return null
  }
}

/** The child processes of `pid` (the workers of a cluster, the console's import process). */
export const childrenOf = (pid: number): number[] =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)

/** RSS (or its anonymous part) of a process and all its children, in MiB. */
export function rssMiB(pid: number, field: 'VmRSS' | 'RssAnon' = 'VmRSS'): number {
  return (memoryMiB(pid, field) ?? Number.NaN) + childrenOf(pid).reduce((sum, child) => sum + rssMiB(child, field), 0)
}

/** RSS of the process alone, in MiB to one decimal. */
export const ownRssMiB = (pid: number): number => +(memoryMiB(pid, 'VmRSS') ?? Number.NaN).toFixed(1)

/** The owner's password set as an owner sets it, with the CLI (`set-password --stdin`), before the server starts. */
export function setOwnerPassword(root: string, env: Record<string, string>, password: string): void {
  const result = spawnSync(process.execPath, [path.join(root, 'bin/domain-lander.mjs'), 'set-password', '--stdin'], {
    input: `${password}\n`,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`set-password failed: ${(result.stderr || result.stdout).trim().split('\n')[0]}`)
}

/** Signs in to the console at `adminUrl`; returns the Cookie header for its API. */
export async function signIn(adminUrl: string, password: string): Promise<string> {
  const response = await fetch(`${adminUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONSOLE_HEADER]: '1', origin: adminUrl },
    body: JSON.stringify({ password }),
  })
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!response.ok || !cookie) throw new Error(`POST /api/session answered ${response.status} ${cookie ? '' : 'without a cookie'}`)
  return cookie
}

/** GET / at a fixed rate that leaves the server room (its p99 is what a flood must not spoil). */
export const PAGE_LOAD = { connections: 10, overallRate: 1000 }

/** The production server with DOMAINS_FILE=file and no console, as `npm start` runs it; ready once example.de answers 200. */
export async function startWithDomainsFile(file: string, dataDir: string, env: Record<string, string> = {}) {
  const server = await startBuiltServer({
    host: 'example.de',
    timeoutMs: 60_000,
    pollMs: 5,
    env: { ADMIN_PORT: 'off', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DOMAINS_FILE: file, ...env },
  }).catch((error: unknown) => {
    throw new Error(`the server with ${file} did not start`, { cause: error })
  })
  return { port: server.port, startMs: server.startMs, pid: server.child.pid!, stop: server.stop }
}

/** autocannon against GET `/` of 127.0.0.1:port (50 connections unless `options` say otherwise): req/s, p50, p99 and answers other than 200. */
export async function loadPort(port: number, duration: number, options: Partial<AutocannonOptions>) {
  const { requestsPerSecond, p50Ms, p99Ms, notOk } = await load({ url: `http://127.0.0.1:${port}/`, connections: 50, duration, ...options })
  return { requestsPerSecond, p50Ms, p99Ms, notOk }
}
