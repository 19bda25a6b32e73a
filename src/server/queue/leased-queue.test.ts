import type { FastifyBaseLogger } from 'fastify'
import { expect, test } from 'vitest'
import { RETRY, createLeasedQueue, retryDelay, type Attempt, type LeasedItem, type Outcome, type QueueTable } from './leased-queue.ts'

interface Row extends LeasedItem {
  status: 'pending' | 'sent' | 'failed'
  nextAttemptAt: number
  leaseOwner: string | null
  leaseUntil: number | null
  lastError: string | null
}

/** The store's lease rules (store/tables/leased.ts) over rows in memory, on a clock the test moves. */
function memoryTable(clock: { now: number }, count: number) {
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    attempts: 0,
    createdAt: clock.now,
    status: 'pending',
    nextAttemptAt: clock.now,
    leaseOwner: null,
    leaseUntil: null,
    lastError: null,
  }))
  const claims: { owner: string; ids: number[] }[] = []
  const settle = (id: number, change: Partial<Row>) => {
    const row = rows[id - 1]!
    Object.assign(row, { leaseOwner: null, leaseUntil: null, attempts: row.attempts + 1 }, change)
  }
  const table: QueueTable<Row> = {
    async claim(now, limit, owner, leaseMs) {
      const due = rows
        .filter((row) => row.status === 'pending' && row.nextAttemptAt <= now && (row.leaseUntil === null || row.leaseUntil <= now))
        .slice(0, limit)
      for (const row of due) Object.assign(row, { leaseOwner: owner, leaseUntil: now + leaseMs })
      claims.push({ owner, ids: due.map((row) => row.id) })
      return due.map((row) => ({ ...row }))
    },
    async nextDueAt() {
      const pending = rows.filter((row) => row.status === 'pending').map((row) => Math.max(row.nextAttemptAt, row.leaseUntil ?? 0))
      return pending.length ? Math.min(...pending) : null
    },
    async releaseLeases(owner) {
      for (const row of rows) if (row.leaseOwner === owner) Object.assign(row, { leaseOwner: null, leaseUntil: null })
    },
    async markSent(id) {
      settle(id, { status: 'sent' })
    },
    async markRetry(id, nextAttemptAt, error) {
      settle(id, { nextAttemptAt, lastError: error })
    },
    async markFailed(id, error) {
      settle(id, { status: 'failed', lastError: error })
    },
  }
  return { rows, claims, table }
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger

function queueOf(
  table: QueueTable<Row>,
  clock: { now: number },
  deliver: (item: Row, signal: AbortSignal) => Promise<Attempt>,
  options: { owner?: string; outcomes?: Outcome[] } = {},
) {
  const report = (_item: Row, outcome: Outcome) => void options.outcomes?.push(outcome)
  return createLeasedQueue(
    table,
    { name: 'test queue', deliver, report },
    { log: quiet, owner: options.owner ?? 'first', leaseMs: 60_000, now: () => clock.now },
  )
}

test('a lease that ran out is taken over by another claimer, and the row is delivered once by the one holding it', async () => {
  const clock = { now: 1_000_000 }
  const { rows, claims, table } = memoryTable(clock, 1)
  // The first process claims the row and dies before delivering it (its lease stays in the table).
  await table.claim(clock.now, 20, 'crashed', 60_000)
  const delivered: string[] = []
  const second = queueOf(table, clock, async () => (delivered.push('second'), { status: 'sent' }), { owner: 'second' })
  await second.drain()
  expect(delivered).toEqual([])
  expect(rows[0]).toMatchObject({ status: 'pending', leaseOwner: 'crashed' })

  clock.now += 60_000
  await second.drain()
  expect(delivered).toEqual(['second'])
  expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1, leaseOwner: null })
  expect(claims.filter((claim) => claim.ids.length).map((claim) => claim.owner)).toEqual(['crashed', 'second'])
})

test('a batch that outlives half its lease gives the rest back before another process could take it', async () => {
  const clock = { now: 1_000_000 }
  const { rows, claims, table } = memoryTable(clock, 4)
  const queue = queueOf(table, clock, async () => {
    clock.now += 20_000
    return { status: 'sent' }
  })
  await queue.drain()
  expect(rows.every((row) => row.status === 'sent')).toBe(true)
  // 20 s a row on a 60 s lease: two rows per claim, then the rest is claimed anew.
  expect(claims.map((claim) => claim.ids)).toEqual([[1, 2, 3, 4], [3, 4], []])
})

test('a claim so slow that half the lease is gone gives its first row back too, and claims it anew', async () => {
  const clock = { now: 1_000_000 }
  const { rows, claims, table } = memoryTable(clock, 1)
  const claim = table.claim
  let slow = true
  table.claim = async (...args) => {
    const due = await claim(...args)
    // The answer comes 40 s into a 60 s lease (a loaded machine): once.
    if (slow) clock.now += 40_000
    slow = false
    return due
  }
  const delivered: number[] = []
  await queueOf(table, clock, async (item) => (delivered.push(item.id), { status: 'sent' })).drain()
  expect(claims.map((c) => c.ids)).toEqual([[1], [1], []])
  expect(delivered).toEqual([1])
  expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1 })
})

