// Named periodic jobs inside the server (retention, the weekly digest, ...). Every server process runs a scheduler;
// each run of a job (a job and its period: an hour, a Berlin day, a Berlin week) is claimed in the store first, so
// exactly one process does it, also across restarts, workers and instances (docs/decisions/018).
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/types.ts'
import { addDays, berlinPartsOf, berlinTime } from '../lib/berlin.ts'

/**
 * When a job runs: every `everyMs` (periods counted from the epoch, so every process agrees on them), or at a wall-
 * clock time in Europe/Berlin, daily or on one weekday (1 Monday to 7 Sunday).
 */
export type Schedule = { everyMs: number } | { daily: { hour: number; minute?: number } } | { weekly: { weekday: number; hour: number; minute?: number } }

interface JobRun {
  /** The scheduler's clock at the start of the run. */
  now: number
  /** When this run was due: its period's start. */
  dueAt: number
  /** Names the run: the same in every process ("2026-11-02" for a Berlin day). */
  period: string
  /** Aborted when the server shuts down: a long job stops between two steps. */
  signal: AbortSignal
}

export interface Job {
  name: string
  schedule: Schedule
  /**
   * How late a run may still start (a server that was down at the time): later than this, the run is skipped and the
   * next one waits for its own time. Default: a whole period for `everyMs`, 12 hours for wall-clock schedules.
   */
  catchUpMs?: number
  run(run: JobRun): Promise<void>
}

/** What runDue found for one job whose run was due. */
interface DueRun {
  job: string
  period: string
  /**
   * done: run here now. failed: run here and failed (or the store could not be asked), given back for a retry.
   * claimed: another process has it, or this one settled it before. waiting: failed here lately, tried again RETRY_MS
   * after.
   */
  result: 'done' | 'failed' | 'claimed' | 'waiting'
}

export interface Scheduler {
  /** Adds a job; before or after start. */
  add(job: Job): void
  start(): void
  /**
   * Runs every job whose run is due at `now`, claimed in the store as the timer's runs are, and resolves when they are
   * done: the seam for tests, which hold the clock instead of waiting for it. Works whether or not start() was called.
   */
  runDue(now: number): Promise<DueRun[]>
  /** Waits for the runs in progress (which were told to stop) and stops. */
  stop(): Promise<void>
}

const HOUR_MS = 3_600_000
/** Even with nothing due soon, look again this often: the clock may have been set, a claim released. */
const MAX_WAIT_MS = 60_000
/** After a failed run, this process waits this long before it tries the same run again. */
const RETRY_MS = 5 * 60_000
/** Claims older than this are removed as new ones are made: long enough for any clock skew between instances. */
const KEEP_CLAIMS_MS = 35 * 24 * HOUR_MS

const pad = (n: number) => String(n).padStart(2, '0')
const dayKey = (d: { year: number; month: number; day: number }) => `${d.year}-${pad(d.month)}-${pad(d.day)}`

/** The latest run of a schedule due at or before `now`: when it was due and its period's name. */
export function latestRun(schedule: Schedule, now: number): { dueAt: number; period: string } {
  if ('everyMs' in schedule) {
    const dueAt = Math.floor(now / schedule.everyMs) * schedule.everyMs
    return { dueAt, period: new Date(dueAt).toISOString() }
  }
  const today = berlinPartsOf(now)
  const { hour, minute = 0 } = 'daily' in schedule ? schedule.daily : schedule.weekly
  // Back from today to the last day of the schedule whose time has come.
  const back = 'daily' in schedule ? 0 : (today.weekday - schedule.weekly.weekday + 7) % 7
  const step = 'daily' in schedule ? 1 : 7
  let day = addDays(today, -back)
  let dueAt = berlinTime(day.year, day.month, day.day, hour, minute)
  if (dueAt > now) {
    day = addDays(day, -step)
    dueAt = berlinTime(day.year, day.month, day.day, hour, minute)
  }
  return { dueAt, period: dayKey(day) }
}

/** The next run after the latest one. */
export function nextRunAt(schedule: Schedule, now: number): number {
  if ('everyMs' in schedule) return latestRun(schedule, now).dueAt + schedule.everyMs
  const { dueAt } = latestRun(schedule, now)
  const p = berlinPartsOf(dueAt)
  const next = addDays(p, 'daily' in schedule ? 1 : 7)
  return berlinTime(next.year, next.month, next.day, p.hour, p.minute)
}

