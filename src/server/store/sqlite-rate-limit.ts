// A store for @fastify/rate-limit in a small SQLite file of its own, so that every server process on the same
// DATA_DIR (WORKERS > 1) counts against the same limits, and a restart does not reset them.
// Counters need no durability: the file is written without fsync. Client addresses are kept only as keyed hashes.
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { createRateLimits, type RateLimits } from './rate-limit-common.ts'
import { guarded } from './sqlite-common.ts'

/** Opens (or creates) DATA_DIR/rate-limits.sqlite. */
export function sqliteRateLimitStore(dataDir: string, secret: string): RateLimits {
  const file = path.join(dataDir, 'rate-limits.sqlite')
  fs.mkdirSync(dataDir, { recursive: true })
  const db = new DatabaseSync(file, { timeout: 2000 })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = OFF')
  db.exec(`CREATE TABLE IF NOT EXISTS counters (
    scope TEXT NOT NULL, key TEXT NOT NULL, count INTEGER NOT NULL, window_start INTEGER NOT NULL, expires INTEGER NOT NULL,
    PRIMARY KEY (scope, key)) WITHOUT ROWID`)
  // One count up, a new window when the old one has run out.
  const upsert = (onlyIf: string) =>
    db.prepare(
      `INSERT INTO counters (scope, key, count, window_start, expires) VALUES (:scope, :key, 1, :now, :now + :window)
       ON CONFLICT (scope, key) DO UPDATE SET
         count = CASE WHEN expires <= :now THEN 1 ELSE count + 1 END,
         window_start = CASE WHEN expires <= :now THEN :now ELSE window_start END,
         expires = CASE WHEN expires <= :now THEN :now + :window ELSE expires END
       ${onlyIf}
       RETURNING count, expires`,
    )
  const incr = upsert('')
  // The WHERE leaves a full counter alone and returns no row: check and count are one write, which SQLite
  // serialises across every process on the file.
  const take = upsert('WHERE expires <= :now OR count < :max')
  const giveBack = db.prepare('UPDATE counters SET count = count - 1 WHERE scope = ? AND key = ? AND expires = ? AND count > 0')
  const read = db.prepare('SELECT count, expires FROM counters WHERE scope = ? AND key = ? AND expires > ?')
  const purge = db.prepare('DELETE FROM counters WHERE expires <= ?')
  purge.run(Date.now())
  let calls = 0

  return createRateLimits(
    {
      incr(scope, key, now, window) {
        // Now and then, forget counters whose window has run out.
        if (++calls % 1000 === 0) purge.run(now)
        return guarded(() => incr.get({ scope, key, now, window }) as { count: number; expires: number })
      },
      read: (scope, key, now) => read.get(scope, key, now) as { count: number; expires: number } | undefined,
      take: (scope, key, now, window, max) => guarded(() => take.get({ scope, key, now, window, max }) as { count: number; expires: number } | undefined),
      giveBack: (scope, key, expires) => void guarded(() => giveBack.run(scope, key, expires)),
    },
    secret,
    () => db.isOpen && db.close(),
  )
}
