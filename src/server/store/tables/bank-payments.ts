// The table bank_payments (decision 040): the bookings of bank statements applied to deals, each once by its key. No
// name, no remittance text. Plain functions over the store's Kysely or a unit of work's transaction (decision 060).
import type { Q, Trx } from './db.ts'

/** A booking as the ledger keeps it. */
export interface NewBankPayment {
  /** The idempotency key (payments/match.ts bankKeyOf): a second import of the booking finds it. */
  key: string
  dealId: number
  /** The reference it was matched by. */
  reference: string
  account: string
  bankRef: string | null
  bookedOn: string | null
  /** Minor units; a return is negative. */
  amount: number
  currency: string
  kind: 'payment' | 'return'
}

/** Far below both databases' limits on bound parameters. */
const CHUNK = 500

const chunks = <T>(values: readonly T[]) => Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) => values.slice(i * CHUNK, (i + 1) * CHUNK))

/** Which of these keys are recorded, with the deal each went to (null once the deal is erased). */
export async function bankPaymentsByKey(q: Q, keys: readonly string[]): Promise<Map<string, number | null>> {
  const found = new Map<string, number | null>()
  for (const part of chunks([...new Set(keys)])) {
    const rows = await q.selectFrom('bank_payments').select(['bank_key', 'deal_id']).where('bank_key', 'in', part).execute()
    for (const row of rows) found.set(row.bank_key, row.deal_id === null ? null : Number(row.deal_id))
  }
  return found
}

/** Net minor units recorded per deal (payments less returns), in the deal's currency. */
export async function receivedByDeal(q: Q, dealIds: readonly number[]): Promise<Map<number, number>> {
  const received = new Map<number, number>()
  for (const part of chunks([...new Set(dealIds)])) {
    const rows = await q
      .selectFrom('bank_payments as p')
      .innerJoin('deals as d', 'd.id', 'p.deal_id')
      .whereRef('p.currency', '=', 'd.currency')
      .where('p.deal_id', 'in', part)
      .select((eb) => ['p.deal_id', eb.fn.sum<number | string>('p.amount').as('total')])
      .groupBy('p.deal_id')
      .execute()
    for (const row of rows) received.set(Number(row.deal_id), Number(row.total))
  }
  return received
}

/** Net minor units recorded per reference of these deals (an instalment plan's rates, decision 042). */
export async function receivedByReference(q: Q, dealIds: readonly number[]): Promise<Map<string, number>> {
  const received = new Map<string, number>()
  for (const part of chunks([...new Set(dealIds)])) {
    const rows = await q
      .selectFrom('bank_payments as p')
      .innerJoin('deals as d', 'd.id', 'p.deal_id')
      .whereRef('p.currency', '=', 'd.currency')
      .where('p.deal_id', 'in', part)
      .select((eb) => ['p.reference', eb.fn.sum<number | string>('p.amount').as('total')])
      .groupBy('p.reference')
      .execute()
    for (const row of rows) received.set(row.reference, Number(row.total))
  }
  return received
}

/** Records the bookings not recorded yet; returns how many were new. */
export async function recordBankPayments(trx: Trx, payments: readonly NewBankPayment[], now: number): Promise<number> {
  let inserted = 0
  for (const part of chunks(payments)) {
    const rows = await trx
      .insertInto('bank_payments')
      .values(
        part.map((p) => ({
          bank_key: p.key,
          deal_id: p.dealId,
          reference: p.reference,
          account: p.account,
          bank_ref: p.bankRef,
          booked_on: p.bookedOn,
          amount: p.amount,
          currency: p.currency,
          kind: p.kind,
          created_at: now,
        })),
      )
      // Another import of the same booking (a second click, another instance) recorded it first: once.
      .onConflict((oc) => oc.column('bank_key').doNothing())
      .returning('id')
      .execute()
    inserted += rows.length
  }
  return inserted
}
