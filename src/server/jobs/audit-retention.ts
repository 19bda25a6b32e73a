// The audit trail is kept two years (decision 043): once a day, older rows are removed. Always on, whatever
// RETENTION_DAYS says about inquiries.
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/types.ts'
import type { Job } from '../scheduler/scheduler.ts'

const DAY_MS = 24 * 3_600_000
export const AUDIT_RETENTION_DAYS = 730

export function auditRetentionJob(options: { store: Store; log: FastifyBaseLogger }): Job {
  const { store, log } = options
  return {
    name: 'audit-retention',
    schedule: { daily: { hour: 3, minute: 40 } },
    catchUpMs: DAY_MS,
    async run({ now }) {
      const removed = await store.pruneAudit(now - AUDIT_RETENTION_DAYS * DAY_MS)
      if (removed > 0) log.info({ removed }, `audit: removed ${removed} rows older than ${AUDIT_RETENTION_DAYS} days`)
    },
  }
}
