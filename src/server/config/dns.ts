// RFC 2136 updates of the _for-sale records on the owner's authoritative DNS server (docs/dns.md, decision 045).
import net from 'node:net'
import { z } from 'zod'

/** A TSIG key's secret (base64) as bytes, or null when it is not base64 of at least 16 bytes. */
function tsigSecret(value: string): Buffer | null {
  const text = value.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null
  const bytes = Buffer.from(text, 'base64')
  return bytes.length >= 16 ? bytes : null
}

export const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/
/** A DNS name in ASCII (a zone or a key name), lower case, without the final dot. */
const dnsName = (example: string) =>
  z
    .string()
    .transform((value) => value.trim().toLowerCase().replace(/\.$/, ''))
    .refine(
      (value) => value.length > 0 && value.length <= 253 && value.split('.').every((label) => DNS_LABEL.test(label)),
      `must be a DNS name in ASCII, ${example}`,
    )

const dnsZones = z.string().transform((value, ctx) => {
  const zones = value
    .split(',')
    .map((zone) => zone.trim())
    .filter(Boolean)
  const parsed = zones.map((zone) => dnsName('').safeParse(zone))
  const wrong = parsed.findIndex((result) => !result.success)
  if (zones.length === 0 || wrong !== -1) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of zones in ASCII (punycode), e.g. example.com,example.de${wrong === -1 ? '' : `; ${JSON.stringify(zones[wrong])} is not one`}`,
    })
    return z.NEVER
  }
  return [...new Set(parsed.map((result) => result.data!))]
})

/** HOST, HOST:PORT or [IPv6]:PORT of the DNS server; port 53 unless given. */
const dnsServer = z.string().transform((value, ctx) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/.exec(value.trim()) ?? /^([0-9a-fA-F:]+)$/.exec(value.trim())
  const host = match?.[1] ?? match?.[2]
  const port = match?.[3] === undefined ? 53 : Number(match[3])
  const hostOk = host !== undefined && (net.isIP(host) !== 0 || /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/i.test(host))
  if (!hostOk || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'must be the DNS server as HOST, HOST:PORT or [IPv6]:PORT, e.g. ns1.example.net or 192.0.2.53:53' })
    return z.NEVER
  }
  return { host: host!, port }
})

export const dnsUpdateEnv = z.object({
  DNS_UPDATE_SERVER: dnsServer.optional(),
  DNS_UPDATE_ZONES: dnsZones.optional(),
  DNS_UPDATE_KEY_NAME: dnsName('a key name such as lander-key').optional(),
  DNS_UPDATE_KEY_SECRET: z
    .string()
    .refine(
      (value) => tsigSecret(value) !== null,
      "must be the key's secret in base64, at least 16 bytes (e.g. from: tsig-keygen -a hmac-sha256 lander-key, or keymgr -t lander-key hmac-sha256)",
    )
    .optional(),
})

type DnsUpdateEnv = z.output<typeof dnsUpdateEnv>

const TOGETHER = ['DNS_UPDATE_SERVER', 'DNS_UPDATE_KEY_NAME', 'DNS_UPDATE_KEY_SECRET'] as const

export function checkDnsUpdate(env: DnsUpdateEnv, ctx: z.RefinementCtx): void {
  const dnsSet = TOGETHER.filter((key) => env[key] !== undefined)
  if ((dnsSet.length > 0 || env.DNS_UPDATE_ZONES) && dnsSet.length < 3) {
    for (const key of TOGETHER.filter((key) => env[key] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'is required for DNS updates: DNS_UPDATE_SERVER, DNS_UPDATE_KEY_NAME and DNS_UPDATE_KEY_SECRET go together',
      })
    }
  }
}

export const dnsUpdateConfig = (env: DnsUpdateEnv) => ({
  /** RFC 2136 updates of the _for-sale records (decision 045); null: not set up. */
  dnsUpdate:
    env.DNS_UPDATE_SERVER && env.DNS_UPDATE_KEY_NAME && env.DNS_UPDATE_KEY_SECRET
      ? {
          ...env.DNS_UPDATE_SERVER,
          /** Null: every name is a zone of its own. */
          zones: env.DNS_UPDATE_ZONES ?? null,
          key: { name: `${env.DNS_UPDATE_KEY_NAME}.`, secret: tsigSecret(env.DNS_UPDATE_KEY_SECRET)! },
        }
      : null,
})
