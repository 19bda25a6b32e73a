// `npm exec -- node scripts/bench/console-flood.ts [--connections 3000] [--body-kib 255] [--hold-seconds 10]
// [--parallel 200]`: the built production server (its Node flags, a fresh DATA_DIR, loopback only) under the
// unauthenticated sign-in flood of issue 12/19 (break 6); prints the server's resident memory before, at its peak
// and after, the answers the connections got, and whether the console answered an ordinary request during and after
// the flood. The figure in docs/reliability.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { build } from '../build-lib.ts'
import { freePort, startServer } from '../server-lib.ts'
import { consoleAnswers, floodSignIn, residentMiB } from './console-flood-lib.ts'

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '3000' },
    'body-kib': { type: 'string', default: '255' },
    'hold-seconds': { type: 'string', default: '10' },
    // How many connect at once: more than the console's cap of connections (256) shows the cap at work.
    parallel: { type: 'string', default: '200' },
  },
})
// Bounded: this is a test of one's own server on loopback, not a load generator.
const connections = Math.min(5000, Number(values.connections))
const bodyBytes = Math.min(1024, Number(values['body-kib'])) * 1024
const holdMs = Math.min(60, Number(values['hold-seconds'])) * 1000
const parallel = Math.min(connections, Number(values.parallel))

await build()
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-flood-'))
const [port, adminPort] = [await freePort(), await freePort()]
const server = await startServer(port, { DATA_DIR: dataDir, ADMIN_PORT: String(adminPort) })
try {
  const pid = server.child.pid!
  // Warm: the sign-in page once, as after any start.
  await consoleAnswers(adminPort)
  const before = residentMiB(pid).rss
  let during: number | string | undefined
  const flood = await floodSignIn({
    port: adminPort,
    connections,
    bodyBytes,
    holdMs,
    parallel,
    onHeld: async () => {
      during = await consoleAnswers(adminPort)
    },
  })
  const atEnd = residentMiB(pid)
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const after = residentMiB(pid).rss
  console.log(
    JSON.stringify(
      {
        connections,
        parallel,
        bodyKiB: bodyBytes / 1024,
        attackerWroteMiB: Math.round(flood.writtenMiB),
        outcomes: flood.counts,
        rssMiB: { before: Math.round(before), peak: Math.round(atEnd.peak), atEnd: Math.round(atEnd.rss), after3s: Math.round(after) },
        consoleAnswered: { during, after: await consoleAnswers(adminPort) },
      },
      null,
      2,
    ),
  )
} finally {
  await server.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
