// Nothing a visitor sends makes the server keep more and more: a spray of distinct Host headers and paths leaves
// its memory and the page-view rows bounded (host cache, render cache, page views waiting for the store, rate-limit
// counters, which live in the store).
import fs from 'node:fs'
import net from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { MAX_NAMES_PER_DAY, OTHER_NAMES } from '../../src/server/visits/counter.ts'
import { queryStore } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

let server: ServerProcess | undefined
afterEach(async () => {
  await server?.kill()
  server?.cleanup()
  server = undefined
})

// As in the systemd unit (deploy/): the heap a production server has.
const HEAP_MIB = 128
/** More than the page-view names of a day and the rendered pages kept. */
const PAGES = 12_000
const residentMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/**
 * Sends `count` requests built by `request(i)` over `connections` keep-alive connections, pipelined `depth` deep,
 * and resolves with how many answers had each status. Pipelining keeps 200,000 requests within seconds.
 */
async function spray(port: number, count: number, request: (i: number) => string, connections = 4, depth = 32): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {}
  let next = 0
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      let inFlight = 0
      let buffered: Buffer = Buffer.alloc(0)
      const send = () => {
        let batch = ''
        while (inFlight < depth && next < count) {
          batch += request(next++)
          inFlight++
        }
        if (batch) socket.write(batch, 'latin1')
        else if (inFlight === 0) socket.end(resolve)
      }
      socket.on('data', (chunk: Buffer) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk
        // Answers one after another: a head, then Content-Length bytes of body.
        for (;;) {
          const headEnd = buffered.indexOf('\r\n\r\n')
          if (headEnd < 0) break
          const head = buffered.toString('latin1', 0, headEnd)
          const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0)
          if (buffered.length < headEnd + 4 + length) break
          const status = Number(head.slice(9, 12))
          statuses[status] = (statuses[status] ?? 0) + 1
          buffered = buffered.subarray(headEnd + 4 + length)
          inFlight--
        }
        if (inFlight <= depth / 2) send()
      })
      socket.on('error', reject)
      socket.on('close', () => inFlight > 0 && reject(new Error(`connection closed with ${inFlight} requests unanswered`)))
      socket.on('connect', send)
    })
  await Promise.all(Array.from({ length: connections }, one))
  return statuses
}

test('200,000 distinct host names leave the heap bounded and make at most 10,001 rows of counts a day', async () => {
  // A small heap: anything that kept a little for each distinct value would run out of it before the end.
  server = await startServerProcess({ NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` })
  const { port, dataDir } = server
  const pid = server.child.pid!
  // Two lines of request log per request: not needed here, and 400,000 of them would fill this process instead.
  const forget = setInterval(() => server?.output.splice(0), 200)
  try {
    const before = residentMiB(pid)
    // Pages for new Host headers (host cache, render cache, page views), then new names for the TLS check (host
    // cache), the cheapest way for a visitor to have a name parsed.
    const pages = await spray(port, PAGES, (i) => `GET / HTTP/1.1\r\nHost: p${i}.example.de\r\n\r\n`)
    const names = await spray(port, 200_000 - PAGES, (i) => `GET /tls-check?domain=t${i}.example.de HTTP/1.1\r\nHost: example.de\r\n\r\n`)
    expect({ pages, names }).toEqual({ pages: { 200: PAGES }, names: { 404: 200_000 - PAGES } })
    console.log(
      `memory: ${before.toFixed(0)} MiB resident before, ${residentMiB(pid).toFixed(0)} MiB after 200,000 distinct host names (heap limit ${HEAP_MIB} MiB)`,
    )
  } finally {
    clearInterval(forget)
  }
  // Stopping writes what is still counted in memory; a heap that had run out would have ended the process.
  expect(await server.stop()).toBe(0)
  // Requests without a browser's headers are no visits: each name has one row of what was filtered.
  const [count] = await queryStore<{ rows: number }>(dataDir, "SELECT COUNT(*) AS rows FROM visit_counts WHERE metric = 'filtered'")
  expect(Number(count!.rows)).toBe(MAX_NAMES_PER_DAY + 1)
  const [other] = await queryStore<{ count: number }>(dataDir, "SELECT count FROM visit_counts WHERE domain = ? AND metric = 'filtered'", [OTHER_NAMES])
  expect(Number(other!.count)).toBe(PAGES - MAX_NAMES_PER_DAY)
}, 400_000)
