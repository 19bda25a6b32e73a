// The Store's sign-in methods (the console, decision 041) over their tables' functions (decision 060): the owner's
// password and sessions (tables/sessions.ts), passkeys and their challenges, the TOTP second factor and recovery
// codes. Each one query, or one unit of work where a change spans tables.
import { writer, type DialectSpecifics } from './dialect.ts'
import type { Db } from './tables/db.ts'
import * as passkeys from './tables/passkeys.ts'
import * as secondFactor from './tables/second-factor.ts'
import * as sessions from './tables/sessions.ts'
import { putChallenge, takeChallenge } from './tables/webauthn-challenges.ts'
import type { Store } from './types.ts'
import { unitOfWork } from './unit-of-work.ts'

type SignInStore = Pick<
  Store,
  | 'ownerPassword'
  | 'setOwnerPassword'
  | 'createSession'
  | 'useSession'
  | 'deleteSession'
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
 * A session used again within this long is not written again: the console sends several requests a page, and idle
 * expiry (hours) does not need the last minute.
 */
const TOUCH_AFTER_MS = 60_000

export function signInStore(db: Db, dialect: DialectSpecifics): SignInStore {
  const { guard } = dialect
  const write = writer(dialect)
  const transact = unitOfWork(db, dialect)
  return {
    ownerPassword: () => guard(() => sessions.ownerPassword(db)),
    // One transaction: no session signed in with the old password survives the new one.
    setOwnerPassword: (hash) =>
      transact(async ({ trx }) => {
        await sessions.setOwnerPassword(trx, hash)
        await sessions.deleteSessions(trx)
      }),
    createSession: (idHash, now, details) => write(() => sessions.createSession(db, idHash, now, details)),
    async useSession(idHash, now, idleMs, maxMs) {
      const row = await guard(() => sessions.sessionTimes(db, idHash))
      if (!row) return false
      if (now - row.last_seen_at >= idleMs || now - row.created_at >= maxMs) {
        await write(() => sessions.deleteExpiredSessions(db, idHash, now, idleMs, maxMs))
        return false
      }
      if (now - row.last_seen_at >= TOUCH_AFTER_MS) await write(() => sessions.touchSession(db, idHash, now))
      return true
    },
    deleteSession: (idHash) => write(() => sessions.deleteSession(db, idHash)),
    listSessions: (now, idleMs, maxMs) => guard(() => sessions.listSessions(db, now, idleMs, maxMs)),
    deleteAllSessions: () => write(() => sessions.deleteSessions(db)),
    listPasskeys: () => guard(() => passkeys.listPasskeys(db)),
    passkeyByCredentialId: (credentialId) => guard(() => passkeys.passkeyByCredentialId(db, credentialId)),
    addPasskey: (passkey, now) => write(() => passkeys.addPasskey(db, passkey, now)),
    deletePasskey: (id) => write(() => passkeys.deletePasskey(db, id)),
    usePasskey: (id, counterBefore, counterAfter, now) => write(() => passkeys.usePasskey(db, id, counterBefore, counterAfter, now)),
    putChallenge: (challenge, purpose, sessionHash, expiresAt, now) =>
      transact(({ trx }) => putChallenge(trx, challenge, purpose, sessionHash, expiresAt, now)),
    takeChallenge: (challenge, purpose, now) => write(() => takeChallenge(db, challenge, purpose, now)),
    totp: () => guard(() => secondFactor.totp(db)),
    startTotp: (secret, now) => transact(({ trx }) => secondFactor.startTotp(trx, secret, now)),
    confirmTotp: (secret, step, recoveryHashes, now, keepSession) =>
      transact(async ({ trx }) => {
        if (!(await secondFactor.confirmTotp(trx, secret, step, now))) return false
        await secondFactor.replaceRecoveryCodes(trx, recoveryHashes)
        // A session opened with the password alone (perhaps by whoever made the owner switch the factor on) does not
        // outlive it; in the same transaction, so that none is opened in between and kept.
        await sessions.deleteSessions(trx, keepSession)
        return true
      }),
    useTotpStep: (step) => write(() => secondFactor.useTotpStep(db, step)),
    useRecoveryCode: (codeHash, now) => write(() => secondFactor.useRecoveryCode(db, codeHash, now)),
    recoveryCodesLeft: () => guard(() => secondFactor.recoveryCodesLeft(db)),
    resetSecondFactor: () =>
      transact(async ({ trx }) => {
        await secondFactor.eraseSecondFactor(trx)
        await sessions.deleteSessions(trx)
      }),
  }
}
