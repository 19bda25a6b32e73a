// Finding a person's inquiries in every spelling of their address (decision 030, store/privacy.ts): the local part
// up to its first "+", without dots, in lower case; the domain's spellings need IDNA, which is done on the rows found.
// The expression is the one privacy.ts queries with, in each database's functions.
import { sql } from 'kysely'
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { analyze } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await db.schema.dropIndex('inquiries_email').execute()
  const stem =
    dialect === 'sqlite'
      ? sql`lower(replace(substr(email, 1, CASE WHEN instr(email, '+') BETWEEN 1 AND instr(email, '@') THEN instr(email, '+') ELSE instr(email, '@') END - 1), '.', ''))`
      : sql`lower(replace(split_part(split_part(email, '@', 1), '+', 1), '.', ''))`
  await db.schema.createIndex('inquiries_email_stem').on('inquiries').expression(stem).execute()
  await analyze(db, 'inquiries')
}
