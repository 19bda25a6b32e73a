// Passkeys, WebAuthn challenges, the TOTP second factor, recovery codes and the sessions page (decision 041). Same
// for both databases. Only what verifies is stored: public keys, the hashes of recovery codes; the TOTP secret,
// which verifying needs, sealed by the caller with a key outside the database.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import type { PasskeyRecord, Store } from './types.ts'
import { writer, type DialectSpecifics } from './dialect.ts'

type SignInStore = Pick<
  Store,
  | 'listSessions'
  | 'deleteAllSessions'
  | 'listPasskeys'
  | 'passkeyByCredentialId'
  | 'addPasskey'
  | 'deletePasskey'
  | 'usePasskey'
  | 'putChallenge'
  | 'takeChallenge'
  | 'totp'
  | 'startTotp'
  | 'confirmTotp'
  | 'useTotpStep'
  | 'useRecoveryCode'
  | 'recoveryCodesLeft'
  | 'resetSecondFactor'
>

/**
 * Challenges waiting at once: the sign-in's are handed out without a session, so a flood must not grow the table;
 * past this many the oldest go (the owner's own then fails once and is asked again).
 */
const MAX_CHALLENGES = 100

type PasskeyRow = Database['passkeys']

const toPasskey = (row: Omit<PasskeyRow, 'id'> & { id: number }): PasskeyRecord => ({
  id: Number(row.id),
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: JSON.parse(row.transports) as string[],
  name: row.name,
  createdAt: Number(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
})

export function signInStore(db: Kysely<Database>, dialect: DialectSpecifics): SignInStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async listSessions(now, idleMs, maxMs) {
      const rows = await guard(() =>
        db
          .selectFrom('sessions')
          .selectAll()
          .where('last_seen_at', '>', now - idleMs)
          .where('created_at', '>', now - maxMs)
          .orderBy('last_seen_at', 'desc')
          .execute(),
      )
      return rows.map((row) => ({
        idHash: row.id_hash,
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
        userAgent: row.user_agent,
        address: row.address,
        method: row.method,
      }))
    },
    async deleteAllSessions() {
      await write(() => db.deleteFrom('sessions').execute())
    },
    async listPasskeys() {
      const rows = await guard(() => db.selectFrom('passkeys').selectAll().orderBy('id').execute())
      return rows.map(toPasskey)
    },
    async passkeyByCredentialId(credentialId) {
      const row = await guard(() => db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst())
      return row ? toPasskey(row) : null
    },
    async addPasskey(passkey, now) {
      const row = await write(() =>
        db
          .insertInto('passkeys')
          .values({
            credential_id: passkey.credentialId,
            public_key: passkey.publicKey,
            counter: passkey.counter,
            transports: JSON.stringify(passkey.transports),
            name: passkey.name,
            created_at: now,
            last_used_at: null,
          })
          .onConflict((oc) => oc.column('credential_id').doNothing())
          .returning('id')
          .executeTakeFirst(),
      )
      return row ? Number(row.id) : null
    },
    async deletePasskey(id) {
      const result = await write(() => db.deleteFrom('passkeys').where('id', '=', id).executeTakeFirst())
      return Number(result.numDeletedRows) > 0
    },
    async usePasskey(id, counterBefore, counterAfter, now) {
      // Only from the counter this check read: two sign-ins with one assertion race, and one of them loses here.
      const result = await write(() =>
        db
          .updateTable('passkeys')
          .set({ counter: counterAfter, last_used_at: now })
          .where('id', '=', id)
          .where('counter', '=', counterBefore)
          .executeTakeFirst(),
      )
      return Number(result.numUpdatedRows) > 0
    },
    async putChallenge(challenge, purpose, sessionHash, expiresAt, now) {
      await write(() =>
        db.transaction().execute(async (trx) => {
          await trx.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute()
          await trx.insertInto('webauthn_challenges').values({ challenge, purpose, session_hash: sessionHash, expires_at: expiresAt }).execute()
          await trx
            .deleteFrom('webauthn_challenges')
            .where('challenge', 'in', (eb) =>
              eb
                .selectFrom('webauthn_challenges')
                .select('challenge')
                .orderBy('expires_at', 'desc')
                .orderBy('challenge')
                .limit(1_000_000)
                .offset(MAX_CHALLENGES),
            )
            .execute()
        }),
      )
    },
    async takeChallenge(challenge, purpose, now) {
      // Deleted in the statement that reads it: a second response with the same challenge finds nothing.
      const row = await write(() =>
        db
          .deleteFrom('webauthn_challenges')
          .where('challenge', '=', challenge)
          .where('purpose', '=', purpose)
          .returning(['session_hash', 'expires_at'])
          .executeTakeFirst(),
      )
      if (!row || Number(row.expires_at) <= now) return null
      return { sessionHash: row.session_hash }
    },
    async totp() {
      const row = await guard(() => db.selectFrom('totp').selectAll().executeTakeFirst())
      return row ? { secret: row.secret, confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at), lastStep: Number(row.last_step) } : null
    },
    async startTotp(secret, now) {
      // A factor that is on stays on until it is switched off: setting up anew is for one not yet confirmed.
      return write(() =>
        db.transaction().execute(async (trx) => {
          const current = await trx.selectFrom('totp').select('confirmed_at').executeTakeFirst()
          if (current && current.confirmed_at !== null) return false
          await trx.deleteFrom('totp').execute()
          await trx.insertInto('totp').values({ owner: 1, secret, confirmed_at: null, last_step: 0, created_at: now }).execute()
          return true
        }),
      )
    },
    async confirmTotp(secret, step, recoveryHashes, now, keepSession) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable('totp')
            .set({ confirmed_at: now, last_step: step })
            .where('secret', '=', secret)
            .where('confirmed_at', 'is', null)
            .executeTakeFirst()
          if (Number(result.numUpdatedRows) === 0) return false
          await trx.deleteFrom('recovery_codes').execute()
          await trx
            .insertInto('recovery_codes')
            .values(recoveryHashes.map((code_hash) => ({ code_hash, used_at: null })))
            .execute()
          // A session opened with the password alone (perhaps by whoever made the owner switch the factor on) does not
          // outlive it; in the same transaction, so that none is opened in between and kept.
          await trx
            .deleteFrom('sessions')
            .$if(keepSession !== null, (qb) => qb.where('id_hash', '!=', keepSession!))
            .execute()
          return true
        }),
      )
    },
    async useTotpStep(step) {
      // Only forwards: a code already used (or an older one) within its window is refused.
      const result = await write(() =>
        db.updateTable('totp').set({ last_step: step }).where('confirmed_at', 'is not', null).where('last_step', '<', step).executeTakeFirst(),
      )
      return Number(result.numUpdatedRows) > 0
    },
    async useRecoveryCode(codeHash, now) {
      const result = await write(() =>
        db.updateTable('recovery_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst(),
      )
      return Number(result.numUpdatedRows) > 0
    },
    async recoveryCodesLeft() {
      const row = await guard(() =>
        db
          .selectFrom('recovery_codes')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('used_at', 'is', null)
          .executeTakeFirst(),
      )
      return Number(row?.count ?? 0)
    },
    async resetSecondFactor() {
      await write(() =>
        db.transaction().execute(async (trx) => {
          await trx.deleteFrom('totp').execute()
          await trx.deleteFrom('recovery_codes').execute()
          await trx.deleteFrom('sessions').execute()
        }),
      )
    },
  }
}
