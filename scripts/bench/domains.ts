// `npm run bench -- --domains 100000`: the built server with a domains file of N exact names and N/100 wildcards
// (scripts/domains-file.ts), as JSON and as YAML, against the same server with 10 names and one wildcard, in the
// same run: cold start to the first 200 and RSS idle (alternating, --runs N each, default 3, medians); how soon a
// change is in force after the write; GET / p99 while the file reloads over and over under load, against the same
// load without reloads; GET / for an exact and a wildcard name and /tls-check for names drawn from all N; and, in
// this process, the cost of one lookup in the table at both sizes; and the search flood of issue 12/19 (with
// `portfolio: true`): GET / p99 idle and while one client floods /domains with varied sorted searches, with the
// search limit and without it (--only search: that phase alone). --duration N seconds per load (default 10),
// --json for JSON. Traffic goes to 127.0.0.1 only.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon, { type Request } from 'autocannon'
import { readDomainsFile } from '../../src/server/sites/domains-file.ts'
import { build } from '../build-lib.ts'
import { domainsDocument, domainsFileText } from '../domains-file.ts'
import { argsOf, get, loadPort as load, median, ownRssMiB as rssMiB, PAGE_LOAD, ratio, reporter, sleep, startWithDomainsFile as startWith } from './harness.ts'

const SMALL = 10
type LoadResult = Awaited<ReturnType<typeof load>>

interface SearchFlood {
  idle: LoadResult
  during: LoadResult
  ratioP99: number
  flood: { requestsPerSecond: number; p50Ms: number; p99Ms: number; statusCodes: Record<string, number>; errors: number }
  rssIdleMiB: number
  rssAfterMiB: number
}
interface LoadFigures {
  getExact: LoadResult
  getWildcard: LoadResult
  tlsCheck: LoadResult
  inForceMs?: { median: number; max: number; runs: number[] }
  getDuringReloads?: LoadResult & { reloads: number }
  rssAfterReloadsMiB?: number
}
interface SizeFigures {
  startMs: number
  rssIdleMiB: number
  runs: { startMs: number[]; rssMiB: number[] }
  load?: LoadFigures
}
interface Results {
  domains: number
  wildcards: number
  small: number
  json?: { small: SizeFigures; large: SizeFigures; startLaterMs: number; rssMoreMiB: number }
  yaml?: { small: SizeFigures; large: SizeFigures; startLaterMs: number; rssMoreMiB: number }
  searchFlood?: Record<string, SearchFlood>
  lookup?: Record<'small' | 'large', ReturnType<typeof lookupCost>>
}

/** Replaces the file (a new file renamed over it, as editors do) with example.de at `price`. */
function writeVersion(file: string, text: string, price: number) {
  const changed = text.replace(/("?price"?: )4900\b/, `$1${price}`)
  fs.writeFileSync(`${file}.tmp`, changed)
  fs.renameSync(`${file}.tmp`, file)
}
const priceOnPage = (body: string) => /<p class="price">Preis: ([\d.]+)/.exec(body)?.[1]?.replaceAll('.', '')

/** From the write to the first answer with the new price, polling every 5 ms. */
async function untilInForce(port: number, price: number) {
  while (priceOnPage((await get(port, 'example.de')).body) !== String(price)) await sleep(5)
}

/** The flood: one client, its searches at a fixed rate above the 86 a second that took GET / to p99 675 ms. */
const FLOOD = { connections: 8, overallRate: 400 }
const FLOOD_WORDS = ['auto', 'haus', 'shop', 'reise', 'web', 'zeit', 'bio', 'rad', 'markt', 'garten', 'ü', 'de', 'com', '-', '1', '2']

