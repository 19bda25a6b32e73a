// The table meta (decision 060): small keyed values of the store itself.
import type { Q } from './db.ts'

/** The readiness check's write (health/route.ts): one small row, so that a store that takes no writes shows. */
export async function writeReadyCheck(q: Q, now: number): Promise<void> {
  await q
    .insertInto('meta')
    .values({ key: 'ready-check', value: String(now) })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute()
}
