// The outbound policy against the IANA IPv4 and IPv6 Special-Purpose Address Registries, every entry, both ways: an
// address in a block that is not globally reachable is refused, the addresses just outside it are allowed where they
// are public. The tables are the registries as of 2025 (iana-ipv4-special-registry, iana-ipv6-special-registry),
// written out here rather than taken from outbound.ts, with their "Globally Reachable" column; N/A (deprecated
// blocks) is refused.
import { describe, expect, test } from 'vitest'
import { mayConnect } from './outbound.ts'

type Reachable = true | false | 'n/a'

const IPV4_REGISTRY: [block: string, name: string, reachable: Reachable][] = [
  ['0.0.0.0/8', '"This network"', false],
  ['0.0.0.0/32', '"This host on this network"', false],
  ['10.0.0.0/8', 'Private-Use', false],
  ['100.64.0.0/10', 'Shared Address Space', false],
  ['127.0.0.0/8', 'Loopback', false],
  ['169.254.0.0/16', 'Link Local', false],
  ['172.16.0.0/12', 'Private-Use', false],
  ['192.0.0.0/24', 'IETF Protocol Assignments', false],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', false],
  ['192.0.0.8/32', 'IPv4 dummy address', false],
  ['192.0.0.9/32', 'Port Control Protocol Anycast', true],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', true],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', false],
  ['192.31.196.0/24', 'AS112-v4', true],
  ['192.52.193.0/24', 'AMT', true],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', 'n/a'],
  ['192.88.99.2/32', '6a44-relay anycast address', false],
  ['192.168.0.0/16', 'Private-Use', false],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service', true],
  ['198.18.0.0/15', 'Benchmarking', false],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', false],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', false],
  ['240.0.0.0/4', 'Reserved', false],
  ['255.255.255.255/32', 'Limited Broadcast', false],
]

const IPV6_REGISTRY: [block: string, name: string, reachable: Reachable][] = [
  ['::1/128', 'Loopback Address', false],
  ['::/128', 'Unspecified Address', false],
  ['::ffff:0:0/96', 'IPv4-mapped Address', false],
  ['64:ff9b::/96', 'IPv4-IPv6 Translat.', true],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat.', false],
  ['100::/64', 'Discard-Only Address Block', false],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', false],
  ['2001::/23', 'IETF Protocol Assignments', false],
  ['2001::/32', 'TEREDO', 'n/a'],
  ['2001:1::1/128', 'Port Control Protocol Anycast', true],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast', true],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', true],
  ['2001:2::/48', 'Benchmarking', false],
  ['2001:3::/32', 'AMT', true],
  ['2001:4:112::/48', 'AS112-v6', true],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', 'n/a'],
  ['2001:20::/28', 'ORCHIDv2', true],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', true],
  ['2001:db8::/32', 'Documentation', false],
  ['2002::/16', '6to4', 'n/a'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service', true],
  ['3fff::/20', 'Documentation', false],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', false],
  ['fc00::/7', 'Unique-Local', false],
  ['fe80::/10', 'Link-Local Unicast', false],
]

// Outside the special-purpose registries but no server either: IPv4 multicast (its own registry), and in IPv6
// everything outside 2000::/3, the only block allocated as global unicast (fec0::/10 site-local, ff00::/8 ...).
const IPV4_MULTICAST = '224.0.0.0/4'
const IPV6_GLOBAL_UNICAST = '2000::/3'

const v4 = (address: string) => BigInt(address.split('.').reduce((value, part) => value * 256 + Number(part), 0))
function v6(address: string): bigint {
  const [head = '', tail] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n)
}
const showV4 = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.')
const showV6 = (value: bigint) => [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((value >> shift) & 0xffffn).toString(16)).join(':')

interface Block {
  first: bigint
  last: bigint
  bits: number
  reachable: Reachable
}
function block(cidr: string, reachable: Reachable, width: 32 | 128): Block {
  const [prefix = '', bits] = cidr.split('/')
  const size = 1n << BigInt(width - Number(bits))
  const first = width === 32 ? v4(prefix) : v6(prefix)
  return { first, last: first + size - 1n, bits: Number(bits), reachable }
}
const V4_BLOCKS = IPV4_REGISTRY.map(([cidr, , reachable]) => block(cidr, reachable, 32))
const V6_BLOCKS = IPV6_REGISTRY.map(([cidr, , reachable]) => block(cidr, reachable, 128))
const mostSpecific = (blocks: Block[], value: bigint) => blocks.filter((b) => b.first <= value && value <= b.last).sort((a, b) => b.bits - a.bits)[0]

