// A schema step (migrations/): written once with Kysely's schema builder, told which database it runs on for what
// really differs between them, and given what the database must not hold (the key of the sealed secrets).
import type { Kysely } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

export interface MigrationContext {
  /** Seals a plain TOTP secret (decision 041); absent where a store is opened without its configuration (tests). */
  sealTotpSecret?: ((secret: string) => string) | undefined
}

/** What a step is given besides the database. */
export interface StepContext extends MigrationContext {
  dialect: DialectName
}

/** A step is written against the schema of its own time, which today's `Database` (schema.ts) no longer describes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type SchemaDb = Kysely<any>

export interface SchemaStep {
  /** Its module's name in migrations/, such as '0001-inquiries'. */
  id: string
  /** Run on this database only. */
  only?: DialectName | undefined
  up(db: SchemaDb, context: StepContext): Promise<void>
}
