// Holds the domains file in force, and reloads it when it changes or on SIGHUP. Every load runs in a process of its
// own (domains-loader.ts) with a memory limit: requests never wait for a load, a file that needs too much memory
// fails its load instead of ending the server, and what the load used is given back when it ends. Reloads run one
// at a time; one asked for meanwhile runs once after it (bursts of file events and SIGHUP storms fold into it), so
// the last version written wins. A reload that fails is logged and the previous version stays in force; at
// start-up a broken file stops the server.
import { fork } from 'node:child_process'
import fs from 'node:fs'
import module from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyBaseLogger } from 'fastify'
import { visible } from '../lib/escape.ts'
import { DomainsFileError, domainsConfigOf } from './domains-document.ts'
import { openDomainsTable, type DomainsConfig, type DomainsTableData } from './domains-table.ts'

export interface DomainRegistry {
  /** The domains file in force; without DOMAINS_FILE, the defaults (every host gets the page). */
  current(): DomainsConfig
  /** Whether a DOMAINS_FILE is configured. */
  readonly fromFile: boolean
  /** Reloads the file (after the reload in progress, if any); resolves when no reload is left to run. */
  reload(): Promise<void>
  close(): void
}

export interface RegistryOptions {
  /** Why a file that the schema accepts cannot be used with this server's settings, or null. */
  check?: (config: DomainsConfig) => string | null
  /** The most a load may use for its heap (DOMAINS_FILE_MEMORY_MIB). */
  memoryMiB: number
  /** The first load, if serve.ts started it already (startDomainsLoad). */
  firstLoad?: DomainsLoad
}

// Built, the loader is an entry of its own beside main.js (vite.config.ts) and this code a chunk in assets/; from
// the sources (tests, `npm run dev`) Node runs the TypeScript file itself.
const LOADER = fileURLToPath(
  import.meta.url.endsWith('.ts') ? new URL('./domains-loader.ts', import.meta.url) : new URL('../domains-loader.js', import.meta.url),
)

/** How long the file's events must pause before it is reloaded: a write and a rename come within milliseconds. */
const SETTLE_MS = 50
/** A load that takes longer than this is stopped and counts as failed (it would hold up every later reload). */
const LOAD_TIMEOUT_MS = 60_000
/** What a load's process said on stderr, kept to explain a crash (V8 says "heap out of memory" there). */
const STDERR_KEPT = 4096

/** The table's buffer comes as a file (see below); the rest as the message. */
type LoaderAnswer = { ok: true; data: Omit<DomainsTableData, 'buffer'> } | { ok: false; message: string }

/** The bytes as an ArrayBuffer of their own (readFile gives a buffer of exactly the file's size, so no copy). */
const ownBuffer = (bytes: Buffer): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer

export interface DomainsLoad {
  table: Promise<DomainsTableData>
  stop(): void
}

/**
 * `background`: a reload, whose process yields the CPU to the requests (at start-up nothing waits on it). The table
 * comes back as a file in a private directory, read in one piece off the main thread: over the IPC channel it would
 * arrive in 64 KiB chunks, be joined and then copied again, and those pieces would stay in the allocator's arenas.
 */
function loadInProcess(file: string, memoryMiB: number, background: boolean): DomainsLoad {
  const cacheDir = module.getCompileCacheDir()
  // Parsing allocates much that dies young: a young generation larger than the server's, from the start rather than
  // grown into, means fewer collections (decision 026).
  const semiSpaceMiB = Math.max(1, Math.min(16, Math.floor(memoryMiB / 16)))
  let dir: string
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-load-'))
  } catch (error) {
    const cause = `cannot make a directory for loading it in ${os.tmpdir()} (TMPDIR): ${(error as Error).message}`
    const table = Promise.reject(new DomainsFileError(`${file}: ${cause}`))
    table.catch(() => {})
    return { table, stop: () => {} }
  }
  const tableFile = path.join(dir, 'table')
  const child = fork(LOADER, [file, tableFile], {
    execArgv: [`--max-old-space-size=${memoryMiB}`, `--min-semi-space-size=${semiSpaceMiB}`, `--max-semi-space-size=${semiSpaceMiB}`],
    env: { ...process.env, ...(cacheDir && { NODE_COMPILE_CACHE: cacheDir }) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  })
  if (background && child.pid !== undefined) {
    try {
      os.setPriority(child.pid, 10)
    } catch {
      // It may have ended already (a file refused at once): there is nothing left to lower.
    }
  }
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, LOAD_TIMEOUT_MS)
  let answered = false
  const table = new Promise<DomainsTableData>((resolve, reject) => {
    child.once('message', (answer: LoaderAnswer) => {
      answered = true
      if (!answer.ok) return reject(new DomainsFileError(answer.message))
      fs.promises.readFile(tableFile).then((bytes) => resolve({ ...answer.data, buffer: ownBuffer(bytes) }), reject)
    })
    child.once('error', reject)
    // Without an answer, the load was stopped or died.
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (answered) return
      if (/heap out of memory/.test(stderr)) {
        reject(new DomainsFileError(`${file}: loading it needs more than the ${memoryMiB} MiB of memory it may use (DOMAINS_FILE_MEMORY_MIB)`))
      } else if (timedOut) reject(new DomainsFileError(`${file}: loading it took longer than ${LOAD_TIMEOUT_MS / 1000} s and was stopped`))
      else {
        // What the process said is shown as text: it may quote the file.
        const said = stderr.trim() && `: ${visible(stderr.trim(), { keepLineBreaks: true })}`
        reject(new DomainsFileError(`${file}: its loading process ended (${signal ?? `exit code ${code}`}) before it had read the file${said}`))
      }
    })
  })
  // Awaited by the registry; a start-up that failed before that must not add an unhandled rejection.
  table.catch(() => {}).finally(() => fs.rm(dir, { recursive: true, force: true }, () => {}))
  return { table, stop: () => void child.kill('SIGKILL') }
}

