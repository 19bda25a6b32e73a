// Field types more than one part of the configuration uses (config.ts composes the parts into one schema).
import net from 'node:net'
import { z } from 'zod'

export const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((value) => ['true', '1', 'yes', 'on'].includes(value))

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })

/** proxy-addr's names for whole ranges, as Fastify accepts them in `trustProxy`. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (family === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
}

/**
 * Which X-Forwarded-For entries to believe: none (false), a number of proxy hops in front (true = 1: the
 * rightmost entry is the client), or the proxies' addresses and CIDR ranges (every entry from the right that is
 * one of them is skipped).
 */
export const trustProxy = z.string().transform((value, ctx): false | number | string[] => {
  const text = value.trim().toLowerCase()
  if (['false', 'no', 'off', '0'].includes(text)) return false
  if (['true', 'yes', 'on'].includes(text)) return 1
  if (/^\d+$/.test(text) && Number(text) <= 32) return Number(text) || false
  const entries = text.split(',').map((entry) => entry.trim())
  const wrong = entries.find((entry) => !isProxyAddress(entry))
  if (wrong === undefined) return entries
  ctx.addIssue({
    code: 'custom',
    message:
      `must be false, true (one proxy), a number of proxies from 1 to 32, or a comma-separated list of proxy addresses ` +
      `or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8); ${JSON.stringify(wrong)} is none of these`,
  })
  return z.NEVER
})
