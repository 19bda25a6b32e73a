// The table deal_rates (decision 042): an instalment plan's payments, one row each, number 0 the down payment.
import type { Selectable } from 'kysely'
import type { Database } from '../schema.ts'
import type { Q, Trx } from './db.ts'

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
