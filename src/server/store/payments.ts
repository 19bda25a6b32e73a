// The store's bank-statement methods (decision 040) for the callers that still ask the Store: the bookings applied
// to deals (tables/bank-payments.ts). Recording them is one transaction; marking a deal paid is then the deal's own
// step (deal/steps.ts markPaid), which follows from what is recorded, so an import that stopped between the two is
// completed by importing the file again.
import type { DialectSpecifics } from './dialect.ts'
import * as payments from './tables/bank-payments.ts'
import type { Db } from './tables/db.ts'
import type { PaymentStore } from './types.ts'
import { unitOfWork } from './unit-of-work.ts'

export function paymentStore(db: Db, dialect: DialectSpecifics): PaymentStore {
  const { guard } = dialect
  const transact = unitOfWork(db, dialect)
  return {
    bankPaymentsByKey: (keys) => guard(() => payments.bankPaymentsByKey(db, keys)),
    receivedByDeal: (dealIds) => guard(() => payments.receivedByDeal(db, dealIds)),
    receivedByReference: (dealIds) => guard(() => payments.receivedByReference(db, dealIds)),
    recordBankPayments: (rows, now) => (rows.length === 0 ? Promise.resolve(0) : transact((work) => payments.recordBankPayments(work.trx, rows, now))),
  }
}
