// INVOICE_RETENTION_YEARS (decision 038): once a day, invoices whose retention period is over are erased. The period
// starts at the end of the calendar year the invoice was issued in (§14b Abs. 1 Satz 3 UStG, §147 Abs. 4 AO) and is
// 8 years since 2025 (§147 Abs. 3 AO, §14b Abs. 1 Satz 1 UStG as changed by the Viertes Bürokratieentlastungsgesetz).
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/types.ts'
import { berlinPartsOf, berlinTime } from '../lib/berlin.ts'
import type { Job } from '../scheduler/scheduler.ts'

const DAY_MS = 24 * 3_600_000

/** Invoices issued before this moment are due at `now`: 1 January, 00:00 Berlin, `years` years before this year's. */
function invoicesDueBefore(now: number, years: number): number {
  return berlinTime(berlinPartsOf(now).year - years, 1, 1, 0)
}

export function invoiceRetentionJob(options: { store: Store; years: number; log: FastifyBaseLogger }): Job {
  const { log, ...rest } = options
  return {
    name: 'invoice-retention',
    // After the inquiries' retention (03:30): at night, when hardly anyone writes.
    schedule: { daily: { hour: 3, minute: 45 } },
    catchUpMs: DAY_MS,
    async run({ now }) {
      const erased = await rest.store.eraseInvoicesIssuedBefore(invoicesDueBefore(now, rest.years))
      // Numbers only: what an invoice said never reaches the log.
      if (erased.length > 0)
        log.info(
          { years: rest.years, invoices: erased },
          `invoice retention: erased ${erased.length} invoices issued before ${berlinPartsOf(now).year - rest.years}`,
        )
    },
  }
}
