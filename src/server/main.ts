// Starts the server: parse the configuration, build the app, listen, and shut down cleanly on SIGTERM/SIGINT.
import { fileURLToPath } from 'node:url'
import cluster from 'node:cluster'
import module from 'node:module'

// SIGHUP means "reload the domains file" here (systemd's ExecReload sends it); the domains registry, or the
// cluster primary, answers it once it exists. Until then, and after it is gone, a hangup must not end the process
// (the default action, exit 129, which Restart=on-failure does not restart). Nothing is lost by ignoring one that
// early: the domains file is read at start.
process.on('SIGHUP', () => {})

// Every file the server creates (database, WAL, mail, secret) is for its own user only, also when DATA_DIR
// already exists with mode 0755. Cluster workers inherit it.
process.umask(0o077)

// Node keeps the compiled code of the server's modules on disk, so that the next start skips compiling most of it
// (docs/decisions/011). NODE_COMPILE_CACHE names another directory (the Docker image and the systemd unit do);
// NODE_DISABLE_COMPILE_CACHE=1 switches it off. Everything else is imported below, after this, to be covered too.
if (!process.env.NODE_COMPILE_CACHE) {
  module.enableCompileCache(fileURLToPath(new URL('../../node_modules/.cache/domain-lander/', import.meta.url)))
}

async function main() {
  const { ConfigError, loadConfig } = await import('./config.ts')
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  if (cluster.isPrimary) {
    const { lockDataDir, prepareDataDir } = await import('./data-dir.ts')
    const { warning } = prepareDataDir(config.dataDir)
    if (warning && ['trace', 'debug', 'info', 'warn'].includes(config.logLevel)) {
      console.log(JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, dataDir: config.dataDir, msg: warning }))
    }
    // PostgreSQL instances share their store by design; DATA_DIR then holds only .eml files (docs/decisions/009).
    if (!config.databaseUrl) lockDataDir(config.dataDir)
  }
  // The primary of a cluster serves nothing: it loads only the cluster code, not the app (whose memory it would
  // otherwise carry for nothing).
  if (config.workers > 1 && cluster.isPrimary) return (await import('./cluster.ts')).runPrimary(config)
  const [{ buildApp, shutdown, SHUTDOWN_GRACE_MS }, { leaseOwnerOf }, { describeStore }, { default: closeWithGrace }] = await Promise.all([
    import('./app.ts'),
    import('./cluster-lease.ts'),
    import('./store/index.ts'),
    import('close-with-grace'),
  ])
  // dist/server/main.js -> dist/client
  const clientDir = process.env.CLIENT_DIR ?? fileURLToPath(new URL('../client/', import.meta.url))
  const app = await buildApp(config, { clientDir, ...(cluster.isWorker && { clusterWorker: { leaseOwner: leaseOwnerOf(process.pid) } }) })

  // SIGHUP is not a shutdown here: it reloads the domains file. A cluster worker leaves SIGINT (Ctrl-C reaches the
  // whole process group) to its primary, which stops the workers with SIGTERM, one signal each.
  if (cluster.isWorker) process.on('SIGINT', () => {})
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, skip: cluster.isWorker ? ['SIGHUP', 'SIGINT'] : ['SIGHUP'] }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing because of an error')
    else app.log.info({ signal }, 'shutting down: finishing requests and the mail in flight')
    await shutdown(app)
  })

  await app.listen({ port: config.port, host: config.host })
  // Written now rather than at exit, so that a server that is killed still leaves the cache for the next start.
  module.flushCompileCache()
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const shownHost = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host
  app.log.info(
    { url: `http://${shownHost}:${port}/`, dataDir: config.dataDir, store: describeStore(config), mail: app.mailTransport.description, mailTo: config.smtpUrl ? 'configured' : config.mailTo },
    `domain-lander is ready: open http://${shownHost}:${port}/ (mail goes to ${app.mailTransport.description})`,
  )
  if (!config.smtpUrl) {
    app.log.warn(`SMTP_URL is not set: every inquiry is written as an .eml file to ${config.dataDir}/mail instead of being mailed`)
  }
}

main().catch((error) => {
  // A DATA_DIR the owner must fix is one line naming it, not a stack trace.
  console.error(error?.name === 'DataDirError' ? `domain-lander: ${error.message}` : error)
  process.exit(1)
})
