// The daily checks on the scheduler (decision 018): an hourly job checks the listed names whose last check is a day
// old, a 24th of the portfolio (twice that to catch up) per hour, so that 100,000 names are spread over the day
// instead of 100,000 lookups at 03:00 (decision 047). Results are stored as they come, so a run cut short by a
// shutdown loses only the names in flight.
import type { FastifyBaseLogger } from 'fastify'
import { EXPIRING_DAYS, type DomainCheck } from '../../shared/domain-checks.ts'
import type { ForSaleDomain } from '../dns/for-sale.ts'
import type { Job } from '../scheduler/scheduler.ts'
import type { Store } from '../store/types.ts'
import type { CheckOptions } from './check.ts'
import type { RdapBootstrap } from './rdap.ts'

// The checks' code (node:https, DNS, IANA's file parsed) loads with the first run, an hour or a restart away, not
// with every start of the server (decision 034).
const checkCode = () => import('./check.ts')
const rdapCode = () => import('./rdap.ts')

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** A name checked this long ago is due again (an hour's slack, so that it falls in the same hour each day). */
const DUE_AFTER_MS = DAY_MS - HOUR_MS
/** Results are written this many at a time. */
const SAVE_EVERY = 100
const BOOTSTRAP_EVERY_MS = DAY_MS

/** The names due in this run: never checked first, then the oldest; at most `limit`. */
export function dueNames(listed: ForSaleDomain[], previous: ReadonlyMap<string, DomainCheck>, now: number, limit: number): ForSaleDomain[] {
  return listed
    .map((domain) => ({ domain, at: previous.get(domain.ascii)?.checkedAt ?? -1 }))
    .filter(({ at }) => at < 0 || now - at >= DUE_AFTER_MS)
    .sort((a, b) => a.at - b.at)
    .slice(0, limit)
    .map(({ domain }) => domain)
}

/** A 24th of the names per hour, twice that so that a missed hour (a restart) is caught up. */
export const hourlyLimit = (names: number) => Math.max(1, Math.ceil(names / 24) * 2)

/**
 * IANA's file in use: the shipped one until a newer one could be fetched (tried once a day). Read by `refresh`, which
 * every run calls before it checks a name.
 */
export function bootstrapHolder(options: { url?: URL; timeoutMs?: number; allowLoopback?: boolean } = {}) {
  let current: RdapBootstrap | undefined
  let triedAt = -Infinity
  return {
    current: (): RdapBootstrap => {
      if (!current) throw new Error('bootstrapHolder: refresh() first')
      return current
    },
    async refresh(now: number, log: FastifyBaseLogger) {
      const { fetchBootstrap, IANA_BOOTSTRAP_URL, shippedBootstrap } = await rdapCode()
      current ??= shippedBootstrap()
      if (now - triedAt < BOOTSTRAP_EVERY_MS) return
      triedAt = now
      const fresh = await fetchBootstrap(options.url ?? new URL(IANA_BOOTSTRAP_URL), current, {
        timeoutMs: options.timeoutMs ?? 10_000,
        allowLoopback: options.allowLoopback,
      })
      if (fresh) {
        current = fresh
        log.info({ publication: fresh.publication }, 'RDAP bootstrap file refreshed from IANA')
      }
    },
  }
}

/** Every check as one run would do it: the due names checked, stored, and the owner's notifications queued. */
export async function runDomainChecks(options: {
  store: Pick<Store, 'domainChecks' | 'saveDomainChecks'>
  /** The names the server shows and sells (sold and unlisted ones are not checked). */
  listed: ForSaleDomain[]
  checks: Omit<CheckOptions, 'bootstrap' | 'now'>
  bootstrap: () => RdapBootstrap
  now: () => number
  /** Where a name's notifications go (its notify:, else NOTIFY_URLS). */
  notify: (ascii: string) => readonly string[]
  /** At most this many names; all by default (the CLI). */
  limit?: number
  /** Check every name now, RDAP included, whenever it was last checked (the CLI). */
  all?: boolean
}): Promise<{ checks: DomainCheck[]; /** Changes of state the owner is told of (a notification per address). */ changes: number }> {
  const { store } = options
  const previous = new Map((await store.domainChecks()).map((check) => [check.domain, check]))
  const now = options.now()
  const forSale = options.listed.filter((domain) => domain.status !== 'sold')
  const due = options.all ? forSale : dueNames(forSale, previous, now, options.limit ?? forSale.length)
  const { createChecker } = await checkCode()
  const checker = createChecker({ ...options.checks, bootstrap: options.bootstrap, now: options.now, forceRdap: options.all })
  let pending: DomainCheck[] = []
  let changes = 0
  const save = async () => {
    const batch = pending
    pending = []
    if (batch.length)
      changes += (await store.saveDomainChecks(batch, { now: options.now(), expiringMs: EXPIRING_DAYS * DAY_MS, notify: options.notify })).length
  }
  const checks = await checker.check(due, previous, async (check) => {
    pending.push(check)
    if (pending.length >= SAVE_EVERY) await save()
  })
  await save()
  return { checks, changes }
}

export function domainCheckJob(options: {
  store: Pick<Store, 'domainChecks' | 'saveDomainChecks'>
  listed: () => ForSaleDomain[]
  checks: Omit<CheckOptions, 'bootstrap' | 'now' | 'signal'>
  bootstrap: ReturnType<typeof bootstrapHolder>
  notify: (ascii: string) => readonly string[]
  /** Something was queued: send now. */
  queued: () => void
  log: FastifyBaseLogger
}): Job {
  const { store, log } = options
  return {
    name: 'domain-checks',
    schedule: { everyMs: HOUR_MS },
    async run({ now, signal }) {
      const listed = options.listed()
      // Nothing listed, nothing to check: no request for IANA's bootstrap file either (a server started without a
      // domains file, as `npm start` is at first, reaches nothing).
      if (listed.length === 0) return
      await options.bootstrap.refresh(now, log)
      // The run's clock moves on from the scheduler's (a fixed clock in tests moves with real time from its start).
      const start = Date.now()
      const result = await runDomainChecks({
        store,
        listed,
        checks: { ...options.checks, signal },
        bootstrap: options.bootstrap.current,
        now: () => now + (Date.now() - start),
        notify: options.notify,
        limit: hourlyLimit(listed.length),
      })
      if (result.changes) options.queued()
      log.info({ checked: result.checks.length, changes: result.changes }, 'domain checks done')
    },
  }
}
