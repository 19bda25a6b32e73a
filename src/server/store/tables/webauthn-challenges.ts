// The table webauthn_challenges (decision 041): a passkey ceremony's challenge, taken once. Plain functions over the
// store's Kysely or a unit of work's transaction (decision 060).
import type { Q, Trx } from './db.ts'

export type ChallengePurpose = 'register' | 'sign-in'

/**
 * Challenges waiting at once: the sign-in's are handed out without a session, so a flood must not grow the table;
 * past this many the oldest go (the owner's own then fails once and is asked again).
 */
const MAX_CHALLENGES = 100

/** Stores the challenge, in the caller's transaction with the expired ones erased and the oldest beyond the limit. */
export async function putChallenge(trx: Trx, challenge: string, purpose: ChallengePurpose, sessionHash: string | null, expiresAt: number, now: number) {
  await trx.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute()
  await trx.insertInto('webauthn_challenges').values({ challenge, purpose, session_hash: sessionHash, expires_at: expiresAt }).execute()
  await trx
    .deleteFrom('webauthn_challenges')
    .where('challenge', 'in', (eb) =>
      eb.selectFrom('webauthn_challenges').select('challenge').orderBy('expires_at', 'desc').orderBy('challenge').limit(1_000_000).offset(MAX_CHALLENGES),
    )
    .execute()
}

/** Takes the challenge (it is gone afterwards); null when unknown, of another purpose, or expired. */
export async function takeChallenge(q: Q, challenge: string, purpose: ChallengePurpose, now: number): Promise<{ sessionHash: string | null } | null> {
  // Deleted in the statement that reads it: a second response with the same challenge finds nothing.
  const row = await q
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .returning(['session_hash', 'expires_at'])
    .executeTakeFirst()
  if (!row || Number(row.expires_at) <= now) return null
  return { sessionHash: row.session_hash }
}
