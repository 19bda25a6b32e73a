// `npm exec -- node scripts/bench/visits.ts`: the CPU the visit counter adds to GET / (decision 049), measured in a loop of its
// own (process.cpuUsage), without a server or a load generator: a bot, a request without a browser's headers, a
// browser's repeat and a browser's first visit. `npm run bench -- --compare` measures the whole request; its load
// sends no User-Agent, so there the counter takes the cheapest of these paths.
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../../src/server/store/types.ts'
import { createVisitCounter } from '../../src/server/visits/counter.ts'

type CountedRequest = Parameters<ReturnType<typeof createVisitCounter>['page']>[0]

// Only what the counter asks of the store, answered at once: the loop measures the counter alone.
const store = {
  visitSalt: async (_day: string, candidate: string) => candidate,
  settleVisitDays: async () => {},
  addVisitCounts: async () => {},
  addVisitorHashes: async () => {},
} as unknown as Store
const log = { error() {}, warn() {}, info() {} } as unknown as FastifyBaseLogger
const counter = createVisitCounter(store, log, { flushMs: 3_600_000 })
await counter.flush()
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const browser = { 'user-agent': CHROME, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-language': 'de-DE,de;q=0.9' }
const request = (ip: string, headers: Record<string, string>) => ({ method: 'GET', ip, query: {}, headers }) as unknown as CountedRequest
const clients = Array.from({ length: 1000 }, (_, i) =>
  request(`198.51.${i >> 8}.${i & 255}`, { ...browser, ...(i % 3 === 0 && { referer: 'https://www.google.de/' }) }),
)

function measure(label: string, count: number, make: (i: number) => CountedRequest) {
  for (let i = 0; i < 10_000; i++) counter.page(make(i), 'example.de')
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) counter.page(make(i + 10_000), 'example.de')
  const used = process.cpuUsage(start)
  console.log(`${label}: ${((used.user + used.system) / count).toFixed(2)} µs CPU per request`)
}

measure('bot (isbot, cached)', 300_000, () =>
  request('66.249.66.1', { ...browser, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
)
measure('no browser headers (as wrk sends)', 300_000, () => request('127.0.0.1', {}))
measure('browser, repeat within 30 minutes', 300_000, (i) => clients[i % clients.length]!)
measure('browser, first visit (new address)', 35_000, (i) => request(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, browser))
await counter.close()