/** Varied searches: a word, a part of one or one to three letters, by price either way, on one of the first pages. */
function floodRequests() {
  const letters = [...'abcdefghijklmnopqrstuvwxyz']
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!
  const query = () => {
    const roll = Math.random()
    if (roll < 0.3) return pick(FLOOD_WORDS)
    if (roll < 0.5) return pick(FLOOD_WORDS).slice(0, 2)
    return Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(letters)).join('')
  }
  return [
    {
      setupRequest: (request: Request) => ({
        ...request,
        path: `/domains?q=${encodeURIComponent(query())}&sort=price&order=${pick(['asc', 'desc'])}&page=${1 + Math.floor(Math.random() * 3)}`,
      }),
    },
  ]
}

/**
 * GET / (fixed rate) alone, then together with one client's flood of /domains searches, on a server whose domains
 * file has `portfolio: true`: with the search limit as configured by default, and with SEARCH_RATE_LIMIT=0 (what
 * the index alone does).
 */
async function searchFlood(file: string, dataDir: (name: string) => string, duration: number, log: (line: string) => void) {
  const result: Record<string, SearchFlood> = {}
  for (const [name, env] of [
    ['limited', {}],
    ['unlimited', { SEARCH_RATE_LIMIT: '0' }],
  ] as const) {
    log(`search flood (${name}): GET / at ${PAGE_LOAD.overallRate}/s alone, then with ${FLOOD.overallRate} searches/s from one client, ${duration} s each ...`)
    const server = await startWith(file, dataDir(`search-${name}`), env)
    try {
      const pageLoad = () => load(server.port, duration, { ...PAGE_LOAD, headers: { host: 'example.de' } })
      await load(server.port, 2, { ...PAGE_LOAD, headers: { host: 'example.de' } })
      const idle = await pageLoad()
      const rssIdleMiB = rssMiB(server.pid)
      const flood = autocannon({
        url: `http://127.0.0.1:${server.port}/`,
        ...FLOOD,
        duration: duration + 1,
        headers: { host: 'example.de' },
        requests: floodRequests(),
      })
      await sleep(500)
      const during = await pageLoad()
      const searches = await flood
      const codes = Object.fromEntries(Object.entries(searches.statusCodeStats).map(([code, { count }]) => [code, count]))
      result[name] = {
        idle,
        during,
        ratioP99: ratio(during.p99Ms, idle.p99Ms),
        flood: {
          requestsPerSecond: Math.round(searches.requests.average),
          p50Ms: searches.latency.p50,
          p99Ms: searches.latency.p99,
          statusCodes: codes,
          errors: searches.errors + searches.timeouts,
        },
        rssIdleMiB,
        rssAfterMiB: rssMiB(server.pid),
      }
    } finally {
      await server.stop()
    }
  }
  return result
}

/** What the lookups found, so that the loops cannot be optimised away (printed with the figures). */
let found = 0

/**
 * ns per resolve() in this process: ten exact names again and again (their settings stay decoded), exact names seen
 * rarely (`rare`: decoded each time; the large file only), names under a wildcard, and names not in the file.
 */
function lookupCost(file: string, names: string[], wildcardHosts: string[], rare?: string[]) {
  const table = readDomainsFile(file)
  const unknown = names.map((name) => `x${name}`)
  const time = (hosts: string[]) => {
    const rounds = Math.ceil(1_000_000 / hosts.length)
    for (let warm = 0; warm < 2; warm++) for (const host of hosts) found += table.resolve(host) ? 1 : 0
    const started = process.hrtime.bigint()
    for (let round = 0; round < rounds; round++) for (const host of hosts) found += table.resolve(host) ? 1 : 0
    return Math.round(Number(process.hrtime.bigint() - started) / (rounds * hosts.length))
  }
  return { exactNs: time(names), ...(rare && { rareNs: time(rare) }), wildcardNs: time(wildcardHosts), unknownNs: time(unknown) }
}

