// Outbound GETs of the checks (RDAP, IANA's bootstrap file, a name's /tls-check): addresses from files and DNS
// answers the owner does not control, so each request is bounded in time and size, never follows a redirect, and
// goes only to a public address, the one that was checked (no second lookup between check and connect).
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { lookup as dnsLookup } from 'node:dns/promises'

/** Special-purpose ranges (RFC 6890 and the IANA registries): nothing on the internet answers RDAP from there. */
const NOT_PUBLIC = new net.BlockList()
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv4')
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv6')
}

const LOOPBACK = new net.BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

const isPublicAddress = (address: string) => {
  const family = net.isIP(address)
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

export interface OutboundPolicy {
  /** Tests only: loopback (127.0.0.0/8, ::1) counts as public, so that servers on 127.0.0.1 play the outside world. */
  allowLoopback?: boolean
}

export const mayConnect = (address: string, policy: OutboundPolicy) => {
  const family = net.isIP(address)
  return isPublicAddress(address) || (policy.allowLoopback === true && family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6'))
}

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
