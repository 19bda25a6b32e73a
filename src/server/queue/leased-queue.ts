// One leased work queue (decision 057) for the mail outbox, the DNS updates and the domain notices: rows claimed
// under a lease so that of several processes only one delivers each, delivered one by one, marked sent, retried with
// backoff or failed; polled, kicked, drained by tests and stopped. The table's module hands the queue its queries
// (store/tables/leased.ts has them, generic over the table), the feature its deliver(item); what it logs about an
// outcome is the feature's own too.
import type { FastifyBaseLogger } from 'fastify'

export const RETRY = {
  firstDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  /** An item that still fails this long after it was queued is given up and marked failed. */
  giveUpAfterMs: 5 * 24 * 60 * 60_000,
  /** Failing longer than this is an alarm: logged as an error, and /readyz answers 503 (the outbox). */
  alarmAfterMs: 60 * 60_000,
  /** Even with nothing due, look at the store this often (another process may have queued something). */
  pollMs: 5_000,
}

/** 2 s, 4 s, 8 s … doubling up to 15 min. */
export function retryDelay(failedAttempts: number): number {
  return Math.min(RETRY.maxDelayMs, RETRY.firstDelayMs * 2 ** Math.max(0, failedAttempts - 1))
}

/** How many rows one claim takes. */
const BATCH = 20

export interface LeasedItem {
  id: number
  /** Attempts before this one. */
  attempts: number
  createdAt: number
}

/**
 * What one delivery came to: `failed` is final (the receiver refused it), `retry` is tried again later. A sent one
 * carries what its table records with the mark (`Sent`: the DNS update's published names), nothing for the others.
 */
export type Attempt<Sent extends object = object> = ({ status: 'sent' } & Sent) | { status: 'failed' | 'retry'; error: string }

/** What the queue made of an attempt, for the feature's log. */
export type Outcome =
  { status: 'sent' } | { status: 'failed'; error: string } | { status: 'gave-up'; error: string } | { status: 'retry'; error: string; retryInMs: number }

/**
 * A feature's table as the queue uses it, as the table's module makes it (store/tables/leased.ts): the queue knows
 * no store, only these functions.
 */
export interface QueueTable<Item extends LeasedItem, Sent extends object = object> {
  claim(now: number, limit: number, owner: string, leaseMs: number): Promise<Item[]>
  /** When the next row is due (or its lease ends), null with none pending. */
  nextDueAt(): Promise<number | null>
  /** Gives back this owner's leases on rows it has not delivered. */
  releaseLeases(owner: string): Promise<void>
  markSent(id: number, now: number, sent: Sent): Promise<void>
  markRetry(id: number, nextAttemptAt: number, error: string): Promise<void>
  markFailed(id: number, error: string, now: number): Promise<void>
}

export interface LeasedQueue {
  start(): void
  /** Something new is waiting: look now instead of at the next poll. */
  kick(): void
  /**
   * Delivers what is due now, pass after pass, until a pass claims nothing (a failure is retried later, so it is
   * not due now): the poll's own passes, which tests call instead of waiting for the poll. Works before start() too.
   */
  drain(): Promise<void>
  /** Ends for good: no item is begun after it, the delivery in flight is awaited (its signal aborted). */
  stop(): Promise<void>
  /** Aborted by stop(): for a delivery that should not hold up a shutdown. */
  readonly signal: AbortSignal
}

/** What a feature gives the queue: its name, its delivery and its log lines. */
export interface QueueFeature<Item extends LeasedItem, Sent extends object = object> {
  /** Names the queue in the log: '<name> pass failed', '<name>: could not read the store', '<name> pass done'. */
  name: string
  deliver(item: Item, signal: AbortSignal): Promise<Attempt<Sent>>
  /** Logs an outcome, after its mark is stored. */
  report(item: Item, outcome: Outcome): void
  /**
   * Rows that become claimable only when an earlier one is done (a zone's DNS updates in order): claim again after
   * every batch, not only after a full one.
   */
  chained?: boolean
  /** kick() before start() starts the queue (the outbox: the process that stored the mail sends it at once). */
  kickStarts?: boolean
}

/** Where and how long: the feature's own options, as app.ts gives them. */
export interface QueueOptions {
  log: FastifyBaseLogger
  /** Names this queue's leases in the store: unique per process and queue. */
  owner: string
  /** How long a claimed row is this process's alone: longer than one delivery may take. */
  leaseMs: number
  now?: () => number
}

