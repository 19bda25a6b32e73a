// Bank statements (decision 040): the bookings applied to deals, each once by its key. Recording them is one
// transaction; marking a deal paid is then the deal's own step (deal/steps.ts markPaid), which follows from what
// is recorded, so an import that stopped between the two is completed by importing the file again.
import type { Kysely } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { Database } from './schema.ts'
import type { PaymentStore } from './payment-types.ts'

/** Far below both databases' limits on bound parameters. */
const CHUNK = 500

const chunks = <T>(values: readonly T[]) => Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) => values.slice(i * CHUNK, (i + 1) * CHUNK))

export function paymentStore(db: Kysely<Database>, dialect: DialectSpecifics): PaymentStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async bankPaymentsByKey(keys) {
      const found = new Map<string, number | null>()
      for (const part of chunks([...new Set(keys)])) {
        const rows = await guard(() => db.selectFrom('bank_payments').select(['bank_key', 'deal_id']).where('bank_key', 'in', part).execute())
        for (const row of rows) found.set(row.bank_key, row.deal_id === null ? null : Number(row.deal_id))
      }
      return found
    },
    async receivedByDeal(dealIds) {
      const received = new Map<number, number>()
      for (const part of chunks([...new Set(dealIds)])) {
        const rows = await guard(() =>
          db
            .selectFrom('bank_payments as p')
            .innerJoin('deals as d', 'd.id', 'p.deal_id')
            .whereRef('p.currency', '=', 'd.currency')
            .where('p.deal_id', 'in', part)
            .select((eb) => ['p.deal_id', eb.fn.sum<number | string>('p.amount').as('total')])
            .groupBy('p.deal_id')
            .execute(),
        )
        for (const row of rows) received.set(Number(row.deal_id), Number(row.total))
      }
      return received
    },
    async receivedByReference(dealIds) {
      const received = new Map<string, number>()
      for (const part of chunks([...new Set(dealIds)])) {
        const rows = await guard(() =>
          db
            .selectFrom('bank_payments as p')
            .innerJoin('deals as d', 'd.id', 'p.deal_id')
            .whereRef('p.currency', '=', 'd.currency')
            .where('p.deal_id', 'in', part)
            .select((eb) => ['p.reference', eb.fn.sum<number | string>('p.amount').as('total')])
            .groupBy('p.reference')
            .execute(),
        )
        for (const row of rows) received.set(row.reference, Number(row.total))
      }
      return received
    },
    recordBankPayments(payments, now) {
      if (payments.length === 0) return Promise.resolve(0)
      return write(() =>
        db.transaction().execute(async (trx) => {
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
        }),
      )
    },
  }
}
