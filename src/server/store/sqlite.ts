// The embedded default store: one SQLite file in DATA_DIR, through Node's built-in node:sqlite.
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync, type SQLInputValue } from 'node:sqlite'
import { DataDirError, describeFsError } from '../data-dir.ts'
import { loadOrCreateSecret } from '../secret.ts'
import { migrate } from './migrations.ts'
import { OUTBOX_HEALTH_SQL, inquiryValues, messageIdFor, toInquiry, toOutboxItem, type InquiryRow, type LeasedRow } from './rows.ts'
import { guarded, isTransientError, transaction } from './sqlite-common.ts'
import { sqliteInbox } from './sqlite-inbox.ts'
import { sqliteTlsNames } from './sqlite-tls-names.ts'
import { StoreUnavailableError, type MailPlan, type NewInquiry, type SaveResult, type Store } from './types.ts'

function openSqlite(file: string): DatabaseSync {
  const db = openPrivately(file)
  // FULL: a 200 is only sent after the inquiry is on disk, even across a power loss. See docs/decisions/003.
  db.exec('PRAGMA synchronous = FULL')
  db.exec('PRAGMA foreign_keys = ON')
  migrate(db)
  return db
}

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
    const who = process.getuid ? `user ${process.getuid()}` : 'this user'
    throw new DataDirError(`the database ${file} cannot be opened (${e.message}): the server runs as ${who}, which needs ${need}`)
  }
}

export interface SqliteStoreOptions {
  /** Where to say, once and loudly, that the database file is gone. */
  log?: { error(details: object, message: string): void }
}

