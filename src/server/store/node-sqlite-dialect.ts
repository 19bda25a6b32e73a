// A Kysely dialect for Node's built-in node:sqlite (DatabaseSync). Kysely's own SqliteDialect expects
// better-sqlite3 (a `reader` flag, parameters as one array) and lets concurrent callers share the one connection;
// see docs/decisions/014-one-query-layer.md for why this is a small adapter of our own.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'

/** SQLite's DDL is transactional: the migrations run in the same transaction as the record of them. */
class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true
  }
}

/** The queries are a fixed set (a few dynamic filters): prepared once, reused; the cap only guards a mistake. */
const STATEMENT_CACHE_SIZE = 200

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>()
  constructor(db: DatabaseSync) {
    this.#db = db
  }

  #prepare(sql: string) {
    let prepared = this.#statements.get(sql)
    if (!prepared) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear()
      const statement = this.#db.prepare(sql)
      // A statement that returns rows (SELECT, or a write with RETURNING) has result columns.
      prepared = { statement, reader: statement.columns().length > 0 }
      this.#statements.set(sql, prepared)
    }
    return prepared
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, reader } = this.#prepare(compiled.sql)
    const parameters = compiled.parameters as SQLInputValue[]
    if (reader) return { rows: statement.all(...parameters) as R[] }
    const { changes, lastInsertRowid } = statement.run(...parameters)
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('streaming is not used with node:sqlite')
  }
}

/** Whose turn it is on each database file, for every connection to it in this process. */
const turns = new Map<string, Promise<void>>()

/**
 * One caller at a time on a file: a transaction's statements are awaited one after another, and without the turn
 * another caller's statement would land inside it (or its BEGIN fail). The turn is per file, not per connection:
 * a second connection to the same file in this process (the tests' second "process") would otherwise wait for
 * the write lock synchronously, blocking the very event loop that has to finish the first transaction.
 */
class NodeSqliteDriver implements Driver {
  readonly #db: DatabaseSync
  readonly #file: string
  readonly #connection: NodeSqliteConnection
  #release: () => void = () => {}
  constructor(db: DatabaseSync, file: string) {
    this.#db = db
    this.#file = file
    this.#connection = new NodeSqliteConnection(db)
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = turns.get(this.#file) ?? Promise.resolve()
    let release!: () => void
    const mine = new Promise<void>((resolve) => (release = resolve))
    turns.set(this.#file, mine)
    await previous
    this.#release = () => {
      if (turns.get(this.#file) === mine) turns.delete(this.#file)
      release()
    }
    return this.#connection
  }
  async releaseConnection() {
    this.#release()
  }
  // IMMEDIATE: the write lock is taken at BEGIN, so a transaction never fails halfway on another process's lock.
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'))
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'))
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    // SQLite rolls back by itself after some errors (a full disk): a second ROLLBACK would hide the first error.
    if (this.#db.isTransaction) await connection.executeQuery(CompiledQuery.raw('ROLLBACK'))
  }
  async destroy() {
    if (this.#db.isOpen) this.#db.close()
  }
}

export class NodeSqliteDialect implements Dialect {
  readonly #db: DatabaseSync
  readonly #file: string
  /** `file`: the path the database was opened from. */
  constructor(db: DatabaseSync, file: string) {
    this.#db = db
    this.#file = file
  }
  createDriver() {
    return new NodeSqliteDriver(this.#db, this.#file)
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler()
  }
  createAdapter() {
    return new NodeSqliteAdapter()
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db)
  }
}
