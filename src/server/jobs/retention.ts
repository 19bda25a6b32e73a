// RETENTION_DAYS: once a day, inquiries whose last activity is older than that are erased with everything kept
// with them. Page-view counters are no personal data and stay.
import { setImmediate as yieldToOthers } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import { eraseMailFiles } from '../privacy/erase.ts'
import { eraseInquiries } from '../store/privacy.ts'
import type { Store } from '../store/types.ts'
import type { Job } from '../scheduler/scheduler.ts'

const DAY_MS = 24 * 3_600_000
/** Small transactions: other writers (a visitor's inquiry) wait for one batch at most, never for the whole run. */
const RETENTION_BATCH = 500

export interface RetentionResult {
  inquiries: number
  replies: number
  outboxRows: number
  files: number
  /** Invoices of the erased deals, kept for their own period (INVOICE_RETENTION_YEARS, §147 AO, §14b UStG; decision 038). */
  keptInvoices: number
}

/** Erases what is older than `days` at `now`, batch by batch, until nothing is left or `signal` says stop. */
/** What retention reads and erases of the store. */
type RetentionStore = Pick<Store, 'staleInquiries' | 'transact' | 'purgeErased'>

export async function eraseExpired(options: {
  store: RetentionStore
  dataDir: string
  days: number
  now: number
  signal?: AbortSignal
  batch?: number
}): Promise<RetentionResult> {
  const { store, dataDir, days, now, signal, batch = RETENTION_BATCH } = options
  const before = now - days * DAY_MS
  const total: RetentionResult = { inquiries: 0, replies: 0, outboxRows: 0, files: 0, keptInvoices: 0 }
  try {
    for (;;) {
      signal?.throwIfAborted()
      const ids = await store.staleInquiries(before, batch)
      if (ids.length === 0) break
      const erased = await store.transact((work) => eraseInquiries(work.trx, ids))
      total.inquiries += erased.inquiries.length
      total.replies += erased.replyIds.length
      total.outboxRows += erased.outboxRows
      total.keptInvoices += erased.keptInvoices.length
      total.files += await eraseMailFiles(dataDir, erased)
      if (ids.length < batch) break
      await yieldToOthers()
    }
  } finally {
    // Once for the whole run, also one that was stopped: it rewrites the search index.
    if (total.inquiries > 0) await store.purgeErased()
  }
  return total
}

export function retentionJob(options: { store: RetentionStore; dataDir: string; days: number; log: FastifyBaseLogger }): Job {
  const { log, ...rest } = options
  return {
    name: 'retention',
    // At night, when hardly anyone writes; a server that was down then catches up when it starts.
    schedule: { daily: { hour: 3, minute: 30 } },
    catchUpMs: DAY_MS,
    async run({ now, signal }) {
      const erased = await eraseExpired({ ...rest, now, signal })
      // Counts only: what was erased must not live on in the log.
      const kept = erased.keptInvoices
        ? `; kept ${erased.keptInvoices} invoices of their deals (§147 AO, §14b UStG: erased after their own period, INVOICE_RETENTION_YEARS)`
        : ''
      log.info({ days: rest.days, ...erased }, `retention: erased ${erased.inquiries} inquiries older than ${rest.days} days${kept}`)
    },
  }
}
