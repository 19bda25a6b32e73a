// The TOTP secret sealed at rest (decision 041): a store made before kept it in plain text, which a copy of the
// database gave away. Same on both databases; the key comes from the process (it is never in the database).
import { sql, type Kysely } from 'kysely'
import { isSealed } from '../lib/seal.ts'
import type { MigrationContext } from './migration-step.ts'

export async function sealPlainTotpSecrets(db: Kysely<unknown>, context: MigrationContext): Promise<void> {
  const rows = (await sql<{ owner: number; secret: string }>`SELECT owner, secret FROM totp`.execute(db)).rows
  const plain = rows.filter((row) => !isSealed(row.secret))
  if (plain.length === 0) return
  if (!context.sealTotpSecret) {
    throw new Error('The TOTP secret in this database is to be sealed: open the store with its configuration (the deal key)')
  }
  for (const row of plain) {
    await sql`UPDATE totp SET secret = ${context.sealTotpSecret(row.secret)} WHERE owner = ${row.owner}`.execute(db)
  }
}
