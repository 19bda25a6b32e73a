// A reminder of a deal's deadline (decision 036) or of a plan's rate (decision 042), in the use case's unit of work
// (deal/deadlines.ts, deal/rates.ts): the mark and the mail together, so that of two processes (a retried run,
// another instance) one sets it and one mail goes.
import { queueDealMail, type DealMail } from './deal-step.ts'
import { queueDealNotifications } from './tables/notifications.ts'
import { markDealReminder, type DealReminder } from './tables/deal-deadlines.ts'
import { markRateReminder, type RateReminder } from './tables/deal-rates.ts'
import type { Trx } from './tables/db.ts'
import type { LockedDeal } from './tables/deals.ts'

/** The deal as a reminder mails about it: its thread (the inquiry's token) and domain. */
type RemindedDeal = Pick<LockedDeal, 'id' | 'inquiryId' | 'token' | 'domain'>

/** Marks the reminder sent and queues its mail (with `deal.overdue` past the payment deadline); false when sent already. */
export async function recordDealReminder(
  trx: Trx,
  deal: RemindedDeal,
  reminder: DealReminder,
  mail: DealMail,
  now: number,
  notify?: readonly string[],
): Promise<boolean> {
  if (!(await markDealReminder(trx, deal.id, reminder, now))) return false
  await queueDealMail(trx, deal, mail, now)
  if (reminder === 'payment-overdue') await queueDealNotifications(trx, deal, 'overdue', notify, now)
  return true
}

/**
 * Marks a rate's reminder sent and queues its mails (with `deal.overdue` for an overdue rate); false when sent
 * already or the rate is paid.
 */
export async function recordRateReminder(
  trx: Trx,
  deal: RemindedDeal,
  number: number,
  reminder: RateReminder,
  mails: readonly DealMail[],
  now: number,
  notify?: readonly string[],
): Promise<boolean> {
  if (!(await markRateReminder(trx, deal.id, number, reminder, now))) return false
  // Due at once for the outbox, which sends by the real clock: a run at a time ahead (a test's runDue(now)) must not
  // hold the mail back until that time comes.
  const due = Math.min(now, Date.now())
  for (const mail of mails) await queueDealMail(trx, deal, mail, due)
  if (reminder === 'rate-overdue') await queueDealNotifications(trx, deal, 'overdue', notify, due, number)
  return true
}