export function createSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  const db = openSqlite(file)
  const checkFile = watchFile(file, options)
  const q = {
    insertInquiry: db.prepare(
      `INSERT INTO inquiries (token, content_hash, domain, name, email, message, spam_reason, offer_eur, below_minimum, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token) DO NOTHING RETURNING id`,
    ),
    byToken: db.prepare('SELECT id, content_hash FROM inquiries WHERE token = ?'),
    insertOutbox: db.prepare(
      `INSERT INTO outbox (inquiry_id, message_id, status, attempts, next_attempt_at, created_at, mail_to)
       VALUES (?, ?, 'pending', 0, ?, ?, ?)`,
    ),
    claim: db.prepare(
      `UPDATE outbox SET lease_owner = ?, lease_until = ?
       WHERE id IN (SELECT id FROM outbox
                    WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                    ORDER BY next_attempt_at, id LIMIT ?)
       RETURNING id`,
    ),
    leased: db.prepare(
      `SELECT o.id AS outbox_id, o.message_id, o.attempts, o.created_at AS outbox_created_at, o.mail_to, i.*
       FROM outbox o JOIN inquiries i ON i.id = o.inquiry_id
       WHERE o.lease_owner = ? AND o.status = 'pending' ORDER BY o.next_attempt_at, o.id`,
    ),
    releaseAll: db.prepare(`UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL`),
    releaseOwner: db.prepare(`UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?`),
    nextDue: db.prepare(
      `SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END) AS at
       FROM outbox WHERE status = 'pending'`,
    ),
    sent: db.prepare(
      `UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL, lease_owner = NULL, lease_until = NULL
       WHERE id = ?`,
    ),
    retry: db.prepare(
      `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?`,
    ),
    failed: db.prepare(
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, failed_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id = ?`,
    ),
    inquiry: db.prepare('SELECT * FROM inquiries WHERE id = ?'),
    inquiryByToken: db.prepare('SELECT * FROM inquiries WHERE token = ?'),
    outboxOf: db.prepare('SELECT status, attempts, last_error FROM outbox WHERE inquiry_id = ?'),
    touch: db.prepare(`INSERT INTO meta (key, value) VALUES ('ready-check', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    health: db.prepare(OUTBOX_HEALTH_SQL),
  }

  function saveOne(inquiry: NewInquiry, mail: MailPlan): SaveResult {
    const inserted = q.insertInquiry.get(...(inquiryValues(inquiry) as SQLInputValue[])) as { id: number } | undefined
    if (!inserted) {
      const existing = q.byToken.get(inquiry.token) as { id: number; content_hash: string }
      return existing.content_hash === inquiry.contentHash ? { status: 'duplicate', id: existing.id } : { status: 'conflict' }
    }
    if (mail.queue) {
      const messageId = messageIdFor({ id: inserted.id, token: inquiry.token, domain: inquiry.domain })
      q.insertOutbox.run(inserted.id, messageId, inquiry.createdAt, inquiry.createdAt, mail.mailTo)
    }
    return { status: 'created', id: inserted.id }
  }

  // Group commit: the inquiries that arrive while the event loop is busy are written in one transaction, with one
  // fsync for all of them. Each is still answered only after that commit, so a 200 still means "on disk".
  const pendingSaves: { inquiry: NewInquiry; mail: MailPlan; resolve(result: SaveResult): void; reject(error: unknown): void }[] = []
  function commitPendingSaves() {
    const batch = pendingSaves.splice(0)
    const outcomes: ({ result: SaveResult } | { error: unknown })[] = []
    try {
      checkFile()
      guarded(() =>
        transaction(db, () => {
          for (const { inquiry, mail } of batch) {
            // A savepoint per inquiry: one that fails does not take the others with it.
            db.exec('SAVEPOINT inquiry')
            try {
              outcomes.push({ result: saveOne(inquiry, mail) })
              db.exec('RELEASE inquiry')
            } catch (error) {
              db.exec('ROLLBACK TO inquiry')
              db.exec('RELEASE inquiry')
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

  return {
    saveInquiry(inquiry, mail) {
      return new Promise<SaveResult>((resolve, reject) => {
        pendingSaves.push({ inquiry, mail, resolve, reject })
        if (pendingSaves.length === 1) setImmediate(commitPendingSaves)
      })
    },
    async claimDueMail(now, limit, owner, leaseMs) {
      const rows = guarded(() =>
        transaction(db, () => {
          const claimed = q.claim.all(owner, now + leaseMs, now, now, limit)
          return claimed.length === 0 ? [] : q.leased.all(owner)
        }),
      ) as unknown as LeasedRow[]
      return rows.map(toOutboxItem)
    },
    async releaseLeases(owner) {
      guarded(() => q.releaseOwner.run(owner))
    },
    async releaseLeftoverLeases() {
      guarded(() => q.releaseAll.run())
    },
    async nextDueAt() {
      return (q.nextDue.get() as { at: number | null }).at
    },
    async markSent(id, now) {
      guarded(() => q.sent.run(now, id))
    },
    async markRetry(id, nextAttemptAt, error) {
      guarded(() => q.retry.run(nextAttemptAt, error.slice(0, 1000), id))
    },
    async markFailed(id, error, now) {
      guarded(() => q.failed.run(error.slice(0, 1000), now, id))
    },
    async getInquiry(id) {
      const row = q.inquiry.get(id) as InquiryRow | undefined
      return row ? toInquiry(row) : null
    },
    async findInquiry(token) {
      const row = q.inquiryByToken.get(token) as InquiryRow | undefined
      return row ? toInquiry(row) : null
    },
    async outboxStatus(inquiryId) {
      const row = q.outboxOf.get(inquiryId) as { status: 'pending' | 'sent' | 'failed'; attempts: number; last_error: string | null } | undefined
      return row ? { status: row.status, attempts: row.attempts, lastError: row.last_error } : null
    },
    async checkWritable(now) {
      checkFile()
      guarded(() => q.touch.run(String(now)))
    },
    async outboxHealth() {
      const row = q.health.get() as { pending: number; failed: number; oldest_pending_at: number | null; failing_since: number | null }
      return { pending: row.pending, failed: row.failed, oldestPendingAt: row.oldest_pending_at, failingSince: row.failing_since }
    },
    async secret() {
      return loadOrCreateSecret(path.dirname(file))
    },
    ...sqliteInbox(db),
    ...sqliteTlsNames(db),
    async close() {
      if (db.isOpen) db.close()
    },
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