test('a failing row is retried after a delay that doubles up to its bound, then given up after RETRY.giveUpAfterMs', async () => {
  const clock = { now: 1_000_000 }
  const { rows, table } = memoryTable(clock, 1)
  const outcomes: Outcome[] = []
  const queue = queueOf(table, clock, async () => ({ status: 'retry', error: 'try later' }), { outcomes })
  const waits: number[] = []
  while (rows[0]!.status === 'pending') {
    await queue.drain()
    if (rows[0]!.status === 'pending') {
      waits.push(rows[0]!.nextAttemptAt - clock.now)
      clock.now = rows[0]!.nextAttemptAt
    }
  }
  expect(waits.slice(0, 4)).toEqual([2_000, 4_000, 8_000, 16_000])
  for (let i = 1; i < waits.length; i++) expect(waits[i]).toBe(Math.min(waits[i - 1]! * 2, RETRY.maxDelayMs))
  expect(waits.at(-1)).toBe(RETRY.maxDelayMs)
  expect(waits.every((wait, i) => wait === retryDelay(i + 1))).toBe(true)
  expect(clock.now - rows[0]!.createdAt).toBeGreaterThan(RETRY.giveUpAfterMs - RETRY.maxDelayMs)
  expect(outcomes.at(-1)).toEqual({ status: 'gave-up', error: 'try later' })
  expect(rows[0]).toMatchObject({ status: 'failed', attempts: waits.length + 1, lastError: 'try later' })
})

test('a refusal is final at the first attempt', async () => {
  const clock = { now: 1_000_000 }
  const { rows, table } = memoryTable(clock, 1)
  const outcomes: Outcome[] = []
  await queueOf(table, clock, async () => ({ status: 'failed', error: 'refused' }), { outcomes }).drain()
  expect(outcomes).toEqual([{ status: 'failed', error: 'refused' }])
  expect(rows[0]).toMatchObject({ status: 'failed', attempts: 1 })
})

test('drain runs pass after pass until nothing is due: also what is queued during a pass, but not a retry waiting', async () => {
  const clock = { now: 1_000_000 }
  const { rows, claims, table } = memoryTable(clock, 45)
  const queue = queueOf(table, clock, async (item) => {
    // A row that comes in while the pass runs (past the batches already claimed) is due now too.
    if (item.id === 1) rows.push({ ...rows[0]!, id: 46, status: 'pending', leaseOwner: null, leaseUntil: null })
    return item.id === 2 ? { status: 'retry', error: 'later' } : { status: 'sent' }
  })
  await queue.drain()
  expect(rows.filter((row) => row.status === 'sent')).toHaveLength(45)
  expect(rows[1]).toMatchObject({ status: 'pending', attempts: 1 })
  // Batches of 20, then the one that finds nothing due: the retry's time has not come.
  expect(claims.map((claim) => claim.ids.length)).toEqual([20, 20, 6, 0])
})

test('stop waits for the delivery in flight, aborts its signal, and no further row is begun', async () => {
  const clock = { now: 1_000_000 }
  const { rows, table } = memoryTable(clock, 3)
  let release!: () => void
  const begun: number[] = []
  let aborted = false
  const queue = queueOf(table, clock, async (item, signal) => {
    begun.push(item.id)
    signal.addEventListener('abort', () => (aborted = true))
    await new Promise<void>((resolve) => (release = resolve))
    return { status: 'sent' }
  })
  queue.start()
  await expect.poll(() => begun).toEqual([1])
  let stopped = false
  const stopping = queue.stop().then(() => (stopped = true))
  expect(aborted).toBe(true)
  // The delivery is still running: stop has not returned, also after every callback due has run.
  await new Promise((resolve) => setImmediate(resolve))
  expect(stopped).toBe(false)
  release()
  await stopping
  expect(rows.map((row) => row.status)).toEqual(['sent', 'pending', 'pending'])
  expect(begun).toEqual([1])
  // Stopped for good: neither start, kick nor drain begins anything.
  queue.start()
  queue.kick()
  await queue.drain()
  expect(begun).toEqual([1])
})

test("what a sent delivery carries is handed to its table's mark, as the DNS update's names are stored with it", async () => {
  const clock = { now: 1_000_000 }
  const { rows, table } = memoryTable(clock, 2)
  const marked: { id: number; names: string[] }[] = []
  const queue = createLeasedQueue<Row, { names: string[] }>(
    {
      ...table,
      async markSent(id, now, sent) {
        marked.push({ id, names: sent.names })
        await table.markSent(id, now, sent)
      },
    },
    { name: 'test queue', deliver: async (item) => ({ status: 'sent', names: [`name-${item.id}`] }), report() {} },
    { log: quiet, owner: 'first', leaseMs: 60_000, now: () => clock.now },
  )
  await queue.drain()
  expect(marked).toEqual([
    { id: 1, names: ['name-1'] },
    { id: 2, names: ['name-2'] },
  ])
  expect(rows.map((row) => row.status)).toEqual(['sent', 'sent'])
})
