// `npm run bench -- --og-spray`: one client asks for /og.png under a new Host header with every request (the domains
// file's `unknownHosts: page` gives every name a page and an image), 16 connections as fast as the server answers,
// while GET / runs at a fixed rate: GET / p99 alone and during the spray, and the server's RSS (idle, peak, after);
// with IMAGE_RATE_LIMIT as by default and with IMAGE_RATE_LIMIT=0. --duration N seconds per load (default 10), --json
// for JSON. Traffic goes to 127.0.0.1 only, and every load ends after its duration.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon, { type Request } from 'autocannon'
import { build } from '../build-lib.ts'
import { argsOf, loadPort as load, memoryMiB, ownRssMiB as rssMiB, PAGE_LOAD, reporter, sleep, startWithDomainsFile as startWith } from './harness.ts'

const SPRAY_CONNECTIONS = 16
const peakRssMiB = (pid: number) => +(memoryMiB(pid, 'VmHWM') ?? Number.NaN).toFixed(1)
type LoadResult = Awaited<ReturnType<typeof load>>

export async function benchOgSpray(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const { log, report } = reporter(args.asJson)
  const duration = args.number('--duration', 10)
  await build()
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-og-'))
  const results: Record<
    string,
    {
      idle: LoadResult
      during: LoadResult
      ratioP99: number
      spray: { requestsPerSecond: number; statusCodes: Record<string, number>; errors: number }
      rssIdleMiB: number
      rssPeakMiB: number
      rssAfterMiB: number
    }
  > = {}
  try {
    const file = path.join(tmp, 'domains.yaml')
    fs.writeFileSync(file, 'unknownHosts: page\ndomains:\n  example.de:\n    price: 4900\n')
    for (const [name, env] of [
      ['limited', {}],
      ['unlimited', { IMAGE_RATE_LIMIT: '0' }],
    ] as const) {
      log(
        `og.png spray (${name}): GET / at ${PAGE_LOAD.overallRate}/s alone, then with /og.png for a new host on every request over ${SPRAY_CONNECTIONS} connections, ${duration} s each ...`,
      )
      const server = await startWith(file, fs.mkdtempSync(path.join(tmp, `${name}-`)), env)
      try {
        const pageLoad = () => load(server.port, duration, { ...PAGE_LOAD, headers: { host: 'example.de' } })
        await load(server.port, 2, { ...PAGE_LOAD, headers: { host: 'example.de' } })
        const idle = await pageLoad()
        const rssIdleMiB = rssMiB(server.pid)
        let host = 0
        const spray = autocannon({
          url: `http://127.0.0.1:${server.port}/og.png`,
          connections: SPRAY_CONNECTIONS,
          duration: duration + 1,
          requests: [{ setupRequest: (request: Request) => ({ ...request, headers: { ...request.headers, host: `spray-${host++}.de` } }) }],
        })
        await sleep(500)
        const during = await pageLoad()
        const sprayed = await spray
        const codes = Object.fromEntries(Object.entries(sprayed.statusCodeStats).map(([code, { count }]) => [code, count]))
        results[name] = {
          idle,
          during,
          ratioP99: +(during.p99Ms / idle.p99Ms).toFixed(2),
          spray: { requestsPerSecond: Math.round(sprayed.requests.average), statusCodes: codes, errors: sprayed.errors + sprayed.timeouts },
          rssIdleMiB,
          rssPeakMiB: peakRssMiB(server.pid),
          rssAfterMiB: rssMiB(server.pid),
        }
      } finally {
        await server.stop()
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  report(results, () => {
    const rows: Record<string, Record<string, string>> = {}
    for (const [name, r] of Object.entries(results)) {
      rows[`GET / ${name === 'limited' ? 'IMAGE_RATE_LIMIT default' : 'IMAGE_RATE_LIMIT=0'}`] = {
        idle: `p50 ${r.idle.p50Ms} / p99 ${r.idle.p99Ms} ms`,
        spray: `p50 ${r.during.p50Ms} / p99 ${r.during.p99Ms} ms (${r.during.notOk} not 200)`,
        'p99 ratio': `x${r.ratioP99}`,
        'og.png answers': `${r.spray.requestsPerSecond}/s: ${Object.entries(r.spray.statusCodes)
          .map(([code, count]) => `${count} x ${code}`)
          .join(', ')}`,
        RSS: `${r.rssIdleMiB} idle, ${r.rssPeakMiB} peak, ${r.rssAfterMiB} after MiB`,
      }
    }
    console.table(rows)
  })
}
