// The server's scheduled jobs, as the configuration asks for them: retention (RETENTION_DAYS), the audit trail's two
// years (always), the invoices' retention (INVOICE_RETENTION_YEARS) and the weekly digest (DIGEST=weekly). Other parts
// add theirs with `jobs.add(...)` in plugins/jobs.ts. Tests move them on with `app.jobs.runDue(now)`, on a clock they hold.
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

export function createServerJobs(config: Config, deps: { store: Store; transport: MailTransport; domains: DomainRegistry; log: FastifyBaseLogger }): Scheduler {
  const { store, transport, domains, log } = deps
  const jobs = createScheduler({ store, log, owner: leaseOwnerOf(process.pid) })
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
