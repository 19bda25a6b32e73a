// The owner's password: rules for a new one, and its scrypt hash (docs/decisions/016). The hash string carries its
// own parameters, so that stronger ones later still verify the hashes made with these.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { COMMON_PASSWORDS } from './common-passwords.ts'

const MIN_PASSWORD_LENGTH = 12

/** Why a new password is refused, or null when it may be used. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'this password is one of the most common ones: choose another'
  return null
}

/** N = 2^15, r = 8: 32 MiB and some 50 to 100 ms per hash (OWASP's minimum is 2^17 with r = 8 and p = 1 at 128 MiB). */
const COST = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LENGTH = 32

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    // Twice the memory scrypt needs (128 * N * r bytes): Node refuses above `maxmem`, 32 MiB unless told.
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )

/**
 * `cost` is for tests that count sign-ins rather than hash them: the hash names its own parameters, so a cheap one
 * verifies in a millisecond. Every caller in the product takes COST.
 */
export async function hashPassword(password: string, cost: typeof COST = COST): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

const HASH_FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([\w-]+)\$([\w-]+)$/

/** A stand-in for "no password set" or a damaged hash: verifying against it costs the same and never matches. */
const NO_MATCH = { N: COST.N, r: COST.r, p: COST.p, salt: Buffer.alloc(16), key: null }

function parse(hash: string | null) {
  const match = hash === null ? null : HASH_FORMAT.exec(hash)
  if (!match) return NO_MATCH
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])]
  // A hash string is ours, but a damaged one must not make us allocate gigabytes.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return NO_MATCH
  return { N, r, p, salt: Buffer.from(match[4]!, 'base64url'), key: Buffer.from(match[5]!, 'base64url') }
}

/**
 * Whether `password` is the one `hash` was made from. Always derives a key, also without a hash: a wrong guess takes
 * as long whatever made it wrong.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const stored = parse(hash)
  const key = await derive(password, stored.salt, { N: stored.N, r: stored.r, p: stored.p })
  return stored.key !== null && stored.key.length === key.length && timingSafeEqual(stored.key, key)
}
