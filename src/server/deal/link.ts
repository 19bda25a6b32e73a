// The deal page's link (decision 033): /kauf/<id>.<mac>, where <id> is 128 random bits and <mac> an HMAC-SHA-256
// of it (keyed with the store's secret, as the form token and the confirm link), cut to 128 bits. The store keeps
// only the SHA-256 of <id>: neither a copy of the database nor a guess gives a working link.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { DEAL_PATH } from '../lib/capability-links.ts'

export { DEAL_PATH }

const ID_BYTES = 16
const MAC_CHARS = 22
const SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/

const macOf = (secret: string, id: string) => createHmac('sha256', secret).update(`deal\n${id}`).digest('base64url').slice(0, MAC_CHARS)
const linkHashOf = (id: string) => createHash('sha256').update(id).digest('hex')

/** A new link: the token for the URL, and the hash the store keeps. */
export function newDealLink(secret: string): { token: string; linkHash: string } {
  const id = randomBytes(ID_BYTES).toString('base64url')
  return { token: `${id}.${macOf(secret, id)}`, linkHash: linkHashOf(id) }
}

/** Always https, as the confirm link: the page sits behind the TLS terminator. `domain`: ASCII. */
export const dealUrl = (domain: string, token: string) => `https://${domain}${DEAL_PATH}/${token}`

/**
 * The hash to look the deal up by, or null for a token we did not sign. The same work is done for every token,
 * well-formed or not (an HMAC and a constant-time compare), so a wrong one cannot be told from a forged one by time.
 */
export function readDealToken(secret: string, token: unknown): string | null {
  const match = typeof token === 'string' ? SHAPE.exec(token) : null
  const id = match?.[1] ?? 'A'.repeat(ID_BYTES + 6)
  const expected = Buffer.from(macOf(secret, id))
  const given = Buffer.from(match?.[2] ?? '-'.repeat(MAC_CHARS))
  const valid = timingSafeEqual(expected, given) && match !== null
  return valid ? linkHashOf(id) : null
}
