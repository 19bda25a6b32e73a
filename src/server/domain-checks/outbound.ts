// Outbound GETs of the checks (RDAP, IANA's bootstrap file, a name's /tls-check): addresses from files and DNS
// answers the owner does not control, so each request is bounded in time and size, never follows a redirect, and
// goes only to a public address, the one that was checked (no second lookup between check and connect).
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { lookup as dnsLookup } from 'node:dns/promises'

// Which addresses count as public, by the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890): a block
// whose "Globally Reachable" is False, or N/A (deprecated), is refused; a more specific block says more than the one
// around it (192.0.0.9/32 is reachable inside 192.0.0.0/24, which is not). Kept as numbers rather than a
// net.BlockList: a BlockList takes an IPv4 address for its IPv4-mapped IPv6 form, so a rule on ::ffff:0:0/96 refused
// every plain IPv4 address, and an IPv6 address that carries an IPv4 one must be judged by the address it carries.
type Range = readonly [prefix: string, bits: number, reachable: boolean]

const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, false],
  ['10.0.0.0', 8, false],
  ['100.64.0.0', 10, false],
  ['127.0.0.0', 8, false],
  ['169.254.0.0', 16, false],
  ['172.16.0.0', 12, false],
  ['192.0.0.0', 24, false],
  ['192.0.0.9', 32, true],
  ['192.0.0.10', 32, true],
  ['192.0.2.0', 24, false],
  // Deprecated (RFC 7526), its reachability N/A: refused with 192.88.99.2/32 (6a44) inside it.
  ['192.88.99.0', 24, false],
  ['192.168.0.0', 16, false],
  ['198.18.0.0', 15, false],
  ['198.51.100.0', 24, false],
  ['203.0.113.0', 24, false],
  // Multicast (not in the registry, in its own) and 240.0.0.0/4 with the limited broadcast: no server there.
  ['224.0.0.0', 3, false],
]

const IPV6_RANGES: readonly Range[] = [
  // Only 2000::/3 is allocated as global unicast (IANA IPv6 Address Space): every other block (::/96 IPv4-compatible,
  // 100::/64, 5f00::/16, fc00::/7, fec0::/10 site-local, fe80::/10, ff00::/8, ...) is refused with the rest.
  ['::', 0, false],
  ['2000::', 3, true],
  ['2001::', 23, false],
  ['2001:1::1', 128, true],
  ['2001:1::2', 128, true],
  ['2001:1::3', 128, true],
  ['2001:3::', 32, true],
  ['2001:4:112::', 48, true],
  ['2001:20::', 28, true],
  ['2001:30::', 28, true],
  ['2001:db8::', 32, false],
  // 6to4 (RFC 7526, deprecated; reachability N/A): it carries an IPv4 address that may be anyone's, private ones too.
  ['2002::', 16, false],
  ['2620:4f:8000::', 48, true],
  ['3fff::', 20, false],
]

const ipv4Value = (address: string) => address.split('.').reduce((value, part) => value * 256 + Number(part), 0)

