// The scheduler on the store of the test project (SQLite, or a real PostgreSQL server): Berlin wall-clock times
// across clock changes, and one run per period however many processes ask.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { databaseUrlFor } from '../../../tests/helpers/postgres.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'
import { berlinTime } from '../lib/berlin.ts'
import { digestWeek } from '../jobs/digest.ts'
import { createScheduler, latestRun, nextRunAt, type Job } from './scheduler.ts'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Two handles on one store, as two processes (workers, or instances on PostgreSQL) have. */
async function openTwice(): Promise<[Store, Store]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scheduler-'))
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const config = { dataDir, databaseUrl: await databaseUrlFor(dataDir) }
  const stores = [await openStore(config), await openStore(config)] as [Store, Store]
  cleanups.push(() => Promise.all(stores.map((store) => store.close())))
  return stores
}

const log = pino({ level: 'silent' })
const MONDAY = { weekly: { weekday: 1, hour: 8 } }

describe('Berlin wall-clock schedules', () => {
  test('Monday 08:00 is 07:00 UTC in winter and 06:00 UTC in summer', () => {
    expect(latestRun(MONDAY, Date.parse('2026-11-04T12:00:00Z'))).toEqual({ dueAt: Date.parse('2026-11-02T07:00:00Z'), period: '2026-11-02' })
    expect(latestRun(MONDAY, Date.parse('2026-07-08T12:00:00Z'))).toEqual({ dueAt: Date.parse('2026-07-06T06:00:00Z'), period: '2026-07-06' })
    // A minute before it is due, the latest run is the week before.
    expect(latestRun(MONDAY, Date.parse('2026-11-02T06:59:00Z')).period).toBe('2026-10-26')
    expect(nextRunAt(MONDAY, Date.parse('2026-11-02T06:59:00Z'))).toBe(Date.parse('2026-11-02T07:00:00Z'))
  })

  test('across the clock changes: the next run and the digest week keep 08:00', () => {
    // Spring: the week before Monday 30 March 2026 has 167 hours.
    expect(nextRunAt(MONDAY, Date.parse('2026-03-24T00:00:00Z'))).toBe(Date.parse('2026-03-30T06:00:00Z'))
    expect(digestWeek(Date.parse('2026-03-30T06:00:00Z'))).toEqual({ since: Date.parse('2026-03-23T07:00:00Z'), until: Date.parse('2026-03-30T06:00:00Z') })
    // Autumn: 169 hours.
    expect(digestWeek(Date.parse('2026-10-26T07:00:00Z')).since).toBe(Date.parse('2026-10-19T06:00:00Z'))
    const daily = { daily: { hour: 3, minute: 30 } }
    expect(latestRun(daily, Date.parse('2026-03-29T02:00:00Z'))).toEqual({ dueAt: Date.parse('2026-03-29T01:30:00Z'), period: '2026-03-29' })
    expect(latestRun(daily, Date.parse('2026-10-25T01:00:00Z'))).toEqual({ dueAt: Date.parse('2026-10-24T01:30:00Z'), period: '2026-10-24' })
    // 02:30 does not exist on 29 March 2026; it is taken as the time after the change.
    expect(berlinTime(2026, 3, 29, 2, 30)).toBe(Date.parse('2026-03-29T01:30:00Z'))
    expect(berlinTime(2026, 10, 25, 2, 30)).toBe(Date.parse('2026-10-25T00:30:00Z'))
  })

  test('interval schedules count periods from the epoch, the same in every process', () => {
    expect(latestRun({ everyMs: 3_600_000 }, Date.parse('2026-11-02T07:59:59Z'))).toEqual({
      dueAt: Date.parse('2026-11-02T07:00:00Z'),
      period: '2026-11-02T07:00:00.000Z',
    })
  })
})