/** What the registry says of an address: the most specific block holding it decides; N/A is refused. */
function expectedV4(value: bigint): boolean {
  const multicast = block(IPV4_MULTICAST, false, 32)
  if (multicast.first <= value && value <= multicast.last) return false
  const found = mostSpecific(V4_BLOCKS, value)
  return found === undefined || found.reachable === true
}
function expectedV6(value: bigint): boolean {
  // IPv4-mapped and NAT64 addresses reach the IPv4 address they carry: as public as that one.
  if (value >> 32n === 0xffffn || value >> 32n === v6('64:ff9b::') >> 32n) return expectedV4(value & 0xffffffffn)
  const found = mostSpecific(V6_BLOCKS, value)
  if (found) return found.reachable === true
  const unicast = block(IPV6_GLOBAL_UNICAST, true, 128)
  return unicast.first <= value && value <= unicast.last
}

const allowed = (address: string) => mayConnect(address, {})

describe('the outbound policy by the IANA special-purpose registries', () => {
  test('ordinary public IPv4 and IPv6 addresses are allowed', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '9.9.9.9',
      '193.0.6.139',
      '217.160.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:82b::200e',
      '2001:67c:2e8:22::c100:68b',
    ]) {
      expect({ address, allowed: allowed(address) }).toEqual({ address, allowed: true })
    }
  })

  test('every IPv4 registry entry: inside as its "Globally Reachable" says, just outside allowed where public', () => {
    const seen: string[] = []
    for (const [cidr, name, reachable] of IPV4_REGISTRY) {
      const { first, last } = block(cidr, reachable, 32)
      const probes = [first, (first + last) / 2n, last, first - 1n, last + 1n].filter((value) => value >= 0n && value <= 0xffffffffn)
      for (const value of probes) {
        const address = showV4(value)
        expect({ cidr, name, address, allowed: allowed(address) }).toEqual({ cidr, name, address, allowed: expectedV4(value) })
        // The same address carried in IPv6, IPv4-mapped and through NAT64 (RFC 6052's well-known prefix).
        expect({ cidr, address, mapped: allowed(`::ffff:${address}`), nat64: allowed(`64:ff9b::${address}`) }).toEqual({
          cidr,
          address,
          mapped: expectedV4(value),
          nat64: expectedV4(value),
        })
        if (expectedV4(value)) seen.push(address)
      }
      // Each block the registry calls unreachable (or N/A) is refused somewhere in it: its last address, which no
      // more specific reachable entry holds.
      if (reachable !== true) expect({ cidr, last: allowed(showV4(last)) }).toEqual({ cidr, last: false })
    }
    // The neighbours outside the blocks are mostly public: the test does allow, not only refuse.
    expect(seen).toEqual(expect.arrayContaining(['1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '192.0.0.9', '192.169.0.0']))
  })

  test('every IPv6 registry entry: inside as its "Globally Reachable" says, just outside allowed where public', () => {
    const seen: string[] = []
    for (const [cidr, name, reachable] of IPV6_REGISTRY) {
      const { first, last } = block(cidr, reachable, 128)
      const probes = [first, (first + last) / 2n, last, first - 1n, last + 1n].filter((value) => value >= 0n && value < 1n << 128n)
      for (const value of probes) {
        const address = showV6(value)
        expect({ cidr, name, address, allowed: allowed(address) }).toEqual({ cidr, name, address, allowed: expectedV6(value) })
        if (expectedV6(value)) seen.push(address)
      }
      if (reachable === false) expect({ cidr, last: allowed(showV6(last)) }).toEqual({ cidr, last: false })
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        '2001:200:0:0:0:0:0:0',
        '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
        '2001:db9:0:0:0:0:0:0',
        '2003:0:0:0:0:0:0:0',
        '3fff:1000:0:0:0:0:0:0',
      ]),
    )
  })

  test('an IPv6 address that carries a private or local IPv4 address is refused, whatever the form', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:192.168.1.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::c0a8:101',
      '64:ff9b::169.254.169.254',
      '64:ff9b:1::8.8.8.8',
      '::7f00:1',
      '::127.0.0.1',
      '::8.8.8.8',
      '2002:c0a8:101::1',
      '2002:0808:0808::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'fec0::1',
      'fe80::1%eth0',
      'ff02::1',
      'ff0e::1',
    ]) {
      expect({ address, allowed: allowed(address) }).toEqual({ address, allowed: false })
    }
    for (const address of ['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b::101:101'])
      expect({ address, allowed: allowed(address) }).toEqual({ address, allowed: true })
  })

  test('loopback counts as public only when the tests ask for it, and nothing else with it', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect({ address, plain: mayConnect(address, {}), loopback: mayConnect(address, { allowLoopback: true }) }).toEqual({
        address,
        plain: false,
        loopback: true,
      })
    }
    for (const address of ['10.0.0.1', '::', '0.0.0.0', '::7f00:1', '169.254.169.254']) expect(mayConnect(address, { allowLoopback: true })).toBe(false)
  })
})
