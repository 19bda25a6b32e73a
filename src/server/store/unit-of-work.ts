// The unit of work (decision 060): a use case runs its steps in one transaction on either store, through the table
// functions (tables/), and says which rows it locks. What differs between the two databases stays here: PostgreSQL
// locks the rows a step reads before it changes them (other instances may act on them at once); SQLite's writers take
// turns on the file from BEGIN IMMEDIATE on (node-sqlite-dialect.ts), so a row read in a transaction is the writer's.
import { sql, type KyselyConfig, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { DialectName } from './migration-step.ts'
import type { Database } from './schema.ts'
import type { Db } from './tables/db.ts'

export interface Work {
  /** The transaction every table function of the use case takes. */
  readonly trx: Transaction<Database>
  readonly dialect: DialectName
  /** The rows this query reads stay locked until the work commits (PostgreSQL; SQLite has one writer already). */
  forUpdate<Q extends { forUpdate(): Q }>(query: Q): Q
  /** One holder of `key` at a time until the work commits, for rows that do not exist yet (PostgreSQL). */
  lockKey(key: string): Promise<void>
}

/**
 * Runs `steps` in one transaction: committed when they return, rolled back when they throw. A "not now" of the
 * database becomes StoreUnavailableError (503 + Retry-After), and a write that must not land in a lost SQLite file is
 * refused first, as every write of the store is (dialect.ts `writer`).
 */
export type UnitOfWork = <T>(steps: (work: Work) => Promise<T>) => Promise<T>

export function unitOfWork(db: Db, dialect: DialectSpecifics): UnitOfWork {
  const write = writer(dialect)
  const postgres = dialect.name === 'postgres'
  return (steps) =>
    write(() =>
      db.transaction().execute((trx) =>
        steps({
          trx,
          dialect: dialect.name,
          forUpdate: (query) => (postgres ? query.forUpdate() : query),
          async lockKey(key) {
            if (postgres) await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
          },
        }),
      ),
    )
}

/** Sees each statement's SQL as it is run: what a test counts. */
export type QueryObserver = (sql: string) => void

/** Kysely's `log` option for an observer, or nothing. */
export const observed = (onQuery: QueryObserver | undefined): Pick<KyselyConfig, 'log'> =>
  onQuery
    ? {
        log(event) {
          if (event.level === 'query') onQuery(event.query.sql)
        },
      }
    : {}
