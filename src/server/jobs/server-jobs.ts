// The server's scheduled jobs, as the configuration asks for them: retention (RETENTION_DAYS), the audit trail's two
// years (always), the invoices' retention (INVOICE_RETENTION_YEARS) and the weekly digest (DIGEST=weekly). Other parts
// add theirs with `jobs.add(...)` in app.ts.
import type { FastifyBaseLogger } from 'fastify'
import { leaseOwnerOf } from '../cluster/lease.ts'
import type { Config } from '../config.ts'
import type { MailTransport } from '../mail/transport.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store } from '../store/types.ts'
import { auditRetentionJob } from './audit-retention.ts'
import { digestJob } from './digest.ts'
import { invoiceRetentionJob } from './invoice-retention.ts'
import { retentionJob } from './retention.ts'
import { createScheduler, type Scheduler } from '../scheduler/scheduler.ts'

/**
 * The jobs' clock. JOBS_CLOCK_START (tests only) moves it, not the process's: it starts at that time and runs at real
 * speed, so that a real server reaches "Monday 08:00" a few seconds after it started, and everything else it does
 * (mail leases, sessions, timestamps) keeps the real time.
 */
function jobsClock(start: number | undefined): () => number {
  if (start === undefined) return Date.now
  const offset = start - Date.now()
  return () => Date.now() + offset
}

export function createServerJobs(config: Config, deps: { store: Store; transport: MailTransport; domains: DomainRegistry; log: FastifyBaseLogger }): Scheduler {
  const { store, transport, domains, log } = deps
  const jobs = createScheduler({ store, log, owner: leaseOwnerOf(process.pid), now: jobsClock(config.jobsClockStart) })
  if (config.retentionDays !== undefined) {
    jobs.add(retentionJob({ store, dataDir: config.dataDir, days: config.retentionDays, log }))
  }
  jobs.add(auditRetentionJob({ store, log }))
  if (config.invoiceRetentionYears !== undefined) {
    jobs.add(invoiceRetentionJob({ store, years: config.invoiceRetentionYears, log }))
  }
  if (config.digest === 'weekly') {
    jobs.add(
      digestJob({
        store,
        transport,
        addresses: { from: config.mailFrom, to: config.mailTo },
        listed: () => [...domains.current().names()],
        domains,
        log,
      }),
    )
  }
  return jobs
}
