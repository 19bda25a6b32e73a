// The production server's entry (dist/server/main.js): what must happen to the process before anything else is
// loaded, then serve.ts. `npm run dev` (scripts/dev.ts) calls serve.ts through Vite instead.
import { fileURLToPath } from 'node:url'
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

// dist/server/main.js -> dist/client
const clientDir = process.env.CLIENT_DIR ?? fileURLToPath(new URL('../client/', import.meta.url))
// Not awaited at the top level: a top-level await anywhere in the build turns off the bundler's chunk optimisation
// (common chunks merged, no chunk loaded twice over), which keeps the modules a start loads few (decision 063).
void import('./serve.ts').then(({ exitOnStartupError, serve }) => serve({ clientDir }).catch(exitOnStartupError))
