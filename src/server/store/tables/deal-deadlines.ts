// The deals table's reminder marks (decision 036): which reminders are due, and each one marked sent. The mark is a
// conditional write, so of two processes (a retried run, another instance) one sets it and one mail goes.
// Instalment plans' rates have their own (deal-rates.ts).
import type { Q, Trx } from './db.ts'
import type { DealState } from './deals.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A deal's deadlines (decision 036): the buyer reminded halfway to the payment deadline, the owner told when it has
 * passed, the owner reminded a day before the transfer deadline (or after it, if the server was down then).
 */
export type DealReminder = 'payment-reminder' | 'payment-overdue' | 'transfer-reminder'

/** Which column marks a reminder sent, and the state the deal must still be in for it. */
const REMINDER: Record<DealReminder, { column: 'payment_reminded_at' | 'payment_overdue_at' | 'transfer_reminded_at'; status: DealState }> = {
  'payment-reminder': { column: 'payment_reminded_at', status: 'awaiting_payment' },
  'payment-overdue': { column: 'payment_overdue_at', status: 'awaiting_payment' },
  'transfer-reminder': { column: 'transfer_reminded_at', status: 'paid' },
}

/** The deadline reminders due by `now` and not sent yet, oldest deal first. */
export async function dealRemindersDue(q: Q, now: number): Promise<{ id: number; reminder: DealReminder }[]> {
  const rows = await q
    .selectFrom('deals')
    .select(['id', 'status', 'created_at', 'payment_due_at', 'transfer_due_at', 'payment_reminded_at', 'payment_overdue_at', 'transfer_reminded_at'])
    .where((eb) =>
      eb.or([
        // A plan's payments are watched rate by rate (rateRemindersDue).
        eb.and([
          eb('status', '=', 'awaiting_payment'),
          eb('plan_transfer', 'is', null),
          eb.or([eb('payment_reminded_at', 'is', null), eb('payment_overdue_at', 'is', null)]),
        ]),
        eb.and([eb('status', '=', 'paid'), eb('transfer_reminded_at', 'is', null)]),
      ]),
    )
    .orderBy('id')
    .execute()
  const due: { id: number; reminder: DealReminder }[] = []
  for (const row of rows) {
    const id = Number(row.id)
    const [created, paymentDue] = [Number(row.created_at), Number(row.payment_due_at)]
    if (row.status === 'awaiting_payment') {
      // Past the deadline the buyer is not reminded any more: the owner is told instead and decides.
      if (row.payment_overdue_at === null && now >= paymentDue) due.push({ id, reminder: 'payment-overdue' })
      else if (row.payment_reminded_at === null && now < paymentDue && now >= created + (paymentDue - created) / 2)
        due.push({ id, reminder: 'payment-reminder' })
    } else if (row.transfer_due_at !== null && now >= Number(row.transfer_due_at) - DAY_MS) {
      due.push({ id, reminder: 'transfer-reminder' })
    }
  }
  return due
}

/** Marks the reminder sent; false when it was already, or the deal has moved on from the state it is for. */
export async function markDealReminder(trx: Trx, id: number, reminder: DealReminder, now: number): Promise<boolean> {
  const { column, status } = REMINDER[reminder]
  const marked = await trx
    .updateTable('deals')
    .set({ [column]: now })
    .where('id', '=', id)
    .where('status', '=', status)
    .where(column, 'is', null)
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) === 1
}