const catchUpOf = (job: Job) => job.catchUpMs ?? ('everyMs' in job.schedule ? job.schedule.everyMs : 12 * HOUR_MS)

export function createScheduler(options: {
  store: Pick<Store, 'claimJobRun' | 'releaseJobRun'>
  log: FastifyBaseLogger
  /** Names this process in its claims (leaseOwnerOf). */
  owner: string
  /** The clock; tests set it. */
  now?: () => number
}): Scheduler {
  const { store, log, owner } = options
  const now = options.now ?? Date.now
  const jobs: Job[] = []
  const retryAt = new Map<string, number>()
  const settled = new Set<string>()
  /** The run in progress of each job in this process (timer's or runDue's). */
  const busy = new Map<string, Promise<DueRun | undefined>>()
  const stopping = new AbortController()
  let running = false
  let timer: NodeJS.Timeout | undefined

  async function runIfDue(job: Job, time: number): Promise<DueRun | undefined> {
    const { dueAt, period } = latestRun(job.schedule, time)
    if (time - dueAt > catchUpOf(job)) return undefined
    const key = `${job.name}:${period}`
    const seen = { job: job.name, period }
    if (settled.has(key)) return { ...seen, result: 'claimed' }
    if ((retryAt.get(key) ?? 0) > time) return { ...seen, result: 'waiting' }
    const prune = latestRun(job.schedule, time - KEEP_CLAIMS_MS).period
    const claimed = await store.claimJobRun(job.name, period, `${owner} ${new Date(time).toISOString()}`, prune)
    // Claimed here or elsewhere: this process does not ask about this run again (a failed run is handed back below).
    settled.add(key)
    if (!claimed) return { ...seen, result: 'claimed' }
    const started = Date.now()
    try {
      await job.run({ now: time, dueAt, period, signal: stopping.signal })
      log.info({ job: job.name, period, ms: Date.now() - started }, `job ${job.name} done`)
      return { ...seen, result: 'done' }
    } catch (error) {
      // Given back, so that this or another process tries again while the run is still due.
      settled.delete(key)
      retryAt.set(key, time + RETRY_MS)
      await store.releaseJobRun(job.name, period).catch(() => {})
      if (stopping.signal.aborted) log.warn({ job: job.name, period }, `job ${job.name} stopped by the shutdown; it runs again later`)
      else log.error({ err: error, job: job.name, period }, `job ${job.name} failed; it is tried again`)
      return { ...seen, result: 'failed' }
    }
  }

  /** One job's check at `time`; the caller made sure it is not running in this process already. */
  function startRun(job: Job, time: number): Promise<DueRun | undefined> {
    const work = runIfDue(job, time)
      .catch((error: unknown): DueRun => {
        log.error({ err: error, job: job.name }, 'job: could not read the store')
        return { job: job.name, period: latestRun(job.schedule, time).period, result: 'failed' }
      })
      .finally(() => busy.delete(job.name))
    busy.set(job.name, work)
    return work
  }

  function tick() {
    // One job's slow run does not hold the others up; the same job is not started twice in one process.
    const time = now()
    for (const job of jobs) if (!busy.has(job.name)) void startRun(job, time)
  }

  function schedule() {
    if (!running) return
    const time = now()
    const next = Math.min(...jobs.map((job) => nextRunAt(job.schedule, time)), time + MAX_WAIT_MS)
    timer = setTimeout(trigger, Math.max(0, Math.min(MAX_WAIT_MS, next - time)))
  }

  function trigger() {
    if (!running) return
    tick()
    schedule()
  }

  return {
    add(job) {
      if (jobs.some((other) => other.name === job.name)) throw new Error(`a job named ${job.name} is already scheduled`)
      jobs.push(job)
      if (running) {
        clearTimeout(timer)
        trigger()
      }
    },
    start() {
      if (running) return
      running = true
      trigger()
    },
    async runDue(time) {
      const runs = await Promise.all(
        jobs.map(async (job) => {
          // A run of the same job in progress here (the timer's) finishes first; then this one looks at `time`.
          for (let current = busy.get(job.name); current; current = busy.get(job.name)) await current
          return startRun(job, time)
        }),
      )
      return runs.filter((run) => run !== undefined)
    },
    async stop() {
      running = false
      clearTimeout(timer)
      stopping.abort()
      await Promise.all([...busy.values()])
    },
  }
}