describe('one run per period', () => {
  function counted(name = 'digest', fail = false) {
    const runs: string[] = []
    const job: Job = {
      name,
      schedule: MONDAY,
      async run({ period }) {
        runs.push(period)
        if (fail) throw new Error('boom')
      },
    }
    return { job, runs }
  }

  test('two processes, a restart and the next week: each Monday runs exactly once', async () => {
    const [a, b] = await openTwice()
    let now = Date.parse('2026-11-02T07:00:01Z')
    const { job, runs } = counted()
    const schedulers = [createScheduler({ store: a, log, owner: 'a', now: () => now }), createScheduler({ store: b, log, owner: 'b', now: () => now })]
    for (const scheduler of schedulers) {
      scheduler.add(job)
      scheduler.start()
    }
    await expect.poll(() => runs).toEqual(['2026-11-02'])
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))
    expect(runs).toEqual(['2026-11-02'])

    // A process started later in the same week finds the run claimed.
    const restarted = createScheduler({ store: b, log, owner: 'b2', now: () => now })
    restarted.add(job)
    restarted.start()
    await restarted.stop()
    expect(runs).toEqual(['2026-11-02'])

    now = Date.parse('2026-11-09T07:00:00Z')
    const next = [createScheduler({ store: a, log, owner: 'a3', now: () => now }), createScheduler({ store: b, log, owner: 'b3', now: () => now })]
    for (const scheduler of next) {
      scheduler.add(job)
      scheduler.start()
    }
    await expect.poll(() => runs).toEqual(['2026-11-02', '2026-11-09'])
    await Promise.all(next.map((scheduler) => scheduler.stop()))
    expect(runs).toEqual(['2026-11-02', '2026-11-09'])
  })

  test('a failed run is given back, and another process runs it; a run missed by more than its catch-up is skipped', async () => {
    const [a, b] = await openTwice()
    const now = Date.parse('2026-11-02T07:05:00Z')
    const failing = counted('digest', true)
    const first = createScheduler({ store: a, log, owner: 'a' })
    first.add(failing.job)
    expect(await first.runDue(now)).toEqual([{ job: 'digest', period: '2026-11-02', result: 'failed' }])
    // This process waits five minutes before it tries the same run again.
    expect(await first.runDue(now + 60_000)).toEqual([{ job: 'digest', period: '2026-11-02', result: 'waiting' }])
    await first.stop()
    const working = counted('digest')
    const second = createScheduler({ store: b, log, owner: 'b' })
    second.add(working.job)
    expect(await second.runDue(now)).toEqual([{ job: 'digest', period: '2026-11-02', result: 'done' }])
    expect([failing.runs, working.runs]).toEqual([['2026-11-02'], ['2026-11-02']])
    await second.stop()

    const late = counted('late')
    const third = createScheduler({ store: a, log, owner: 'a' })
    third.add(late.job)
    expect(await third.runDue(Date.parse('2026-11-02T20:00:00Z'))).toEqual([])
    await third.stop()
    expect(late.runs).toEqual([])
  })

  test('old claims are pruned as new ones are made', async () => {
    const [a] = await openTwice()
    expect(await a.claimJobRun('hourly', '2026-01-01T00:00:00.000Z', 'x', '2025-12-01')).toBe(true)
    expect(await a.claimJobRun('hourly', '2026-01-01T00:00:00.000Z', 'y', '2025-12-01')).toBe(false)
    expect(await a.claimJobRun('hourly', '2026-03-01T00:00:00.000Z', 'x', '2026-02-01')).toBe(true)
    // The January claim is gone, so it could be made again; the March one stands.
    expect(await a.claimJobRun('hourly', '2026-01-01T00:00:00.000Z', 'z', '2025-12-01')).toBe(true)
    expect(await a.claimJobRun('hourly', '2026-03-01T00:00:00.000Z', 'z', '2026-02-01')).toBe(false)
  })
})

describe('runDue, on a clock the test holds', () => {
  test('two schedulers on one store asked at the same time: the run is done once, the other finds it claimed', async () => {
    const [a, b] = await openTwice()
    const runs: string[] = []
    const job: Job = { name: 'digest', schedule: MONDAY, run: async ({ period }) => void runs.push(period) }
    const hourly: Job = { name: 'hourly', schedule: { everyMs: 3_600_000 }, run: async ({ period }) => void runs.push(period) }
    const schedulers = [createScheduler({ store: a, log, owner: 'a' }), createScheduler({ store: b, log, owner: 'b' })]
    for (const scheduler of schedulers) for (const each of [job, hourly]) scheduler.add(each)
    const monday = Date.parse('2026-11-02T07:00:00Z')
    const results = (await Promise.all(schedulers.map((scheduler) => scheduler.runDue(monday)))).flat()
    expect(results.map((run) => `${run.job} ${run.result}`).sort()).toEqual(['digest claimed', 'digest done', 'hourly claimed', 'hourly done'])
    expect(runs.sort()).toEqual(['2026-11-02', '2026-11-02T07:00:00.000Z'])
    // Asked again within the same periods: nothing runs.
    const again = (await Promise.all(schedulers.map((scheduler) => scheduler.runDue(monday + 30 * 60_000)))).flat()
    expect(again.every((run) => run.result === 'claimed')).toBe(true)
    // A week on: the next Monday's run, and that hour's.
    const next = await schedulers[1]!.runDue(Date.parse('2026-11-09T07:00:00Z'))
    expect(next.map((run) => `${run.job} ${run.period} ${run.result}`)).toEqual(['digest 2026-11-09 done', 'hourly 2026-11-09T07:00:00.000Z done'])
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))
    expect(runs).toHaveLength(4)
  })

  test("the timer's run of a job in progress finishes before runDue looks at the same job, which then does not run it twice", async () => {
    const [a] = await openTwice()
    const monday = Date.parse('2026-11-02T07:00:00Z')
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const runs: string[] = []
    const job: Job = {
      name: 'digest',
      schedule: MONDAY,
      async run({ period }) {
        runs.push(period)
        await gate
      },
    }
    const scheduler = createScheduler({ store: a, log, owner: 'a', now: () => monday })
    scheduler.add(job)
    scheduler.start()
    await expect.poll(() => runs).toEqual(['2026-11-02'])
    const asked = scheduler.runDue(monday)
    release()
    expect(await asked).toEqual([{ job: 'digest', period: '2026-11-02', result: 'claimed' }])
    await scheduler.stop()
    expect(runs).toEqual(['2026-11-02'])
  })
})