export async function benchDomains(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const option = args.number
  const asJson = args.asJson
  const { log, report } = reporter(asJson)
  const count = option('--domains', 100_000)
  const duration = option('--duration', 10)
  const runs = option('--runs', 3)
  const onlySearch = args.value('--only') === 'search'
  const wildcards = Math.max(1, Math.round(count / 100))
  await build()
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-domains-'))
  const results: Results = { domains: count, wildcards, small: SMALL }
  try {
    const document = domainsDocument({ domains: count, wildcards })
    const exactNames = Object.keys(document.domains).filter((name) => !name.startsWith('*') && document.domains[name]!.listed !== false)
    const asciiNames = exactNames.map((name) => new URL(`http://${name}/`).hostname)
    const wildcardKeys = Object.keys(document.domains).filter((name) => name.startsWith('*'))
    const files: Record<string, { text: string; file: string }> = {}
    for (const format of ['json', 'yaml'] as const) {
      files[format] = { text: domainsFileText(format, { domains: count, wildcards }), file: path.join(tmp, `large-${format}`, `domains.${format}`) }
      files[`small-${format}`] = {
        text: domainsFileText(format, { domains: SMALL, wildcards: 1 }),
        file: path.join(tmp, `small-${format}`, `domains.${format}`),
      }
    }
    for (const { text, file } of Object.values(files)) {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, text)
    }
    const dataDir = (name: string) => fs.mkdtempSync(path.join(tmp, `${name}-`))
    const portfolioFile = path.join(tmp, 'portfolio', 'domains.json')
    fs.mkdirSync(path.dirname(portfolioFile), { recursive: true })
    fs.writeFileSync(portfolioFile, `${JSON.stringify({ ...document, portfolio: true }, null, 2)}\n`)
    if (onlySearch) {
      results.searchFlood = await searchFlood(portfolioFile, dataDir, duration, log)
      return report(results as Results & { searchFlood: Record<string, SearchFlood> }, printSearchFlood)
    }
    log(
      `domains file: ${count} names and ${wildcards} wildcards, JSON ${(files.json!.text.length / 2 ** 20).toFixed(1)} MiB, YAML ${(Buffer.byteLength(files.yaml!.text) / 2 ** 20).toFixed(1)} MiB; against ${SMALL} names`,
    )

    for (const format of ['json', 'yaml'] as const) {
      log(`${format}: cold start and RSS idle, ${runs} runs each, alternating with the ${SMALL}-name file ...`)
      const figures: Record<'small' | 'large', { startMs: number[]; rssMiB: number[] }> = {
        small: { startMs: [], rssMiB: [] },
        large: { startMs: [], rssMiB: [] },
      }
      for (let run = 0; run < runs; run++) {
        for (const size of ['small', 'large'] as const) {
          const server = await startWith(files[size === 'small' ? `small-${format}` : format]!.file, dataDir(`${size}-${format}`))
          await sleep(1000)
          figures[size].startMs.push(server.startMs)
          figures[size].rssMiB.push(rssMiB(server.pid))
          await server.stop()
        }
      }
      const medians = (size: 'small' | 'large'): SizeFigures => ({
        startMs: median(figures[size].startMs),
        rssIdleMiB: median(figures[size].rssMiB),
        runs: figures[size],
      })
      const small = medians('small')
      const large = medians('large')
      results[format] = { small, large, startLaterMs: large.startMs - small.startMs, rssMoreMiB: +(large.rssIdleMiB - small.rssIdleMiB).toFixed(1) }
    }

    const wildcardHost = (key: string) => `shop.${new URL(`http://${key.slice(2)}/`).hostname}`
    const tlsRequests = (names: string[]) => [
      { setupRequest: (request: Request) => ({ ...request, path: `/tls-check?domain=${names[Math.floor(Math.random() * names.length)]}` }) },
    ]
    for (const format of ['json', 'yaml'] as const) {
      log(`${format}: GET / (exact, wildcard) and /tls-check, ${duration} s each, on the ${SMALL}-name and the ${count}-name server ...`)
      for (const size of ['small', 'large'] as const) {
        const { file, text } = files[size === 'small' ? `small-${format}` : format]!
        const server = await startWith(file, dataDir(`load-${size}-${format}`))
        try {
          const names =
            size === 'small' ? Object.keys(domainsDocument({ domains: SMALL }).domains).map((name) => new URL(`http://${name}/`).hostname) : asciiNames
          const wildcard = wildcardHost(size === 'small' ? Object.keys(domainsDocument({ domains: SMALL, wildcards: 1 }).domains).at(-1)! : wildcardKeys[0]!)
          await load(server.port, 2, { headers: { host: 'example.de' } })
          const figures: LoadFigures = {
            getExact: await load(server.port, duration, { headers: { host: 'example.de' } }),
            getWildcard: await load(server.port, duration, { headers: { host: wildcard } }),
            tlsCheck: await load(server.port, duration, { requests: tlsRequests(names) }),
          }
          if (size === 'large') {
            log(`${format}: a change in force after the write (5 times), then GET / while the file reloads over and over ...`)
            const inForceMs: number[] = []
            for (let version = 1; version <= 5; version++) {
              const written = performance.now()
              writeVersion(file, text, 4900 + version)
              await untilInForce(server.port, 4900 + version)
              inForceMs.push(Math.round(performance.now() - written))
              await sleep(300)
            }
            figures.inForceMs = { median: median(inForceMs), max: Math.max(...inForceMs), runs: inForceMs }
            let reloading = true
            let reloads = 0
            const reloader = (async () => {
              for (let version = 100; reloading; version++) {
                writeVersion(file, text, 4900 + version)
                await untilInForce(server.port, 4900 + version)
                reloads++
              }
            })()
            const during = await load(server.port, duration, { headers: { host: 'example.de' } })
            reloading = false
            await reloader
            figures.getDuringReloads = { ...during, reloads }
            figures.rssAfterReloadsMiB = rssMiB(server.pid)
          }
          results[format]![size].load = figures
        } finally {
          await server.stop()
        }
      }
    }

    results.searchFlood = await searchFlood(portfolioFile, dataDir, duration, log)

    log('lookups in this process (resolve(), exact, wildcard and unknown names) ...')
    const rare = asciiNames.filter((_, i) => i % Math.max(1, Math.floor(asciiNames.length / 10_000)) === 0)
    const smallDocument = domainsDocument({ domains: SMALL, wildcards: 1 })
    const smallNames = Object.keys(smallDocument.domains)
      .filter((name) => !name.startsWith('*'))
      .map((name) => new URL(`http://${name}/`).hostname)
    results.lookup = {
      small: lookupCost(files['small-json']!.file, smallNames, [wildcardHost(Object.keys(smallDocument.domains).at(-1)!)]),
      large: lookupCost(files.json!.file, asciiNames.slice(0, smallNames.length), wildcardKeys.slice(0, 10).map(wildcardHost), rare),
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  report(results, print)
}

function print(results: Results) {
  const { domains, small } = results
  const rows: Record<string, Record<string, string | number>> = {}
  for (const format of ['json', 'yaml'] as const) {
    const r = results[format]!
    const big = r.large.load!
    const few = r.small.load!
    rows[`${format}: start to first 200`] = {
      [`${small} names`]: `${r.small.startMs} ms`,
      [`${domains} names`]: `${r.large.startMs} ms`,
      difference: `+${r.startLaterMs} ms`,
      target: '<= +1000 ms',
    }
    rows[`${format}: RSS idle`] = {
      [`${small} names`]: `${r.small.rssIdleMiB} MiB`,
      [`${domains} names`]: `${r.large.rssIdleMiB} MiB`,
      difference: `+${r.rssMoreMiB} MiB`,
      target: '<= +40 MiB',
    }
    rows[`${format}: GET / exact, req/s`] = {
      [`${small} names`]: few.getExact.requestsPerSecond,
      [`${domains} names`]: big.getExact.requestsPerSecond,
      difference: `x${ratio(big.getExact.requestsPerSecond, few.getExact.requestsPerSecond)}`,
      target: 'x1 (same cost)',
    }
    rows[`${format}: GET / wildcard, req/s`] = {
      [`${small} names`]: few.getWildcard.requestsPerSecond,
      [`${domains} names`]: big.getWildcard.requestsPerSecond,
      difference: `x${ratio(big.getWildcard.requestsPerSecond, few.getWildcard.requestsPerSecond)}`,
      target: 'x1 (same cost)',
    }
    rows[`${format}: /tls-check, req/s`] = {
      [`${small} names`]: few.tlsCheck.requestsPerSecond,
      [`${domains} names`]: big.tlsCheck.requestsPerSecond,
      difference: `x${ratio(big.tlsCheck.requestsPerSecond, big.getExact.requestsPerSecond)} of GET /`,
      target: 'like GET /',
    }
    rows[`${format}: change in force after the write`] = {
      [`${domains} names`]: `${big.inForceMs!.median} ms (max ${big.inForceMs!.max})`,
      target: '<= 1000 ms',
    }
    rows[`${format}: GET / p99, reloading`] = {
      [`${domains} names`]: `${big.getDuringReloads!.p99Ms} ms (${big.getDuringReloads!.reloads} reloads; ${big.getDuringReloads!.notOk} not 200)`,
      difference: `x${ratio(big.getDuringReloads!.p99Ms, big.getExact.p99Ms)} of ${big.getExact.p99Ms} ms without`,
      target: '<= x2',
    }
  }
  console.table(rows)
  const lookup = results.lookup!
  if (found === 0) console.log('(no lookup found anything: the lookup figures are void)')
  console.log(
    `resolve() in ns, ${small} / ${domains} names: exact ${lookup.small.exactNs} / ${lookup.large.exactNs} (a name not asked for lately: ${lookup.large.rareNs}), wildcard ${lookup.small.wildcardNs} / ${lookup.large.wildcardNs}, unknown ${lookup.small.unknownNs} / ${lookup.large.unknownNs}`,
  )
  printSearchFlood({ domains, searchFlood: results.searchFlood! })
  for (const format of ['json', 'yaml'] as const) {
    const r = results[format]!
    console.log(
      `${format} runs: start ${r.small.runs.startMs.join(', ')} / ${r.large.runs.startMs.join(', ')} ms; RSS ${r.small.runs.rssMiB.join(', ')} / ${r.large.runs.rssMiB.join(', ')} MiB; RSS after the reloads ${r.large.load!.rssAfterReloadsMiB} MiB`,
    )
  }
}

function printSearchFlood({ domains, searchFlood }: { domains: number; searchFlood: Record<string, SearchFlood> }) {
  const rows: Record<string, Record<string, string>> = {}
  for (const [name, r] of Object.entries(searchFlood)) {
    rows[`GET / ${name === 'limited' ? 'with the search limit' : 'SEARCH_RATE_LIMIT=0'}`] = {
      idle: `p50 ${r.idle.p50Ms} / p99 ${r.idle.p99Ms} ms`,
      'search flood': `p50 ${r.during.p50Ms} / p99 ${r.during.p99Ms} ms (${r.during.notOk} not 200)`,
      'p99 ratio': `x${r.ratioP99}`,
      target: '<= x3',
      searches: `${r.flood.requestsPerSecond}/s, p99 ${r.flood.p99Ms} ms, ${Object.entries(r.flood.statusCodes)
        .map(([code, count]) => `${count} x ${code}`)
        .join(', ')}`,
      RSS: `${r.rssIdleMiB} -> ${r.rssAfterMiB} MiB`,
    }
  }
  console.log(
    `search flood, ${domains} names with portfolio: true (GET / at ${PAGE_LOAD.overallRate}/s over ${PAGE_LOAD.connections} connections; searches at ${FLOOD.overallRate}/s over ${FLOOD.connections}):`,
  )
  console.table(rows)
}