/** Marks an attempt: sent, failed, given up after RETRY.giveUpAfterMs, or retried after the backoff. */
async function settle<Item extends LeasedItem, Sent extends object>(
  table: QueueTable<Item, Sent>,
  item: Item,
  attempt: Attempt<Sent>,
  now: number,
): Promise<Outcome> {
  if (attempt.status === 'sent') {
    await table.markSent(item.id, now, attempt)
    return { status: 'sent' }
  }
  if (attempt.status === 'failed') {
    await table.markFailed(item.id, attempt.error, now)
    return { status: 'failed', error: attempt.error }
  }
  if (now - item.createdAt > RETRY.giveUpAfterMs) {
    await table.markFailed(item.id, attempt.error, now)
    return { status: 'gave-up', error: attempt.error }
  }
  const retryInMs = retryDelay(item.attempts + 1)
  await table.markRetry(item.id, now + retryInMs, attempt.error)
  return { status: 'retry', error: attempt.error, retryInMs }
}

export function createLeasedQueue<Item extends LeasedItem, Sent extends object = object>(
  table: QueueTable<Item, Sent>,
  feature: QueueFeature<Item, Sent>,
  options: QueueOptions,
): LeasedQueue {
  const { name } = feature
  const { log, owner, leaseMs } = options
  const now = options.now ?? Date.now
  const stopping = new AbortController()
  let running = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<void> | undefined
  let again = false

  async function deliver(item: Item) {
    const attempt = await feature.deliver(item, stopping.signal)
    feature.report(item, await settle(table, item, attempt, now()))
  }

  /** How many rows it claimed. Stops between two deliveries once stop() was called. */
  async function runPass(): Promise<number> {
    let claimed = 0
    do {
      again = false
      const leaseEnd = now() + leaseMs
      const due = await table.claim(now(), BATCH, owner, leaseMs)
      claimed += due.length
      for (const item of due) {
        if (stopping.signal.aborted) return claimed
        // The lease covers the whole batch, but the rows go out one by one, and a delivery may take half the lease:
        // with less than half of it left, give the rest back and claim anew, rather than deliver a row whose lease
        // another process may take. The first row too: a claim slow enough (a loaded machine) ran the lease down.
        if (leaseEnd - now() < leaseMs / 2) {
          await table.releaseLeases(owner)
          again = true
          break
        }
        await deliver(item)
      }
      // A batch cut short by the limit has more behind it; without that one claim per mail is enough.
      if (feature.chained ? due.length > 0 : due.length === BATCH) again = true
    } while (again && !stopping.signal.aborted)
    return claimed
  }

  async function schedule() {
    if (!running) return
    clearTimeout(timer)
    let wait = RETRY.pollMs
    try {
      const next = await table.nextDueAt()
      if (next !== null) wait = Math.max(0, Math.min(RETRY.pollMs, next - now()))
    } catch (error) {
      log.error({ err: error }, `${name}: could not read the store`)
    }
    if (running) timer = setTimeout(trigger, wait)
  }

  /** A pass, seen by trigger() as the one in flight; the poll goes on after it (when running). */
  function startPass(): Promise<number> {
    const work = runPass()
    pass = work
      .then(
        () => {},
        (error: unknown) => log.error({ err: error }, `${name} pass failed`),
      )
      .finally(() => {
        pass = undefined
        // At debug only: the sign a test of several instances waits for (each one's look at the queue is over).
        log.debug(`${name} pass done`)
        void schedule()
      })
    return work
  }

  function trigger() {
    if (!running) return
    if (pass) {
      again = true
      return
    }
    void startPass()
  }

  return {
    signal: stopping.signal,
    start() {
      if (running || stopping.signal.aborted) return
      running = true
      trigger()
    },
    kick() {
      if (feature.kickStarts && !stopping.signal.aborted) running = true
      trigger()
    },
    async drain() {
      for (;;) {
        // The pass in flight first: it may hold what is due now.
        while (pass) await pass
        if (stopping.signal.aborted || (await startPass()) === 0) return
      }
    },
    async stop() {
      running = false
      clearTimeout(timer)
      stopping.abort()
      await pass
    },
  }
}
