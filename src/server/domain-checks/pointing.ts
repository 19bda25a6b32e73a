// Does a name point to this server? Its A/AAAA records or its CNAME target among SERVER_ADDRESSES; failing that, the
// server at its address answers our own GET /tls-check for it (src/server/sites/tls-check.ts), which only a
// domain-lander that lists the name does.
import type { Resolver } from 'node:dns/promises'
import net from 'node:net'
import type { PointingState } from '../../shared/domain-checks.ts'
import { boundedGet, mayConnect, type OutboundPolicy } from './outbound.ts'

export interface PointingOptions extends OutboundPolicy {
  resolver: Resolver
  /** SERVER_ADDRESSES: IP addresses and host names (a CNAME target), lower case, without a final dot. */
  serverAddresses: readonly string[]
  /**
   * How /tls-check is asked: https on 443 in production (through the proxy that holds the name's certificate, whose
   * name is verified); tests ask http on a loopback port. null: only the addresses count.
   */
  http: { scheme: 'https' | 'http'; port: number; timeoutMs: number } | null
  signal?: AbortSignal
}

export interface Pointing {
  state: PointingState
  detail: string
}

/** No such name, or no record of the type: an answer. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND'])

type Lookup = { values: string[] } | { error: string }

async function lookup(work: () => Promise<string[]>): Promise<Lookup> {
  try {
    return { values: await work() }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    return NO_RECORDS.has(code) ? { values: [] } : { error: code }
  }
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '')

/** Normalised for comparison: IPv6 in one spelling. */
function sameAddress(a: string, b: string): boolean {
  if (net.isIPv6(a) && net.isIPv6(b)) {
    const list = new net.BlockList()
    list.addAddress(a, 'ipv6')
    return list.check(b, 'ipv6')
  }
  return a === b
}

async function answersTlsCheck(ascii: string, address: string, options: PointingOptions & { http: NonNullable<PointingOptions['http']> }): Promise<boolean> {
  const url = new URL(`${options.http.scheme}://${ascii}:${options.http.port}/tls-check`)
  url.searchParams.set('domain', ascii)
  const fetched = await boundedGet(url, { ...options, address, timeoutMs: options.http.timeoutMs, maxBytes: 64 })
  return fetched.ok && fetched.status === 200 && fetched.body.toString('utf8') === 'ok'
}

export async function checkPointing(ascii: string, options: PointingOptions): Promise<Pointing> {
  const { resolver } = options
  const [v4, v6, cname] = await Promise.all([
    lookup(() => resolver.resolve4(ascii)),
    lookup(() => resolver.resolve6(ascii)),
    lookup(() => resolver.resolveCname(ascii)),
  ])
  const targets = 'values' in cname ? cname.values.map(bare) : []
  const addresses = [...('values' in v4 ? v4.values : []), ...('values' in v6 ? v6.values : [])]
  const ours = options.serverAddresses
  if (targets.some((target) => ours.includes(target))) return { state: 'here', detail: `CNAME ${targets.join(', ')}` }
  if (addresses.some((address) => ours.some((own) => sameAddress(own, address)))) return { state: 'here', detail: addresses.join(', ') }
  const failed = [v4, v6, cname].find((result): result is { error: string } => 'error' in result)
  if (addresses.length === 0) {
    return failed ? { state: 'unknown', detail: `DNS: ${failed.error}` } : { state: 'elsewhere', detail: 'keine Adresse im DNS' }
  }
  // Asked only at public addresses: a name pointed at an internal address is not a way into this network.
  if (options.http) {
    const http = options.http
    for (const address of addresses.filter((candidate) => mayConnect(candidate, options)).slice(0, 2)) {
      if (await answersTlsCheck(ascii, address, { ...options, http })) return { state: 'here', detail: `${addresses.join(', ')} (antwortet auf /tls-check)` }
    }
  }
  return { state: 'elsewhere', detail: `${targets.length ? `CNAME ${targets.join(', ')}, ` : ''}${addresses.join(', ')}` }
}
