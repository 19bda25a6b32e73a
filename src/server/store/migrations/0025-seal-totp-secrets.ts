// The TOTP secret sealed at rest (decision 041): a store made before kept it in plain text, which a copy of the
// database gave away. Same on both databases; the key comes from the process (it is never in the database).
import { isSealed } from '../../lib/seal.ts'
import type { SchemaDb, StepContext } from '../migration-step.ts'

export async function up(db: SchemaDb, context: StepContext) {
  const rows: { owner: number; secret: string }[] = await db.selectFrom('totp').select(['owner', 'secret']).execute()
  const plain = rows.filter((row) => !isSealed(row.secret))
  if (plain.length === 0) return
  if (!context.sealTotpSecret) {
    throw new Error('The TOTP secret in this database is to be sealed: open the store with its configuration (the deal key)')
  }
  for (const row of plain) {
    await db
      .updateTable('totp')
      .set({ secret: context.sealTotpSecret(row.secret) })
      .where('owner', '=', row.owner)
      .execute()
  }
}
