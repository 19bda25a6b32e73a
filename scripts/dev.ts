// `npm run dev`: the server from the sources, with Vite's dev server in it (as in Vite's SSR template): the page's
// modules are served from src/client with HMR and React refresh, and the page is rendered from the sources for
// every request (src/server/vite-dev.ts), so an edit to a component shows without a build.
//
// A change to the server restarts this whole process: package.json runs it under `node --watch-path=src/server
// --watch-path=src/shared`. A fresh process starts exactly as `npm start` does (configuration, DATA_DIR lock, store,
// shutdown); re-importing modules in a running process would leave their timers, watchers and signal handlers
// behind. The browser's HMR client reconnects and reloads the page once the new server is up.
import path from 'node:path'
import { requireNode24 } from './node-version.mjs'

requireNode24('npm run dev')
const [{ createServer }, { root }, { freePort }] = await Promise.all([import('vite'), import('./build-lib.ts'), import('./server-lib.ts')])
// Vite serves the project's files to whoever can reach it: by default only to this machine.
process.env.HOST ||= '127.0.0.1'
// Development, whatever the shell says: with NODE_ENV=production React's plugin leaves out fast refresh.
process.env.NODE_ENV = 'development'
process.umask(0o077)

const vite = await createServer({
  configFile: path.join(root, 'vite.config.ts'),
  appType: 'custom',
  // vite.config.ts names the build's inputs from the project root; the dev server looks for them from its root.
  optimizeDeps: { entries: ['index.html', 'entry-client.tsx'] },
  // The HMR WebSocket gets a port of its own, free at each start, so that several dev servers (and tests) can run.
  server: { middlewareMode: true, hmr: { port: await freePort() } },
})
const { exitOnStartupError, serve } = (await vite.ssrLoadModule(path.join(root, 'src/server/serve.ts'))) as typeof import('../src/server/serve.ts')
await serve({ clientDir: path.join(root, 'src/client'), dev: { vite } }).catch(exitOnStartupError)
