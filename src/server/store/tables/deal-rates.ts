// The table deal_rates (decision 042): an instalment plan's payments, one row each, number 0 the down payment.
import type { Selectable } from 'kysely'
import type { Database } from '../schema.ts'
import type { Q, Trx } from './db.ts'
import type { DealState } from '../../../shared/deal-api.ts'

/** One payment of a deal's instalment plan (decision 042). */
export interface StoredRate {
  number: number
  amount: number
  dueAt: number
  /** Its own payment reference (DL-2026-0042-R03). */
  reference: string
  paidAt: number | null
  paidBy: 'owner' | 'bank' | null
  remindedAt: number | null
  /** When it was found unpaid 7 days after its date (the owner told, the buyer reminded). */
  overdueAt: number | null
  /** When the owner decided to wait for an overdue rate. */
  waitedAt: number | null
}

/** A rate's reminders (decision 042): the buyer 3 days before its date; the owner and the buyer once it is 7 days late. */
export type RateReminder = 'rate-reminder' | 'rate-overdue'

const toRate = (row: Selectable<Database['deal_rates']>): StoredRate => ({
  number: Number(row.number),
  amount: Number(row.amount),
  dueAt: Number(row.due_at),
  reference: row.reference,
  paidAt: row.paid_at === null ? null : Number(row.paid_at),
  paidBy: row.paid_by,
  remindedAt: row.reminded_at === null ? null : Number(row.reminded_at),
  overdueAt: row.overdue_at === null ? null : Number(row.overdue_at),
  waitedAt: row.waited_at === null ? null : Number(row.waited_at),
})

/** Far below both databases' limits on bound parameters. */
const CHUNK = 500

/** The rates of these deals, each deal's in order. */
export async function ratesOf(q: Q, dealIds: readonly number[]): Promise<Map<number, StoredRate[]>> {
  const rates = new Map<number, StoredRate[]>()
  for (let i = 0; i < dealIds.length; i += CHUNK) {
    const part = dealIds.slice(i, i + CHUNK)
    const found = await q.selectFrom('deal_rates').selectAll().where('deal_id', 'in', part).orderBy('deal_id').orderBy('number').execute()
    for (const row of found) rates.set(Number(row.deal_id), [...(rates.get(Number(row.deal_id)) ?? []), toRate(row)])
  }
  return rates
}

/** One rate received, by the owner or a bank statement (decision 042); false when it was received already. */
export async function receiveRate(trx: Trx, dealId: number, number: number, by: 'owner' | 'bank', now: number): Promise<boolean> {
  const marked = await trx
    .updateTable('deal_rates')
    .set({ paid_at: now, paid_by: by })
    .where('deal_id', '=', dealId)
    .where('number', '=', number)
    .where('paid_at', 'is', null)
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) === 1
}

/** "Zahlung erhalten" on a plan: every rate still open counts as received by the owner (decision 042). */
export async function receiveOpenRates(trx: Trx, dealId: number, now: number): Promise<void> {
  await trx.updateTable('deal_rates').set({ paid_at: now, paid_by: 'owner' }).where('deal_id', '=', dealId).where('paid_at', 'is', null).execute()
}

/** The same, on rates already read: what the rows hold once receiveOpenRates has run. */
export const openRatesReceived = (rates: readonly StoredRate[], now: number): StoredRate[] =>
  rates.map((rate) => (rate.paidAt === null ? { ...rate, paidAt: now, paidBy: 'owner' } : rate))

const DAY_MS = 24 * 60 * 60 * 1000
/** The buyer is reminded this long before a rate's date, and it is overdue this long after it (issue 14/19). */
const RATE_REMINDER_BEFORE_MS = 3 * DAY_MS
const RATE_OVERDUE_AFTER_MS = 7 * DAY_MS

/** The states whose rates are still watched: a cancelled deal's are not, a transferred one's (at once) still are. */
export const WATCHED: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred', 'completed']

/** The rates' reminders due by `now` and not sent yet, of deals not cancelled. */
export async function rateRemindersDue(q: Q, now: number): Promise<{ id: number; number: number; reminder: RateReminder }[]> {
  const rows = await q
    .selectFrom('deal_rates as r')
    .innerJoin('deals as d', 'd.id', 'r.deal_id')
    .select(['r.deal_id', 'r.number', 'r.due_at', 'r.reminded_at', 'r.overdue_at'])
    .where('d.status', 'in', WATCHED)
    .where('r.paid_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('r.reminded_at', 'is', null), eb('r.due_at', '<=', now + RATE_REMINDER_BEFORE_MS), eb('r.due_at', '>', now)]),
        eb.and([eb('r.overdue_at', 'is', null), eb('r.due_at', '<=', now - RATE_OVERDUE_AFTER_MS)]),
      ]),
    )
    .orderBy('r.deal_id')
    .orderBy('r.number')
    .execute()
  return rows.map((row) => ({
    id: Number(row.deal_id),
    number: Number(row.number),
    // Past its date the "before" reminder makes no sense any more; the overdue notice says it all.
    reminder: Number(row.due_at) <= now - RATE_OVERDUE_AFTER_MS ? ('rate-overdue' as const) : ('rate-reminder' as const),
  }))
}

/** Marks a rate's reminder sent; false when it was already, or the rate is paid. */
export async function markRateReminder(trx: Trx, dealId: number, number: number, reminder: RateReminder, now: number): Promise<boolean> {
  const column = reminder === 'rate-reminder' ? 'reminded_at' : 'overdue_at'
  const marked = await trx
    .updateTable('deal_rates')
    .set({ [column]: now })
    .where('deal_id', '=', dealId)
    .where('number', '=', number)
    .where('paid_at', 'is', null)
    .where(column, 'is', null)
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) === 1
}

/** "Abwarten" (decision 042): the owner's decision to wait for an overdue rate, marked for the console. */
export async function waitForRate(trx: Trx, dealId: number, number: number, now: number): Promise<void> {
  await trx.updateTable('deal_rates').set({ waited_at: now }).where('deal_id', '=', dealId).where('number', '=', number).execute()
}
