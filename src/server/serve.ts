// Starts the server: parse the configuration, build the app, listen, and shut down cleanly on SIGTERM/SIGINT.
// main.ts runs it for `npm start`; scripts/dev.ts runs it with Vite's dev server for `npm run dev`.
import cluster from 'node:cluster'
import module from 'node:module'
import { firstAnswer } from './http/first-answer.ts'
import type { ViteDev } from './vite-dev.ts'

export interface ServeOptions {
  /** The built client (index.html and assets). */
  clientDir: string
  /** `npm run dev`: the client comes from the sources through Vite; one process, whatever WORKERS says. */
  dev?: ViteDev
}

export async function serve(options: ServeOptions): Promise<void> {
  const { loadConfig } = await import('./config.ts')
  const config = loadConfig()
  if (cluster.isPrimary) {
    const [{ prepareDataDir }, { claimStore }] = await Promise.all([import('./data-dir.ts'), import('./store/index.ts')])
    const { warning } = prepareDataDir(config.dataDir)
    if (warning) (await (await import('./logger.ts')).createLogger(config)).warn({ dataDir: config.dataDir }, warning)
    claimStore(config)
  }
  // The primary of a cluster serves nothing: it loads only the cluster code, not the app (whose memory it would
  // otherwise carry for nothing).
  if (config.workers > 1 && cluster.isPrimary && !options.dev) return (await import('./cluster/primary.ts')).runPrimary(config)
  // The domains file loads in a process of its own (docs/decisions/026); started now, it runs on the other core while
  // the app's modules load and the store opens.
  const domainsLoad = config.domainsFile && (await import('./sites/registry.ts')).startDomainsLoad(config.domainsFile, config.domainsFileMemoryMiB)
  const [{ buildApp, shutdown, SHUTDOWN_GRACE_MS }, { describeMailTransport }, { describeStore }, { default: closeWithGrace }] = await Promise.all([
    import('./app.ts'),
    import('./mail/transport.ts'),
    import('./store/index.ts'),
    import('close-with-grace'),
  ])
  const app = await buildApp(config, {
    clientDir: options.clientDir,
    ...(options.dev && { dev: options.dev }),
    ...(domainsLoad && { domainsLoad }),
    clusterWorker: cluster.isWorker,
    deferConsole: true,
  })

  // SIGHUP is not a shutdown here: it reloads the domains file. A cluster worker leaves SIGINT (Ctrl-C reaches the
  // whole process group) to its primary, which stops the workers with SIGTERM, one signal each.
  if (cluster.isWorker) process.on('SIGINT', () => {})
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, skip: cluster.isWorker ? ['SIGHUP', 'SIGINT'] : ['SIGHUP'] }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing because of an error')
    else app.log.info({ signal }, 'shutting down: finishing requests and the mail in flight')
    // No load balancer waits on a dev server: a restart after an edit need not drain.
    await shutdown(app, options.dev ? 0 : config.drainMs)
  })

  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    throw explainListenError(error, PUBLIC_LISTENER)
  })
  // After the public port: a worker of a cluster shares this one as it shares that one. Built only after the first
  // answer, so that a request that waited for the start (a restart under load) does not also wait for the console's
  // code and routes (decision 053). A shutdown begun meanwhile builds no console.
  await firstAnswer(app.server, CONSOLE_AFTER_MS)
  if (app.draining) return
  const admin = await app.startConsole()
  await admin?.listen({ port: config.adminPort!, host: config.adminHost }).catch((error: unknown) => {
    throw explainListenError(error, ADMIN_LISTENER)
  })
  // Written now rather than at exit, so that a server that is killed still leaves the cache for the next start.
  module.flushCompileCache()
  const mail = describeMailTransport(config)
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${shownHost(config.host)}:${port}/`
  const consoleAddress = app.admin?.server.address()
  const consoleUrl = typeof consoleAddress === 'object' && consoleAddress ? `http://${shownHost(config.adminHost)}:${consoleAddress.port}/` : 'off'
  app.log.info(
    { url, console: consoleUrl, dataDir: config.dataDir, store: describeStore(config), mail, mailTo: config.smtpUrl ? 'configured' : config.mailTo },
    `domain-lander is ready: open ${url} (mail goes to ${mail}); ${consoleUrl === 'off' ? 'the console is off (ADMIN_PORT=off)' : `console: ${consoleUrl}`}`,
  )
  if (!config.smtpUrl) {
    app.log.warn(`SMTP_URL is not set: every inquiry is written as an .eml file to ${config.dataDir}/mail instead of being mailed`)
  }
}

/** How long after listening the console is built when no request has come. */
const CONSOLE_AFTER_MS = 100

/** Thrown at start-up for a cause the owner fixes (a setting, a file, a directory): their own messages say how. */
const OWNER_FIXES = new Set(['ConfigError', 'DataDirError', 'DomainsFileError', 'ListenError'])

/** PORT or HOST (ADMIN_PORT or ADMIN_HOST) that the server cannot listen on. */
class ListenError extends Error {
  override name = 'ListenError'
}

/** The variables that name a listener's port and address, and what the owner may set them to. */
interface Listener {
  port: string
  host: string
  example: number
  anyHost: string
}
const PUBLIC_LISTENER: Listener = { port: 'PORT', host: 'HOST', example: 3000, anyHost: ', or to 0.0.0.0 for all of them' }
const ADMIN_LISTENER: Listener = { port: 'ADMIN_PORT', host: 'ADMIN_HOST', example: 3001, anyHost: ' (127.0.0.1 keeps the console to this machine)' }

/** What the owner changes when listening failed, or the error itself when the cause is not a setting. */
function explainListenError(error: unknown, { port, host, example, anyHost }: Listener): unknown {
  const e = error as Partial<NodeJS.ErrnoException> & { address?: string; port?: number; hostname?: string }
  // Node's error names the port and address (or host name) the server was told to use.
  switch (e?.code) {
    case 'EADDRINUSE':
      return new ListenError(`${port} ${e.port} is already in use on ${e.address}: stop the program that listens there, or set ${port} to a free port`)
    case 'EACCES':
      return new ListenError(
        `${port} ${e.port}: permission denied: only root may listen on ports below 1024; set ${port} to 1024 or above (e.g. ${example}) and forward the low port to it`,
      )
    case 'EADDRNOTAVAIL':
      return new ListenError(`${host} ${e.address} is not an address of this machine: set ${host} to one of its addresses${anyHost}`)
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`${host} ${e.hostname} is not a known host name: set ${host} to an address of this machine${anyHost}`)
    default:
      return error
  }
}

/** A host as a browser takes it in a URL: "localhost" for every address, IPv6 in brackets. */
function shownHost(host: string): string {
  if (['0.0.0.0', '::'].includes(host)) return 'localhost'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * A start the owner can fix ends with its message alone (a configuration error's few lines); a stack trace is for
 * bugs. Exit code 1 either way. Names, not classes: the bundle renames classes but keeps each error's `name`.
 */
export function exitOnStartupError(error: unknown): never {
  const name = (error as Error | undefined)?.name ?? ''
  console.error(OWNER_FIXES.has(name) ? `domain-lander: ${(error as Error).message}` : error)
  process.exit(1)
}