/** The first load, started as early as the configuration is known, so that it runs while the server's code loads. */
export const startDomainsLoad = (file: string, memoryMiB: number): DomainsLoad => loadInProcess(file, memoryMiB, false)

export async function openDomainRegistry(file: string | undefined, log: FastifyBaseLogger, options: RegistryOptions): Promise<DomainRegistry> {
  if (!file) {
    const defaults = domainsConfigOf({})
    // SIGHUP means "reload" to this server (systemd's ExecReload sends it); without a file there is nothing to do.
    const onHangup = () => log.info('SIGHUP: no DOMAINS_FILE to reload')
    process.on('SIGHUP', onHangup)
    return { current: () => defaults, fromFile: false, reload: async () => {}, close: () => void process.off('SIGHUP', onHangup) }
  }
  let current: DomainsConfig | undefined
  let load: DomainsLoad | undefined = options.firstLoad
  let closed = false
  const read = async () => {
    load = current === undefined ? (options.firstLoad ?? loadInProcess(file, options.memoryMiB, false)) : loadInProcess(file, options.memoryMiB, true)
    const config = openDomainsTable(await load.table)
    const problem = options.check?.(config)
    if (problem) throw new DomainsFileError(`${file} cannot be used: ${problem}`)
    return config
  }

  const reloadOnce = async () => {
    const started = performance.now()
    try {
      const next = await read()
      if (closed) return
      current = next
      log.info({ file, domains: next.size, ms: Math.round(performance.now() - started) }, 'domains file reloaded')
    } catch (error) {
      if (!closed) log.error({ err: error }, 'domains file not reloaded; the previous version stays in force')
    }
  }
  let running: Promise<void> | undefined
  let again = false
  const reload = () => {
    if (closed) return Promise.resolve()
    // Asked for while the first load runs (or any other): once more after it.
    if (running || !current) {
      again = true
      return running ?? Promise.resolve()
    }
    running = (async () => {
      do {
        again = false
        await reloadOnce()
      } while (again && !closed)
      running = undefined
    })()
    return running
  }

  // Editors replace files rather than rewrite them, so watch the directory, and settle bursts of events. Watching
  // and SIGHUP start before the first load is awaited, so that a change made while it runs is not missed.
  let timer: NodeJS.Timeout | undefined
  const cannotWatch = (error: unknown) => log.warn({ err: error }, 'cannot watch the domains file; send SIGHUP to reload')
  let watcher: fs.FSWatcher | undefined
  let watchError: unknown
  try {
    watcher = fs.watch(path.dirname(file), (_event, name) => {
      if (name && name !== path.basename(file)) return
      clearTimeout(timer)
      timer = setTimeout(() => void reload(), SETTLE_MS)
    })
    watcher.on('error', cannotWatch)
  } catch (error) {
    // Said once the file could be read: a missing directory is better told by the read.
    watchError = error
  }
  const onHangup = () => void reload()
  process.on('SIGHUP', onHangup)
  const close = () => {
    closed = true
    clearTimeout(timer)
    watcher?.close()
    process.off('SIGHUP', onHangup)
    load?.stop()
  }
  try {
    current = await read()
  } catch (error) {
    close()
    throw error
  }
  if (watchError) cannotWatch(watchError)
  if (again) void reload()
  return { current: () => current!, fromFile: true, reload, close }
}
