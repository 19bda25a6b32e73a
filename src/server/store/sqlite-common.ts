// Write helpers shared by the SQLite store's parts.
import { guardBy } from './types.ts'

// SQLite result codes that mean "not now" rather than "never": BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN.
const TRANSIENT_CODES = [5, 6, 8, 10, 13, 14]

export function isTransientError(error: unknown): boolean {
  const e = error as { errcode?: number; code?: string }
  return e?.code === 'ERR_SQLITE_ERROR' && TRANSIENT_CODES.includes((e.errcode ?? 0) & 0xff)
}

const guard = guardBy(isTransientError)
/** Runs a write; a transient SQLite failure becomes StoreUnavailableError (503 + Retry-After for the client). */
export const guarded = guard.sync
/** The same for work through the query layer. */
export const guardedAsync = guard.async
