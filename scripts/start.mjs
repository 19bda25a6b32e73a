// `npm start`: build if the build is missing or stale, then run the production server. This process becomes the
// server (execve: same PID, signals reach it directly), started with the server's Node flags and environment.
import { pathToFileURL } from 'node:url'
import { build } from './build-lib.mjs'
import { SERVER_ENV, SERVER_MAIN, SERVER_NODE_FLAGS } from './server-lib.mjs'

await build()
if (process.execve) {
  process.execve(process.execPath, [process.execPath, ...SERVER_NODE_FLAGS, SERVER_MAIN], { ...process.env, ...SERVER_ENV })
} else {
  // No execve (Windows): the server runs in this process, without its memory flags.
  await import(pathToFileURL(SERVER_MAIN).href)
}
