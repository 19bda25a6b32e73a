// The table passkeys (decision 041): the owner's WebAuthn credentials, their public keys only. Plain functions over
// the store's Kysely or a unit of work's transaction (decision 060).
import type { Database } from '../schema.ts'
import type { Q } from './db.ts'

export interface NewPasskey {
  credentialId: string
  publicKey: string
  counter: number
  transports: string[]
  name: string
}

export interface PasskeyRecord extends NewPasskey {
  id: number
  createdAt: number
  lastUsedAt: number | null
}

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

export async function listPasskeys(q: Q): Promise<PasskeyRecord[]> {
  const rows = await q.selectFrom('passkeys').selectAll().orderBy('id').execute()
  return rows.map(toPasskey)
}

export async function passkeyByCredentialId(q: Q, credentialId: string): Promise<PasskeyRecord | null> {
  const row = await q.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst()
  return row ? toPasskey(row) : null
}

/** Its id; null when a passkey with this credential id exists already. */
export async function addPasskey(q: Q, passkey: NewPasskey, now: number): Promise<number | null> {
  const row = await q
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
    .executeTakeFirst()
  return row ? Number(row.id) : null
}

export async function deletePasskey(q: Q, id: number): Promise<boolean> {
  const result = await q.deleteFrom('passkeys').where('id', '=', id).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** Moves the signature counter from `counterBefore` to `counterAfter`; false when another sign-in moved it first. */
export async function usePasskey(q: Q, id: number, counterBefore: number, counterAfter: number, now: number): Promise<boolean> {
  // Only from the counter this check read: two sign-ins with one assertion race, and one of them loses here.
  const result = await q
    .updateTable('passkeys')
    .set({ counter: counterAfter, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', counterBefore)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}
