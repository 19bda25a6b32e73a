// A deal's deadline reminders (decision 036): which are due, and each one's mail queued with its mark in one
// transaction. Instalment plans' rates have their own (deal-rates.ts).
import type { Kysely } from 'kysely'
import { queueDealMail } from './deal-step.ts'
import { queueDealNotifications } from './tables/notifications.ts'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { DealReminder, DealReminderStore, DealState } from './types.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Which column marks a reminder sent, and the state the deal must still be in for it. */
const REMINDER: Record<DealReminder, { column: 'payment_reminded_at' | 'payment_overdue_at' | 'transfer_reminded_at'; status: DealState }> = {
  'payment-reminder': { column: 'payment_reminded_at', status: 'awaiting_payment' },
  'payment-overdue': { column: 'payment_overdue_at', status: 'awaiting_payment' },
  'transfer-reminder': { column: 'transfer_reminded_at', status: 'paid' },
}

export function dealReminderStore(db: Kysely<Database>, dialect: DialectSpecifics): DealReminderStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async dealRemindersDue(now) {
      const rows = await guard(() =>
        db
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
          .execute(),
      )
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
    },
    queueDealReminder(id, reminder, mail, now, notify) {
      const { column, status } = REMINDER[reminder]
      return write(() =>
        db.transaction().execute(async (trx) => {
          // The mark and the mail together: of two processes (a retried run, another instance) one sets it, one mail.
          const marked = await trx
            .updateTable('deals')
            .set({ [column]: now })
            .where('id', '=', id)
            .where('status', '=', status)
            .where(column, 'is', null)
            .executeTakeFirst()
          if (Number(marked.numUpdatedRows) !== 1) return false
          const inquiry = await trx
            .selectFrom('deals as d')
            .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
            .select(['d.inquiry_id', 'i.token', 'i.domain'])
            .where('d.id', '=', id)
            .executeTakeFirstOrThrow()
          await queueDealMail(trx, { inquiryId: Number(inquiry.inquiry_id), token: inquiry.token, domain: inquiry.domain }, mail, now)
          if (reminder === 'payment-overdue')
            await queueDealNotifications(
              trx,
              { id, inquiryId: Number(inquiry.inquiry_id), token: inquiry.token, domain: inquiry.domain },
              'overdue',
              notify,
              now,
            )
          return true
        }),
      )
    },
  }
}
