// The names wildcard entries let through /tls-check, in the SQLite store (see Store.approveWildcardName).
import type { DatabaseSync } from 'node:sqlite'
import { guarded, transaction } from './sqlite-common.ts'
import type { Store } from './types.ts'

export function sqliteTlsNames(db: DatabaseSync): Pick<Store, 'approveWildcardName'> {
  const q = {
    known: db.prepare('SELECT 1 AS known FROM tls_names WHERE wildcard = ? AND name = ?'),
    approvedOn: db.prepare('SELECT COUNT(*) AS count FROM tls_names WHERE wildcard = ? AND day = ?'),
    approve: db.prepare('INSERT INTO tls_names (wildcard, name, day) VALUES (?, ?, ?)'),
  }
  const known = (wildcard: string, name: string) => q.known.get(wildcard, name) !== undefined
  const full = (wildcard: string, day: string, limit: number) => (q.approvedOn.get(wildcard, day) as { count: number }).count >= limit
  return {
    async approveWildcardName({ wildcard, name, day, limit }) {
      // Known names and a spent limit are answered without the write lock; a flood of asks never takes it.
      if (known(wildcard, name)) return true
      // Read again when full: another process may have approved this very name between the two reads.
      if (full(wildcard, day, limit)) return known(wildcard, name)
      // Checked again under the lock: another process may have approved names meanwhile.
      return guarded(() =>
        transaction(db, () => {
          if (known(wildcard, name)) return true
          if (full(wildcard, day, limit)) return false
          q.approve.run(wildcard, name, day)
          return true
        }),
      )
    },
  }
}
