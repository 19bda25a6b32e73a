// The tables totp and recovery_codes (decision 041): the TOTP second factor, its secret sealed by the caller with a
// key outside the database, and the recovery codes' hashes. Plain functions over the store's Kysely or a unit of
// work's transaction (decision 060).
import type { Q, Trx } from './db.ts'

export interface TotpRecord {
  /** Sealed with the deal key (lib/seal.ts): the store never sees the secret itself. */
  secret: string
  confirmedAt: number | null
  lastStep: number
}

export async function totp(q: Q): Promise<TotpRecord | null> {
  const row = await q.selectFrom('totp').selectAll().executeTakeFirst()
  return row ? { secret: row.secret, confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at), lastStep: Number(row.last_step) } : null
}

/** A new secret being set up, in the caller's transaction; false when a confirmed one is on. */
export async function startTotp(trx: Trx, secret: string, now: number): Promise<boolean> {
  // A factor that is on stays on until it is switched off: setting up anew is for one not yet confirmed.
  const current = await trx.selectFrom('totp').select('confirmed_at').executeTakeFirst()
  if (current && current.confirmed_at !== null) return false
  await trx.deleteFrom('totp').execute()
  await trx.insertInto('totp').values({ owner: 1, secret, confirmed_at: null, last_step: 0, created_at: now }).execute()
  return true
}

/** Switches the factor on with its first code's time step; false when `secret` is not the one being set up. */
export async function confirmTotp(q: Q, secret: string, step: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('totp')
    .set({ confirmed_at: now, last_step: step })
    .where('secret', '=', secret)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** The recovery codes' hashes in place of the ones before. */
export async function replaceRecoveryCodes(trx: Trx, hashes: readonly string[]): Promise<void> {
  await trx.deleteFrom('recovery_codes').execute()
  await trx
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ code_hash, used_at: null })))
    .execute()
}

/** Marks a time step used; false when it, or a later one, was used already (a replayed code). */
export async function useTotpStep(q: Q, step: number): Promise<boolean> {
  // Only forwards: a code already used (or an older one) within its window is refused.
  const result = await q.updateTable('totp').set({ last_step: step }).where('confirmed_at', 'is not', null).where('last_step', '<', step).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function useRecoveryCode(q: Q, codeHash: string, now: number): Promise<boolean> {
  const result = await q.updateTable('recovery_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function recoveryCodesLeft(q: Q): Promise<number> {
  const row = await q
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

/** The factor and its recovery codes erased. */
export async function eraseSecondFactor(trx: Trx): Promise<void> {
  await trx.deleteFrom('totp').execute()
  await trx.deleteFrom('recovery_codes').execute()
}
