// Who the client is: which X-Forwarded-For entries to believe (TRUST_PROXY), and the key a client is counted
// under in the rate limits.
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import type { Config } from '../config.ts'

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes a function: Fastify's own number form trusts no
 * hop at all, and `true` would believe the leftmost entry, which the client writes itself. proxy-addr numbers the
 * hops from the socket (0) leftwards through X-Forwarded-For.
 */
export function fastifyTrustProxy(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust
  return trust
}

/**
 * The key a client's requests are counted under: its address, or for IPv6 its network of `ipv6Prefix` bits
 * (one subscriber gets a whole /64 and can pick a new address for every request). An IPv4-mapped IPv6 address
 * (a dual-stack socket) counts as the IPv4 address.
 */
export function clientKeyOf(ipv6Prefix: number): (request: FastifyRequest) => string {
  const keyOf = clientKeyOfAddress(ipv6Prefix)
  return (request) => keyOf(request.ip ?? '')
}

/** clientKeyOf for an address already read from its request (the visit count reads it after the answer). */
export function clientKeyOfAddress(ipv6Prefix: number): (ip: string) => string {
  return (ip) => {
    try {
      return normalizeIP(ip, ipv6Prefix)
    } catch {
      return ip.toLowerCase()
    }
  }
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/

/** Whether the connection comes from this machine: the socket's address decides, never X-Forwarded-For. */
export const connectsFromThisMachine = (request: FastifyRequest): boolean => LOOPBACK.test(request.socket.remoteAddress ?? '')

/**
 * Whether a request comes straight from this machine: a proxy on this machine connects from loopback too, so a
 * request it forwarded (it says so in a header) does not.
 */
export function isDirectFromThisMachine(request: FastifyRequest): boolean {
  const { headers } = request
  const forwarded = headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined || headers['x-real-ip'] !== undefined
  return !forwarded && connectsFromThisMachine(request)
}
