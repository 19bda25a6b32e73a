// The signed link of a verify mail (decision 021): it carries the inquiry's id and when it expires, with an HMAC
// (SHA-256, keyed with the store's secret, as the form token is) over both, the domain and the inquiry's form token.
// Nothing is stored per link; a link cannot be moved to another inquiry, domain or expiry without the secret.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** How long an unconfirmed inquiry waits for its link, which is valid exactly as long; the store erases it then. */
export const UNCONFIRMED_TTL_MS = 48 * 60 * 60 * 1000

export const CONFIRM_PATH = '/bestaetigen'

interface LinkTarget {
  id: number
  /** The inquiry's form token: a link for an erased inquiry does not fit a later one that got its id. */
  token: string
  /** ASCII (punycode). */
  domain: string
  createdAt: number
}

const mac = (secret: string, target: Omit<LinkTarget, 'createdAt'>, expiresAt: number) =>
  createHmac('sha256', secret).update(`confirm\n${target.id}\n${target.token}\n${target.domain}\n${expiresAt}`).digest('base64url')

/** The link's `t`: "<id, base 36>.<expiry, ms, base 36>.<HMAC>". */
export function signConfirmToken(secret: string, target: LinkTarget): string {
  const expiresAt = target.createdAt + UNCONFIRMED_TTL_MS
  return `${target.id.toString(36)}.${expiresAt.toString(36)}.${mac(secret, target, expiresAt)}`
}

/**
 * Always https: the public port sits behind the TLS terminator (deploy/), and a link in a mail should not send the
 * visitor over plain http first.
 */
export const confirmUrl = (secret: string, target: LinkTarget) => `https://${target.domain}${CONFIRM_PATH}?t=${signConfirmToken(secret, target)}`

const SHAPE = /^([0-9a-z]{1,11})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/

/** The id and expiry a token claims, before it can be checked (that needs the inquiry's form token); null if malformed. */
export function readConfirmToken(t: unknown): { id: number; expiresAt: number; signature: string } | null {
  const match = typeof t === 'string' ? SHAPE.exec(t) : null
  if (!match) return null
  const id = Number.parseInt(match[1]!, 36)
  const expiresAt = Number.parseInt(match[2]!, 36)
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(expiresAt)) return null
  return { id, expiresAt, signature: match[3]! }
}

export type LinkCheck = 'valid' | 'invalid' | 'expired'

/** Whether the token was signed for this inquiry (and domain), and whether it is still in time. */
export function checkConfirmToken(
  secret: string,
  token: { expiresAt: number; signature: string },
  target: Omit<LinkTarget, 'createdAt'>,
  now: number,
): LinkCheck {
  const expected = Buffer.from(mac(secret, target, token.expiresAt))
  const given = Buffer.from(token.signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid'
  return now < token.expiresAt ? 'valid' : 'expired'
}
