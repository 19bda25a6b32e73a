// `npm start`: build if the build is missing or stale, then run the production server. This process becomes the
// server (execve: same PID, signals reach it directly), started with the server's Node flags and environment.
//
// SIGHUP means "reload" to the server it becomes (systemd's `reload`, a terminal's hangup), so it must not end this
// process either: the handler comes before any import, which is why every import below is dynamic (static ones
// would load first, and loading the build's tools alone takes tens of milliseconds). Node's own start-up before this
// line, and again after execve before the server's first line, cannot catch a signal (docs/operations.md).
process.on('SIGHUP', () => {})

const { requireNode24 } = await import('./node-version.mjs')
// Before anything that needs Node 24 is loaded (the build, the bundle), and `node scripts/start.mjs` names the Node
// found first on PATH, which may be the system's.
requireNode24('npm start')
const [{ pathToFileURL }, { build }, { SERVER_ENV, SERVER_MAIN, SERVER_NODE_FLAGS }] = await Promise.all([
  import('node:url'),
  import('./build-lib.ts'),
  import('./server-lib.ts'),
])

await build()
if (process.execve) {
  process.execve(process.execPath, [process.execPath, ...SERVER_NODE_FLAGS, SERVER_MAIN], { ...process.env, ...SERVER_ENV })
} else {
  // No execve (Windows): the server runs in this process, without its memory flags.
  await import(pathToFileURL(SERVER_MAIN).href)
}
