// Instalment plans (decision 042): the owner's decision to wait for an overdue rate, and the rates' reminders, each
// one transaction with its mail. A rate received is a use case's unit of work (deal/rates.ts markRatePaid).
import type { DialectSpecifics } from './dialect.ts'
import { queueDealMail } from './deal-step.ts'
import { queueDealNotifications } from './tables/notifications.ts'
import type { Db } from './tables/db.ts'
import { getDeal, type DealState } from './tables/deals.ts'
import type { DealRateStore } from './types.ts'
import { unitOfWork, type Work } from './unit-of-work.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** The buyer is reminded this long before a rate's date, and it is overdue this long after it (issue 14/19). */
const RATE_REMINDER_BEFORE_MS = 3 * DAY_MS
const RATE_OVERDUE_AFTER_MS = 7 * DAY_MS

/** The states whose rates are still watched: a cancelled deal's are not, a transferred one's (at once) still are. */
const WATCHED: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred', 'completed']

const dealIn = async (work: Work, id: number) => (await getDeal(work.trx, id))!

/** The deal locked until the work ends, with its inquiry's thread, or null. */
const lockDeal = async (work: Work, id: number) => {
  const row = await work
    .forUpdate(
      work.trx
        .selectFrom('deals as d')
        .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
        .select(['d.id', 'd.status', 'd.plan_transfer', 'd.inquiry_id', 'i.token', 'i.domain'])
        .where('d.id', '=', id),
    )
    .executeTakeFirst()
  return row && { ...row, inquiryId: Number(row.inquiry_id) }
}

export function dealRateStore(db: Db, dialect: DialectSpecifics): DealRateStore {
  const { guard } = dialect
  const transact = unitOfWork(db, dialect)

  return {
    waitForRate(id, number, now) {
      return transact(async (work) => {
        const { trx } = work
        const current = await lockDeal(work, id)
        if (!current || current.plan_transfer === null) return { status: 'not-found' } as const
        if (!WATCHED.includes(current.status)) return { status: 'wrong-state', current: current.status } as const
        const rate = await trx.selectFrom('deal_rates').select(['id', 'paid_at']).where('deal_id', '=', id).where('number', '=', number).executeTakeFirst()
        if (!rate) return { status: 'not-found' } as const
        if (rate.paid_at !== null) return { status: 'already-paid' } as const
        await trx.updateTable('deal_rates').set({ waited_at: now }).where('id', '=', rate.id).execute()
        return { status: 'done', deal: await dealIn(work, id), replyId: null, allPaid: false } as const
      })
    },
    async rateRemindersDue(now) {
      const rows = await guard(() =>
        db
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
          .execute(),
      )
      return rows.map((row) => ({
        id: Number(row.deal_id),
        number: Number(row.number),
        // Past its date the "before" reminder makes no sense any more; the overdue notice says it all.
        reminder: Number(row.due_at) <= now - RATE_OVERDUE_AFTER_MS ? ('rate-overdue' as const) : ('rate-reminder' as const),
      }))
    },
    queueRateReminder(id, number, reminder, mails, now, notify) {
      const column = reminder === 'rate-reminder' ? 'reminded_at' : 'overdue_at'
      return transact(async (work) => {
        const { trx } = work
        const current = await lockDeal(work, id)
        if (!current || !WATCHED.includes(current.status)) return false
        // The mark and the mails together: of two processes one sets it, one set of mails.
        const marked = await trx
          .updateTable('deal_rates')
          .set({ [column]: now })
          .where('deal_id', '=', id)
          .where('number', '=', number)
          .where('paid_at', 'is', null)
          .where(column, 'is', null)
          .executeTakeFirst()
        if (Number(marked.numUpdatedRows) !== 1) return false
        // Due at once for the outbox, which sends by the real clock: a run at a time ahead (a test's runDue(now))
        // must not hold the mail back until that time comes.
        const due = Math.min(now, Date.now())
        for (const mail of mails) await queueDealMail(trx, current, mail, due)
        if (reminder === 'rate-overdue')
          await queueDealNotifications(
            trx,
            { id, inquiryId: Number(current.inquiry_id), token: current.token, domain: current.domain },
            'overdue',
            notify,
            due,
            number,
          )
        return true
      })
    },
  }
}