/** The 128 bits of an IPv6 address (its zone, `%eth0`, left off). */
function ipv6Value(address: string): bigint {
  let text = address.replace(/%.*$/, '')
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(text)?.[0]
  if (dotted) {
    const value = ipv4Value(dotted)
    text = `${text.slice(0, -dotted.length)}${Math.floor(value / 0x10000).toString(16)}:${(value % 0x10000).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0')
  return [...headGroups, ...zeros, ...tailGroups].reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n)
}

/** Each table sorted most specific first, so that the first block holding an address is the one that decides. */
const bySpecificity = (ranges: readonly Range[]) => [...ranges].sort((a, b) => b[1] - a[1])
const IPV4_TABLE = bySpecificity(IPV4_RANGES).map(([prefix, bits, reachable]) => ({ base: Math.floor(ipv4Value(prefix) / 2 ** (32 - bits)), bits, reachable }))
const IPV6_TABLE = bySpecificity(IPV6_RANGES).map(([prefix, bits, reachable]) => ({ base: ipv6Value(prefix) >> BigInt(128 - bits), bits, reachable }))

const reachableIpv4 = (value: number) => IPV4_TABLE.find((range) => Math.floor(value / 2 ** (32 - range.bits)) === range.base)?.reachable ?? true

/** The first 96 bits of ::ffff:0:0/96 and of 64:ff9b::/96, NAT64's well-known prefix (RFC 6052). */
const IPV4_MAPPED = 0xffffn
const NAT64 = ipv6Value('64:ff9b::') >> 32n

function reachableIpv6(value: bigint): boolean {
  // An address that carries an IPv4 address reaches that one: an IPv4-mapped one through this host's own IPv4 stack,
  // a NAT64 one through the translator; each is as public as the IPv4 address in it.
  if (value >> 32n === IPV4_MAPPED || value >> 32n === NAT64) return reachableIpv4(Number(value & 0xffffffffn))
  return IPV6_TABLE.find((range) => value >> BigInt(128 - range.bits) === range.base)?.reachable ?? false
}

/** Whether the address is one the internet reaches: not loopback, private, link-local, documentation, ... */
function isPublicAddress(address: string): boolean {
  const family = net.isIP(address)
  if (family === 4) return reachableIpv4(ipv4Value(address))
  return family === 6 && reachableIpv6(ipv6Value(address))
}

const isLoopback = (address: string) => {
  const family = net.isIP(address)
  if (family === 4) return address.startsWith('127.')
  if (family !== 6) return false
  const value = ipv6Value(address)
  return value === 1n || (value >> 32n === IPV4_MAPPED && value >> 24n === (IPV4_MAPPED << 8n) + 127n)
}

export interface OutboundPolicy {
  /** Tests only: loopback (127.0.0.0/8, ::1) counts as public, so that servers on 127.0.0.1 play the outside world. */
  allowLoopback?: boolean
}

export const mayConnect = (address: string, policy: OutboundPolicy) => isPublicAddress(address) || (policy.allowLoopback === true && isLoopback(address))

export type Fetched = { ok: true; status: number; body: Buffer; cut: boolean } | { ok: false; error: string }

export interface GetOptions extends OutboundPolicy {
  timeoutMs: number
  maxBytes: number
  headers?: Record<string, string>
  /** Connect here instead of looking the URL's host up (the address is still checked). */
  address?: string
  signal?: AbortSignal
}

/** The first address of the host that may be connected to, or why none. */
async function addressOf(host: string, policy: OutboundPolicy): Promise<{ address: string } | { error: string }> {
  const bare = host.replace(/^\[|\]$/g, '')
  if (net.isIP(bare)) return mayConnect(bare, policy) ? { address: bare } : { error: `${bare} is not a public address` }
  let found: { address: string }[]
  try {
    found = await dnsLookup(bare, { all: true, verbatim: true })
  } catch (error) {
    return { error: `the name of the server does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
  }
  const allowed = found.find((entry) => mayConnect(entry.address, policy))
  return allowed ? { address: allowed.address } : { error: "the server's name resolves to no public address" }
}

/** GET the URL: at most maxBytes of the body are read (`cut` says more was sent); no redirect is followed. */
export async function boundedGet(url: URL, options: GetOptions): Promise<Fetched> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: `${url.protocol} is not HTTP` }
  if (url.username || url.password) return { ok: false, error: 'a URL with a user name is not asked' }
  const target =
    options.address === undefined
      ? await addressOf(url.hostname, options)
      : mayConnect(options.address, options)
        ? { address: options.address }
        : { error: `${options.address} is not a public address` }
  if ('error' in target) return { ok: false, error: target.error }
  const { address } = target
  const family = net.isIP(address)
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs)
  const client = url.protocol === 'https:' ? https : http
  return new Promise<Fetched>((resolve) => {
    const request = client.get(
      url,
      {
        headers: { 'user-agent': 'domain-lander', ...options.headers },
        signal,
        // Pinned: the address checked above is the one connected to (a second lookup could give another).
        lookup: (_host, _options, callback) => callback(null, [{ address, family }] as never, family),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        let cut = false
        response.on('data', (chunk: Buffer) => {
          if (cut) return
          const room = options.maxBytes - size
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room))
            size += room
            cut = true
            resolve({ ok: true, status: response.statusCode ?? 0, body: Buffer.concat(chunks), cut })
            response.destroy()
            return
          }
          chunks.push(chunk)
          size += chunk.length
        })
        response.on('end', () => resolve({ ok: true, status: response.statusCode ?? 0, body: Buffer.concat(chunks), cut }))
        response.on('error', () => resolve({ ok: false, error: signal.aborted ? 'no answer in time' : 'the connection broke off' }))
        response.on('aborted', () => resolve({ ok: false, error: signal.aborted ? 'no answer in time' : 'the connection broke off' }))
      },
    )
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, error: signal.aborted ? 'no answer in time' : `the server cannot be reached (${error.code ?? 'error'})` }),
    )
  })
}
