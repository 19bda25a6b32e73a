// The queries of a leased queue (decision 057), one set for the three tables that are one: outbox, dns_updates and
// domain_notices. They share the columns below; what a row carries besides is the feature's.
//
// Each table's module hands the queue (queue/leased-queue.ts) its functions from here: `leasedTable` with the table's
// own claim in front of it (the feature's columns read into its item). The queue finds no store method by name.
//
// Every query here runs guarded, never through writer(): a SQLite file deleted under the running server still
// delivers what was queued in it (docs/operations.md), and claims and marks are bookkeeping of rows queued before,
// nothing anyone is told is stored. Putting new work into a queue (and resending) goes through writer().
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import type { DialectSpecifics } from '../dialect.ts'
import type { OutboxStatus } from '../inquiry-types.ts'
import type { Database } from '../schema.ts'

export type LeasedTableName = 'outbox' | 'dns_updates' | 'domain_notices'

type SharedColumn = 'id' | 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'created_at' | 'sent_at' | 'failed_at' | 'lease_owner' | 'lease_until'
/** The columns the three tables share. */
type LeasedRow = Pick<Database['outbox'], SharedColumn> & { zone: string }
/** The queries see one table of the shared columns; which one is the name passed (zone only in dns_updates). */
type LeasedDatabase = { leased: LeasedRow }

export const noLease = { lease_owner: null, lease_until: null } as const

/**
 * A leased table's functions as its module hands them to its queue: the shape of the queue's `QueueTable`
 * (queue/leased-queue.ts), which the store does not import (.dependency-cruiser.cjs). The table's own claim reads its
 * items; `Sent` is what a sent delivery carries into its mark (the DNS update's published names).
 */
export type LeasedQueueTable<Item, Sent extends object = object> = Pick<
  ReturnType<typeof leasedTable>,
  'nextDueAt' | 'releaseLeases' | 'markRetry' | 'markFailed'
> & {
  claim(now: number, limit: number, owner: string, leaseMs: number): Promise<Item[]>
  markSent(id: number, now: number, sent: Sent): Promise<void>
}

/** What the claim may order by: due time (the outbox, the notices) or a chain per column, oldest first. */
export interface ClaimOrder {
  /** Rows with the same value of this column go one at a time, in the order they were queued. */
  chainedBy?: 'zone'
}

/** A row as the Postausgang lists it. */
interface Listed {
  id: number
  status: OutboxStatus
  attempts: number
  lastError: string | null
  createdAt: number
  nextAttemptAt: number
}

type Executor = Kysely<Database> | Transaction<Database>

