// What really differs between SQLite and PostgreSQL, as each store's part receives it (sqlite.ts and postgres.ts make
// it), and the one way every part writes.
import type { Expression, RawBuilder, Transaction } from 'kysely'
import type { DialectName } from './migration-step.ts'
import type { Database } from './schema.ts'
import type { SaveResult } from './inquiry-types.ts'

export interface DialectSpecifics {
  name: DialectName
  /** Turns a "not now" failure of the database into StoreUnavailableError (503 + Retry-After). */
  guard<T>(work: () => Promise<T>): Promise<T>
  /** Stores one inquiry durably; SQLite gathers the ones that arrive together into one commit. */
  saveInquiry(save: (trx: Transaction<Database>) => Promise<SaveResult>): Promise<SaveResult>
  /** Called before a write that must not land in a database file that is gone (SQLite). */
  beforeWrite?(): void
  /** The UTC day (YYYY-MM-DD) of an epoch-milliseconds column. */
  utcDay(column: Expression<number>): RawBuilder<string>
  /** Makes approvals under one wildcard take turns across processes (SQLite: BEGIN IMMEDIATE already does). */
  lockWildcard?(trx: Transaction<Database>, wildcard: string): Promise<void>
  close(): Promise<void>
}

/** Runs a write: guarded like every query, and first checked by the dialect (SQLite: is the file still there?). */
export const writer =
  (dialect: Pick<DialectSpecifics, 'guard' | 'beforeWrite'>) =>
  <T>(work: () => Promise<T>): Promise<T> =>
    dialect.guard(() => {
      dialect.beforeWrite?.()
      return work()
    })
