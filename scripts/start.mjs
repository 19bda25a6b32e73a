// `npm start`: build if the build is missing or stale, then run the production server in this process.
import { build } from './build-lib.mjs'

await build()
await import('../dist/server/main.js')
