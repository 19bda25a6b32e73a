import Fastify from 'fastify'
import { describe, expect, test } from 'vitest'
import { clientKeyOf, fastifyTrustProxy } from './client-address.ts'
import { loadConfig } from '../config.ts'

/** What request.ip and the rate-limit key become for a request from `remoteAddress` with `forwardedFor`. */
async function seenAs(TRUST_PROXY: string, remoteAddress: string, forwardedFor?: string, RATE_LIMIT_IPV6_PREFIX?: string) {
  const config = loadConfig({ TRUST_PROXY, RATE_LIMIT_IPV6_PREFIX })
  const app = Fastify({ trustProxy: fastifyTrustProxy(config.trustProxy) })
  const key = clientKeyOf(config.rateLimitIpv6Prefix)
  app.get('/', async (request) => ({ ip: request.ip, key: key(request) }))
  try {
    const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }
    return (await app.inject({ url: '/', remoteAddress, headers })).json() as { ip: string; key: string }
  } finally {
    await app.close()
  }
}

describe('the client address', () => {
  test('without TRUST_PROXY it is the socket address, whatever X-Forwarded-For says', async () => {
    expect((await seenAs('false', '127.0.0.1', '203.0.113.1')).ip).toBe('127.0.0.1')
  })

  test('TRUST_PROXY=true believes one proxy: the rightmost entry, not what the client wrote on the left', async () => {
    expect((await seenAs('true', '127.0.0.1', '198.51.100.1, 203.0.113.7')).ip).toBe('203.0.113.7')
    expect((await seenAs('true', '127.0.0.1', '203.0.113.7')).ip).toBe('203.0.113.7')
  })

  test('TRUST_PROXY=2 believes two proxies', async () => {
    expect((await seenAs('2', '127.0.0.1', '198.51.100.1, 203.0.113.7, 10.0.0.5')).ip).toBe('203.0.113.7')
  })

  test('a list of proxies skips exactly the entries that are proxies', async () => {
    const trusted = '127.0.0.1,10.0.0.0/8'
    expect((await seenAs(trusted, '127.0.0.1', '198.51.100.1, 203.0.113.7, 10.0.0.5')).ip).toBe('203.0.113.7')
    // A socket that is not a listed proxy is the client, whatever it sends.
    expect((await seenAs(trusted, '192.0.2.50', '198.51.100.1, 10.0.0.5')).ip).toBe('192.0.2.50')
  })

  test('an IPv6 client is counted by its /64, or the prefix RATE_LIMIT_IPV6_PREFIX says', async () => {
    expect((await seenAs('true', '127.0.0.1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).key).toBe('2001:db8:1:2::')
    expect((await seenAs('true', '127.0.0.1', '2001:db8:1:2:aaaa::1', '48')).key).toBe('2001:db8:1::')
    expect((await seenAs('true', '127.0.0.1', '2001:db8:1:2:aaaa::1', '128')).key).toBe('2001:db8:1:2:aaaa::1')
  })

  test('an IPv4-mapped IPv6 address is counted as the IPv4 address', async () => {
    expect((await seenAs('false', '::ffff:203.0.113.9')).key).toBe('203.0.113.9')
  })
})
