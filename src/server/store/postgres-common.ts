// Connections, transactions and error mapping shared by the PostgreSQL store's parts.
import pg from 'pg'
import { guardBy } from './types.ts'

// Epoch milliseconds and counts are BIGINT in PostgreSQL; node-postgres hands those over as strings unless told
// otherwise. Every such value here is far below 2^53.
const INT8 = 20
export const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/**
 * Errors that mean "not now" rather than "never": the server is unreachable or restarting, out of disk or
 * connections, or a transaction lost a conflict. The client is told to retry (503), never "ok".
 */
function isTransientPgError(error: unknown): boolean {
  const e = error as { code?: string; message?: string }
  const code = e?.code ?? ''
  if (/^(08|53|57P|40)/.test(code) || code === '25006') return true
  if (/^E[A-Z]+$/.test(code)) return true // a system error on the socket: ECONNREFUSED, ECONNRESET, ETIMEDOUT ...
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e?.message ?? '')
}

export const guardedPg = guardBy(isTransientPgError).async

export function createPool(databaseUrl: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, types: pgTypes, connectionTimeoutMillis: 3000, idleTimeoutMillis: 30_000 })
  // An idle connection that breaks (the database restarted) must not crash the process: the pool drops it and
  // the next query opens a new one.
  pool.on('error', () => {})
  // The same for a connection that breaks while it is checked out (the query layer holds one per query or
  // transaction): the query on it fails and says so; the event alone would crash the process.
  pool.on('connect', (client) => client.on('error', () => {}))
  return pool
}