export function leasedTable<T extends LeasedTableName>(db: Kysely<Database>, dialect: DialectSpecifics, name: T, order: ClaimOrder = {}) {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  // Kysely types a table by its name; the queries below name only the shared columns, so one type serves all three.
  const table = name as unknown as 'leased'
  const leased = (via: Executor = db) => via as unknown as Kysely<LeasedDatabase>
  const { chainedBy } = order
  const error1000 = (error: string) => error.slice(0, 1000)
  const markSentIn = (via: Executor, id: number, now: number) =>
    leased(via)
      .updateTable(table)
      .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null, ...noLease }))
      .where('id', '=', id)
      .execute()

  return {
    /** Ends `owner`'s leases exactly, in every leased table (a queue's owner names it alone: never another's). */
    releaseLeases: (owner: string) => releaseLeases(db, dialect, { owner }),
    /** Leases up to `limit` due rows to `owner` and returns them whole (in claim order). */
    async claim(now: number, limit: number, owner: string, leaseMs: number): Promise<Selectable<Database[T]>[]> {
      return guard(async () => {
        const rows = await leased()
          .updateTable(table)
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom(`${table} as d`)
              .select('d.id')
              .where('d.status', '=', 'pending')
              .where('d.next_attempt_at', '<=', now)
              .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
              .$if(chainedBy !== undefined, (qb) =>
                qb
                  .where(({ not, exists, selectFrom }) =>
                    not(
                      exists(
                        selectFrom(`${table} as e`)
                          .select('e.id')
                          .whereRef(`e.${chainedBy!}`, '=', `d.${chainedBy!}`)
                          .where('e.status', '=', 'pending')
                          .whereRef('e.id', '<', 'd.id'),
                      ),
                    ),
                  )
                  .orderBy('d.id'),
              )
              .$if(chainedBy === undefined, (qb) => qb.orderBy('d.next_attempt_at').orderBy('d.id'))
              .limit(limit)
              // Rows another instance is claiming at this moment are passed over, not waited for (SQLite's
              // writers take turns on the file instead).
              .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
          )
          .returningAll()
          .execute()
        // UPDATE … RETURNING keeps no order: the claim's order is restored here.
        const sorted = rows.sort((a, b) =>
          chainedBy !== undefined ? Number(a.id) - Number(b.id) : Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.id) - Number(b.id),
        )
        return sorted as unknown as Selectable<Database[T]>[]
      })
    },
    async markSent(id: number, now: number) {
      await guard(() => markSentIn(db, id, now))
    },
    /** In a caller's transaction, which guards it: the DNS update's mark records the published names with it. */
    markSentIn: (trx: Transaction<Database>, id: number, now: number) => markSentIn(trx, id, now),
    async markRetry(id: number, nextAttemptAt: number, error: string) {
      await guard(() =>
        leased()
          .updateTable(table)
          .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: nextAttemptAt, last_error: error1000(error), ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    async markFailed(id: number, error: string, now: number) {
      await guard(() =>
        leased()
          .updateTable(table)
          .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: error1000(error), failed_at: now, ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    /** When the next pending row is due, or its lease ends if that is later; null with none pending. */
    async nextDueAt(): Promise<number | null> {
      const row = await guard(() =>
        leased()
          .selectFrom(table)
          .select(sql<number | null>`MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END)`.as('at'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
      )
      return row.at === null ? null : Number(row.at)
    },
    /** The rows in these states for the Postausgang, oldest first, 1000 at most: the shared fields and `extra` columns. */
    async list<C extends Exclude<keyof Selectable<Database[T]>, SharedColumn> & string>(
      statuses: OutboxStatus[],
      extra: C[],
    ): Promise<(Listed & Pick<Selectable<Database[T]>, C>)[]> {
      if (statuses.length === 0) return []
      const rows = await guard(() =>
        leased()
          .selectFrom(table)
          .select(['id', 'status', 'attempts', 'last_error', 'created_at', 'next_attempt_at'])
          // The feature's own columns, named by the feature (typed by its table above).
          .select(extra as unknown as 'id'[])
          .where('status', 'in', statuses)
          .orderBy('created_at')
          .orderBy('id')
          .limit(1000)
          .execute(),
      )
      return rows.map((row) => ({
        ...(row as unknown as Pick<Selectable<Database[T]>, C>),
        id: Number(row.id),
        status: row.status,
        attempts: row.attempts,
        lastError: row.last_error,
        createdAt: Number(row.created_at),
        nextAttemptAt: Number(row.next_attempt_at),
      }))
    },
    /** Pending or failed, not being delivered: due again now, counted from nought. Runs through `write`. */
    async resend(id: number, now: number, write: <R>(work: () => Promise<R>) => Promise<R>): Promise<boolean> {
      return write(async () => {
        const updated = await leased()
          .updateTable(table)
          .set({ status: 'pending', attempts: 0, last_error: null, next_attempt_at: now, failed_at: null, ...noLease })
          .where('id', '=', id)
          .where('status', 'in', ['pending', 'failed'])
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
          .executeTakeFirst()
        return Number(updated.numUpdatedRows) > 0
      })
    },
  }
}

const LEASED_TABLES: LeasedTableName[] = ['outbox', 'dns_updates', 'domain_notices']

/**
 * Ends leases in all three tables: every one (`all`), one owner's exactly (a queue giving back what it will not
 * deliver in time: never another queue's), or a process's (`host:pid`, and its queues' `host:pid:dns`,
 * `host:pid:domains`: a cluster's primary ending those of a worker that died).
 */
export async function releaseLeases(
  db: Kysely<Database>,
  dialect: Pick<DialectSpecifics, 'guard'>,
  whose: { all: true } | { owner: string } | { process: string },
): Promise<void> {
  const owner = 'all' in whose ? undefined : 'owner' in whose ? whose.owner : whose.process
  const queues = 'process' in whose ? `${whose.process}:` : null
  await dialect.guard(() =>
    Promise.all(
      LEASED_TABLES.map((name) =>
        (db as unknown as Kysely<LeasedDatabase>)
          .updateTable(name as unknown as 'leased')
          .set(noLease)
          .$if(owner === undefined, (qb) => qb.where('lease_owner', 'is not', null))
          .$if(owner !== undefined, (qb) =>
            qb.where((eb) =>
              queues === null
                ? eb('lease_owner', '=', owner!)
                : eb.or([eb('lease_owner', '=', owner!), eb(sql<string>`substr(lease_owner, 1, ${queues.length})`, '=', queues)]),
            ),
          )
          .execute(),
      ),
    ),
  )
}
