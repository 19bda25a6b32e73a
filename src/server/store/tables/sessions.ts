// The table sessions (the console's sign-in, decision 041) and the owner's password beside it (a row of meta). Plain
// functions over the store's Kysely or a unit of work's transaction (decision 060). Only hashes are stored: the
// password's scrypt hash (admin/password.ts) and the SHA-256 of each session id (admin/session/).
import type { Q } from './db.ts'

/** What the sessions page shows of a session (decision 041). */
export interface SessionDetails {
  userAgent: string | null
  address: string | null
  method: string
}

export interface SessionListing {
  idHash: string
  createdAt: number
  lastSeenAt: number
  userAgent: string | null
  address: string | null
  method: string | null
}

const PASSWORD_KEY = 'owner-password'

/** The owner's password hash, or null when none is set. */
export async function ownerPassword(q: Q): Promise<string | null> {
  const row = await q.selectFrom('meta').select('value').where('key', '=', PASSWORD_KEY).executeTakeFirst()
  return row?.value ?? null
}

export async function setOwnerPassword(q: Q, hash: string): Promise<void> {
  await q
    .insertInto('meta')
    .values({ key: PASSWORD_KEY, value: hash })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute()
}

export async function createSession(q: Q, idHash: string, now: number, details?: SessionDetails): Promise<void> {
  await q
    .insertInto('sessions')
    .values({
      id_hash: idHash,
      created_at: now,
      last_seen_at: now,
      user_agent: details?.userAgent ?? null,
      address: details?.address ?? null,
      method: details?.method ?? null,
    })
    .execute()
}

/** When the session began and was last used, or undefined when there is none. */
export const sessionTimes = (q: Q, idHash: string) =>
  q.selectFrom('sessions').select(['created_at', 'last_seen_at']).where('id_hash', '=', idHash).executeTakeFirst()

/** Removes the session, and with it every other expired one: a browser that never comes back leaves its row behind. */
export async function deleteExpiredSessions(q: Q, idHash: string, now: number, idleMs: number, maxMs: number): Promise<void> {
  await q
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('id_hash', '=', idHash), eb('last_seen_at', '<=', now - idleMs), eb('created_at', '<=', now - maxMs)]))
    .execute()
}

/** The session counts as used at `now`; never backwards: another process may have seen it later than this request. */
export async function touchSession(q: Q, idHash: string, now: number): Promise<void> {
  await q.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).where('last_seen_at', '<', now).execute()
}

export async function deleteSession(q: Q, idHash: string): Promise<void> {
  await q.deleteFrom('sessions').where('id_hash', '=', idHash).execute()
}

/** Ends every session, or every one but `keep`. */
export async function deleteSessions(q: Q, keep: string | null = null): Promise<void> {
  await q
    .deleteFrom('sessions')
    .$if(keep !== null, (qb) => qb.where('id_hash', '!=', keep!))
    .execute()
}

/** The sessions valid now, the last used first (decision 041). */
export async function listSessions(q: Q, now: number, idleMs: number, maxMs: number): Promise<SessionListing[]> {
  const rows = await q
    .selectFrom('sessions')
    .selectAll()
    .where('last_seen_at', '>', now - idleMs)
    .where('created_at', '>', now - maxMs)
    .orderBy('last_seen_at', 'desc')
    .execute()
  return rows.map((row) => ({
    idHash: row.id_hash,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    userAgent: row.user_agent,
    address: row.address,
    method: row.method,
  }))
}
