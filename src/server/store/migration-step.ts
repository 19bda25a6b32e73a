// A schema step is SQL text; a step that needs what the database must not hold (the key of the sealed secrets) is a
// function given that from the process opening the store.
import type { Kysely } from 'kysely'

export interface MigrationContext {
  /** Seals a plain TOTP secret (decision 041); absent where a store is opened without its configuration (tests). */
  sealTotpSecret?: ((secret: string) => string) | undefined
}

export type MigrationStep = string | ((db: Kysely<unknown>, context: MigrationContext) => Promise<void>)
