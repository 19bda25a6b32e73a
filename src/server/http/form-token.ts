// The form token and its signed issue time. The original form sent the token with a "hash" (a fixed secret joined
// with the token, hashed); we send, in the same field `hash`, the time the page was served and an HMAC (SHA-256,
// keyed with the secret) of token, host and that time, so the server can tell a form's age and fill time without
// storing anything per page view. The token itself is derived from host and one-second window, not drawn
// (decision 055): every page of a host in one second is the same bytes, and a submission is told apart by its token
// and its content together.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto'
import { LIMIT } from '../../shared/contact.ts'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A token stays usable this long after the page was served. */
export const TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000
/** Clocks of several servers may differ a little; a form "from the future" beyond this is forged. */
const CLOCK_SKEW_MS = 60 * 1000

// The secret as a key object, made once: an HMAC keyed with a string imports the key anew for every page
// (docs/decisions/034-request-path.md). A server has one secret; tests have a few.
const keys = new Map<string, KeyObject>()
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret)
  if (!key) {
    if (keys.size >= 16) keys.clear()
    keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))))
  }
  return key
}

function issuedAtMac(secret: string, token: string, host: string, issuedAt: number): string {
  return createHmac('sha256', keyOf(secret)).update(`${token}\n${host}\n${issuedAt}`).digest('base64url')
}

/** The signed issue time: "<issued at, ms, base 36>.<HMAC of token, host and issued at>". */
export function signToken(secret: string, token: string, host: string, issuedAt: number): string {
  return `${issuedAt.toString(36)}.${issuedAtMac(secret, token, host, issuedAt)}`
}

/** The windows tokens are derived for: one second, so that a page's bytes change at most once a second per host. */
export const TOKEN_WINDOW_MS = 1000

/**
 * The token of `host` in the window `window` (ms since the epoch / TOKEN_WINDOW_MS): 15 characters from 62,
 * uniformly. Bytes of 248 and above are skipped (248 = 4 × 62); should one digest hold too few of the others, the
 * next digest (counter 1, 2, ...) goes on. The message begins with a word holding '-', which no token holds, so it
 * can never be the message of an issue time's HMAC (token, host, time).
 */
export function deriveToken(secret: string, host: string, window: number): string {
  let token = ''
  for (let counter = 0; token.length < LIMIT.tokenLength; counter++) {
    const digest = createHmac('sha256', keyOf(secret)).update(`form-token\n${host}\n${window}\n${counter}`).digest()
    for (const byte of digest) {
      if (token.length === LIMIT.tokenLength) break
      if (byte < 248) token += ALPHABET[byte % ALPHABET.length]
    }
  }
  return token
}

/**
 * The token and signed issue time of a page served at `now`. The issue time signed is the end of its window, never
 * before the page was served, so that a fill time measured from it is never longer than the visitor's.
 */
export function issueToken(secret: string, host: string, now = Date.now()) {
  const window = Math.floor(now / TOKEN_WINDOW_MS)
  const issuedAt = (window + 1) * TOKEN_WINDOW_MS
  const token = deriveToken(secret, host, window)
  return { token, signedIssueTime: signToken(secret, token, host, issuedAt), issuedAt }
}

export type TokenCheck = { status: 'valid'; issuedAt: number } | { status: 'invalid' } | { status: 'expired' }

export function verifyToken(secret: string, token: string, host: string, signedIssueTime: string, now = Date.now()): TokenCheck {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(signedIssueTime)
  if (!match) return { status: 'invalid' }
  const issuedAt = Number.parseInt(match[1]!, 36)
  const expected = Buffer.from(issuedAtMac(secret, token, host, issuedAt))
  const given = Buffer.from(match[2]!)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { status: 'invalid' }
  if (issuedAt > now + CLOCK_SKEW_MS) return { status: 'invalid' }
  if (now - issuedAt > TOKEN_MAX_AGE_MS) return { status: 'expired' }
  return { status: 'valid', issuedAt }
}
