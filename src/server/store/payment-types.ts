// The store's part for bank statements (store/payments.ts; decision 040): the bookings applied to deals.

/** A booking as the ledger keeps it: no name, no remittance text. */
interface NewBankPayment {
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

export interface PaymentStore {
  /** Which of these keys are recorded, with the deal each went to (null once the deal is erased). */
  bankPaymentsByKey(keys: readonly string[]): Promise<Map<string, number | null>>
  /** Net minor units recorded per deal (payments less returns), in the deal's currency. */
  receivedByDeal(dealIds: readonly number[]): Promise<Map<number, number>>
  /** Net minor units recorded per reference of these deals (an instalment plan's rates, decision 042). */
  receivedByReference(dealIds: readonly number[]): Promise<Map<string, number>>
  /** Records the bookings not recorded yet, in one transaction; returns how many were new. */
  recordBankPayments(payments: readonly NewBankPayment[], now: number): Promise<number>
}
