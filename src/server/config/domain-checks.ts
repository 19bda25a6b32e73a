// The daily checks of the listed names (docs/domains.md, decision 047).
import net from 'node:net'
import { z } from 'zod'
import { DNS_LABEL } from './dns.ts'

/** SERVER_ADDRESSES: this server's public IP addresses and the host names a listed name may be a CNAME of. */
const serverAddresses = z.string().transform((value, ctx) => {
  const entries = value
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean)
  const wrong = entries.find(
    (entry) => net.isIP(entry) === 0 && !(entry.length <= 253 && entry.split('.').length > 1 && entry.split('.').every((label) => DNS_LABEL.test(label))),
  )
  if (wrong !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `must list IP addresses and host names, separated by commas, e.g. 203.0.113.7,2001:db8::7,lander.example.net; ${JSON.stringify(wrong)} is neither`,
    })
    return z.NEVER
  }
  return [...new Set(entries)]
})

/** DOMAIN_CHECK_RESOLVER: IP or IP:PORT ([IPv6]:PORT) of the DNS resolver the checks ask. */
const resolverAddress = z.string().refine((value) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(value.trim()) ?? /^([0-9a-fA-F:]+)$/.exec(value.trim())
  const host = match?.[1] ?? match?.[2]
  const port = match?.[3] === undefined ? 53 : Number(match[3])
  return host !== undefined && net.isIP(host) !== 0 && port >= 1 && port <= 65535
}, 'must be the resolver as IP, IP:PORT or [IPv6]:PORT, e.g. 127.0.0.53 or 127.0.0.1:5353')

export const domainChecksEnv = z.object({
  DOMAIN_CHECKS: z.enum(['daily', 'off'], { error: 'must be daily or off' }).default('daily'),
  SERVER_ADDRESSES: serverAddresses.optional(),
  DOMAIN_CHECK_RESOLVER: resolverAddress.optional(),
})

export const domainChecksConfig = (env: z.output<typeof domainChecksEnv>) => ({
  /** The checks of the listed names (decision 047): daily in the server unless off; `domains check` any time. */
  domainChecks: { daily: env.DOMAIN_CHECKS === 'daily', serverAddresses: env.SERVER_ADDRESSES ?? [], resolver: env.DOMAIN_CHECK_RESOLVER?.trim() ?? null },
})
