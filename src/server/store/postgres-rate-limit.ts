// Rate-limit counters in PostgreSQL (the rate_limit_counters table), so that every instance on the database
// counts against the same limits. Client addresses are kept only as keyed hashes.
import type pg from 'pg'
import { createPool, guardedPg } from './postgres-common.ts'
import { createRateLimits, type RateLimits } from './rate-limit-common.ts'

export function postgresRateLimitStore(databaseUrl: string, secret: string): RateLimits {
  // A small pool of its own: a flood of counted requests must not take the connections that store inquiries.
  const pool = createPool(databaseUrl, 4)
  // A lost connection or an exhausted pool means "try again" (503), as for the inquiries.
  const query = <R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[]) => guardedPg(() => pool.query<R>(sql, params))
  // One count up, a new window when the old one has run out; `onlyIf` may leave the row alone (no row returned).
  const upsert = (onlyIf: string) =>
    `INSERT INTO rate_limit_counters AS c (scope, key, count, expires) VALUES ($1, $2, 1, $3::bigint + $4::bigint)
     ON CONFLICT (scope, key) DO UPDATE SET
       count = CASE WHEN c.expires <= $3 THEN 1 ELSE c.count + 1 END,
       expires = CASE WHEN c.expires <= $3 THEN $3::bigint + $4::bigint ELSE c.expires END
     ${onlyIf}
     RETURNING count, expires`
  const INCR = upsert('')
  const TAKE = upsert('WHERE c.expires <= $3 OR c.count < $5')
  let calls = 0
  return createRateLimits(
    {
      async incr(scope, key, now, window) {
        // Now and then, forget counters whose window has run out.
        if (++calls % 1000 === 0) void pool.query('DELETE FROM rate_limit_counters WHERE expires <= $1', [now]).catch(() => {})
        const { rows } = await query<{ count: number; expires: number }>(INCR, [scope, key, now, window])
        return rows[0]!
      },
      async read(scope, key, now) {
        const { rows } = await query<{ count: number; expires: number }>(
          'SELECT count, expires FROM rate_limit_counters WHERE scope = $1 AND key = $2 AND expires > $3',
          [scope, key, now],
        )
        return rows[0]
      },
      async take(scope, key, now, window, max) {
        // ON CONFLICT locks the row and evaluates the WHERE on its latest version: concurrent takes on one
        // counter queue up, and one that finds it full gets no row back.
        const { rows } = await query<{ count: number; expires: number }>(TAKE, [scope, key, now, window, max])
        return rows[0]
      },
      async giveBack(scope, key, expires) {
        await query('UPDATE rate_limit_counters SET count = count - 1 WHERE scope = $1 AND key = $2 AND expires = $3 AND count > 0', [scope, key, expires])
      },
    },
    secret,
    () => pool.end(),
  )
}
