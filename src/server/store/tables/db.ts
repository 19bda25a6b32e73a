// What every table function takes (decision 060): the store's Kysely, or a unit of work's transaction.
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../schema.ts'

export type Db = Kysely<Database>
export type Trx = Transaction<Database>
/** A read or a write that may run inside a transaction or on its own. */
export type Q = Db | Trx
