// The owner's password and sign-in sessions (the console). Same for both databases. Only hashes are stored: the
// password's scrypt hash (admin/password.ts) and the SHA-256 of each session id (admin/session/).
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import type { Store } from './types.ts'
import { writer, type DialectSpecifics } from './dialect.ts'

type SessionStore = Pick<Store, 'ownerPassword' | 'setOwnerPassword' | 'createSession' | 'useSession' | 'deleteSession'>

const PASSWORD_KEY = 'owner-password'

/**
 * A session used again within this long is not written again: the console sends several requests a page, and idle
 * expiry (hours) does not need the last minute.
 */
const TOUCH_AFTER_MS = 60_000

export function sessionStore(db: Kysely<Database>, dialect: DialectSpecifics): SessionStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async ownerPassword() {
      const row = await guard(() => db.selectFrom('meta').select('value').where('key', '=', PASSWORD_KEY).executeTakeFirst())
      return row?.value ?? null
    },
    async setOwnerPassword(hash) {
      // One transaction: no session signed in with the old password survives the new one.
      await write(() =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('meta')
            .values({ key: PASSWORD_KEY, value: hash })
            .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
            .execute()
          await trx.deleteFrom('sessions').execute()
        }),
      )
    },
    async createSession(idHash, now, details) {
      await write(() =>
        db
          .insertInto('sessions')
          .values({
            id_hash: idHash,
            created_at: now,
            last_seen_at: now,
            user_agent: details?.userAgent ?? null,
            address: details?.address ?? null,
            method: details?.method ?? null,
          })
          .execute(),
      )
    },
    async useSession(idHash, now, idleMs, maxMs) {
      const row = await guard(() => db.selectFrom('sessions').select(['created_at', 'last_seen_at']).where('id_hash', '=', idHash).executeTakeFirst())
      if (!row) return false
      if (now - row.last_seen_at >= idleMs || now - row.created_at >= maxMs) {
        // With it every other expired session goes too: a browser that never comes back leaves its row behind.
        await write(() =>
          db
            .deleteFrom('sessions')
            .where((eb) => eb.or([eb('id_hash', '=', idHash), eb('last_seen_at', '<=', now - idleMs), eb('created_at', '<=', now - maxMs)]))
            .execute(),
        )
        return false
      }
      if (now - row.last_seen_at >= TOUCH_AFTER_MS) {
        await write(() =>
          db
            .updateTable('sessions')
            .set({ last_seen_at: now })
            .where('id_hash', '=', idHash)
            // Never backwards: another process may have seen the session later than this request.
            .where('last_seen_at', '<', now)
            .execute(),
        )
      }
      return true
    },
    async deleteSession(idHash) {
      await write(() => db.deleteFrom('sessions').where('id_hash', '=', idHash).execute())
    },
  }
}
