// Random bytes for what every answer needs fresh (the console's CSP nonce), drawn from the kernel in blocks:
// one randomFillSync per request was a measured share of GET / (docs/decisions/034-request-path.md). Each byte is
// handed out once, so pooled bytes are as unpredictable as bytes drawn one request at a time.
import { randomFillSync } from 'node:crypto'

const POOL_BYTES = 8192
const pool = Buffer.allocUnsafeSlow(POOL_BYTES)
let next = POOL_BYTES

/** `n` random bytes (at most the pool's size) as offsets into the pool: read them before the next call. */
function take(n: number): number {
  if (next + n > POOL_BYTES) {
    randomFillSync(pool)
    next = 0
  }
  const at = next
  next += n
  return at
}

/** `n` random bytes as lowercase hex (2n characters). */
export function randomHex(n: number): string {
  const at = take(n)
  return pool.toString('hex', at, at + n)
}
