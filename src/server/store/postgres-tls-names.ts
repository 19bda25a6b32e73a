// The names wildcard entries let through /tls-check, in the PostgreSQL store (see Store.approveWildcardName).
import type pg from 'pg'
import { guardedPg, transactionPg } from './postgres-common.ts'
import type { Store } from './types.ts'

type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>

/** Any fixed number: with the wildcard's hash, the advisory lock under which one wildcard's names are counted. */
const TLS_NAMES_LOCK = 4_711_002

const KNOWN = 'SELECT 1 AS known FROM tls_names WHERE wildcard = $1 AND name = $2'
const APPROVED_ON = 'SELECT COUNT(*)::int AS count FROM tls_names WHERE wildcard = $1 AND day = $2'

export function postgresTlsNames(pool: pg.Pool, query: Query): Pick<Store, 'approveWildcardName'> {
  return {
    async approveWildcardName({ wildcard, name, day, limit }) {
      // Known names and a spent limit are answered without a lock or a transaction.
      const known = async () => (await query(KNOWN, [wildcard, name])).length > 0
      if (await known()) return true
      // Read again when full: another instance may have approved this very name between the two reads.
      if ((await query<{ count: number }>(APPROVED_ON, [wildcard, day]))[0]!.count >= limit) return known()
      // Two instances approving names under one wildcard at once would both see room for one more: they take
      // turns, and check again under the lock.
      return guardedPg(() =>
        transactionPg(pool, async (client) => {
          await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [TLS_NAMES_LOCK, wildcard])
          if ((await client.query(KNOWN, [wildcard, name])).rows.length > 0) return true
          if ((await client.query<{ count: number }>(APPROVED_ON, [wildcard, day])).rows[0]!.count >= limit) return false
          await client.query('INSERT INTO tls_names (wildcard, name, day) VALUES ($1, $2, $3)', [wildcard, name, day])
          return true
        }),
      )
    },
  }
}
