// The embedded default store: one SQLite file in DATA_DIR, through Node's built-in node:sqlite.
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { CompiledQuery, Kysely, sql, type Transaction } from 'kysely'
import { DataDirError, describeFsError, whoAmI } from '../data-dir.ts'
import { loadOrCreateSecret } from './sqlite-secret.ts'
import { migrateToLatest } from './migrate.ts'
import type { MigrationContext } from './migration-step.ts'
import { NodeSqliteDialect } from './node-sqlite-dialect.ts'
import type { Database } from './schema.ts'
import { guardedAsync, isTransientError } from './sqlite-common.ts'
import { createStore } from './store.ts'
import { observed, type QueryObserver } from './unit-of-work.ts'
import { StoreUnavailableError, type SaveResult, type Store } from './types.ts'

/**
 * Opens the file in WAL mode, creating it 0600 first: SQLite gives its -wal and -shm files the database file's
 * mode, so all three stay private whatever the process's umask. Failing to open names the file and what is missing.
 */
function openPrivately(file: string): DatabaseSync {
  const need = `read and write permission on ${file} and on ${path.dirname(file)}`
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    fs.closeSync(fs.openSync(file, 'wx', 0o600))
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (e.code !== 'EEXIST') throw new DataDirError(describeFsError(`the database ${file} cannot be created`, e, need))
  }
  try {
    const db = new DatabaseSync(file, { timeout: 2000 })
    db.exec('PRAGMA journal_mode = WAL')
    return db
  } catch (error) {
    const e = error as { errcode?: number; message: string }
    // CANTOPEN, READONLY, PERM: SQLite does not say which file or what is missing.
    if (![14, 8, 3].includes((e.errcode ?? 0) & 0xff)) throw error
    throw new DataDirError(`the database ${file} cannot be opened (${e.message}): the server runs as ${whoAmI()}, which needs ${need}`)
  }
}

export interface SqliteStoreOptions {
  /** Where to say, once and loudly, that the database file is gone. */
  log?: { error(details: object, message: string): void }
  /** What a schema step needs from the process: the key of the secrets sealed at rest. */
  migration?: MigrationContext
  /** Sees every statement as it is run (a test counting a use case's queries). */
  onQuery?: QueryObserver
}

// A savepoint per inquiry in the group commit: one that fails does not take the others with it.
const SAVEPOINT = CompiledQuery.raw('SAVEPOINT inquiry')
const RELEASE = CompiledQuery.raw('RELEASE inquiry')
const ROLLBACK_TO = CompiledQuery.raw('ROLLBACK TO inquiry')

/** Opens (creating and migrating it if need be) the SQLite store in `file`. */
export async function createSqliteStore(file: string, options: SqliteStoreOptions = {}): Promise<Store> {
  const sqlite = openPrivately(file)
  // FULL: a 200 is only sent after the inquiry is on disk, even across a power loss. See docs/decisions/003.
  sqlite.exec('PRAGMA synchronous = FULL')
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(sqlite, file), ...observed(options.onQuery) })
  try {
    // Foreign keys on only after migrating: a step that makes a table anew must drop the old one without its
    // references acting (migrate.ts checks them all before the migration commits).
    sqlite.exec('PRAGMA foreign_keys = OFF')
    await guardedAsync(() => migrateToLatest(db as Kysely<unknown>, 'sqlite', options.migration))
    sqlite.exec('PRAGMA foreign_keys = ON')
  } catch (error) {
    await db.destroy()
    throw error
  }
  const checkFile = watchFile(file, options)

  // Group commit: the inquiries that arrive while the event loop is busy are written in one transaction, with one
  // fsync for all of them. Each is still answered only after that commit, so a 200 still means "on disk".
  type Save = (trx: Transaction<Database>) => Promise<SaveResult>
  const pendingSaves: { save: Save; resolve(result: SaveResult): void; reject(error: unknown): void }[] = []
  async function commitPendingSaves() {
    const batch = pendingSaves.splice(0)
    const outcomes: ({ result: SaveResult } | { error: unknown })[] = []
    try {
      checkFile()
      await guardedAsync(() =>
        db.transaction().execute(async (trx) => {
          for (const { save } of batch) {
            await trx.executeQuery(SAVEPOINT)
            try {
              outcomes.push({ result: await save(trx) })
              await trx.executeQuery(RELEASE)
            } catch (error) {
              await trx.executeQuery(ROLLBACK_TO)
              await trx.executeQuery(RELEASE)
              outcomes.push({ error })
            }
          }
        }),
      )
    } catch (error) {
      // The commit itself failed (disk full, locked): nothing of the batch is stored, every one is told so.
      for (const save of batch) save.reject(error)
      return
    }
    batch.forEach((save, i) => {
      const outcome = outcomes[i]!
      if ('result' in outcome) save.resolve(outcome.result)
      else save.reject(isTransientError(outcome.error) ? new StoreUnavailableError(String(outcome.error), { cause: outcome.error }) : outcome.error)
    })
  }

  const { releaseAllLeases, ...shared } = createStore(db, {
    name: 'sqlite',
    guard: guardedAsync,
    saveInquiry(save) {
      return new Promise<SaveResult>((resolve, reject) => {
        pendingSaves.push({ save, resolve, reject })
        if (pendingSaves.length === 1) setImmediate(() => void commitPendingSaves())
      })
    },
    beforeWrite: checkFile,
    utcDay: (column) => sql<string>`strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`,
    close: () => db.destroy(),
  })
  return {
    ...shared,
    // Only this server (or its cluster) uses the file (data-dir.ts locks it): any lease in it is left over from a
    // run that has ended.
    releaseLeftoverLeases: releaseAllLeases,
    sharedByInstances: false,
    secret: async () => loadOrCreateSecret(path.dirname(file)),
  }
}

/**
 * A database file deleted (or replaced) under a running server still takes writes, into an inode no one will ever
 * open again: every inquiry "stored" after that is lost at the next start. Compare the open file with the path
 * (one stat per write batch, microseconds against the commit's fsync) and refuse writes from then on. Mail already
 * queued is still sent: its inquiries were confirmed and the mail is now their only copy.
 */
function watchFile(file: string, { log }: SqliteStoreOptions): () => void {
  const identity = fs.statSync(file, { bigint: true })
  let lost = false
  return () => {
    if (!lost) {
      try {
        const now = fs.statSync(file, { bigint: true })
        lost = now.ino !== identity.ino || now.dev !== identity.dev
      } catch (error) {
        lost = ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')
      }
      if (lost) {
        log?.error(
          { file },
          `STORE LOST: the database ${file} was deleted or replaced while the server was running; nothing more is accepted (503). Restore it from a backup, or restart to begin a new one (everything stored since it was deleted is gone)`,
        )
      }
    }
    if (lost) throw new StoreUnavailableError(`the database ${file} was deleted or replaced while the server was running`)
  }
}
