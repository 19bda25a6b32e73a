// Notifications of a genuine inquiry (webhooks and presets, src/server/notify/): one outbox row per address, queued in
// the transaction that makes the inquiry genuine, so that a crash leaves either the inquiry without them or both.
import type { Transaction } from 'kysely'
import type { Database } from '../schema.ts'
import type { DealEvent } from '../inquiry-types.ts'

/**
 * The outbox needs a Message-ID on every row; a notification carries none (its delivery id is the row's id), so
 * this only tells its rows apart from mail when someone reads the table.
 */
export const notificationMessageIdFor = (inquiry: { id: number; token: string; domain: string }) => `<notify-${inquiry.id}-${inquiry.token}@${inquiry.domain}>`

/** The outbox rows of an inquiry's notifications, one per distinct address, due `now`. */
function notificationRows(inquiryId: number, messageId: string, urls: readonly string[], now: number) {
  return [...new Set(urls)].map((url) => ({
    inquiry_id: inquiryId,
    reply_id: null,
    message_id: messageId,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    mail_to: null,
    webhook_url: url,
  }))
}

/**
 * Queues one notification per address for the inquiry, in the caller's transaction (one statement). An address that
 * already has one for this inquiry keeps it: marking an inquiry genuine twice notifies once.
 */
export async function queueNotifications(
  trx: Transaction<Database>,
  inquiry: { id: number; token: string; domain: string },
  urls: readonly string[],
  now: number,
): Promise<void> {
  if (urls.length === 0) return
  await trx
    .insertInto('outbox')
    .values(notificationRows(inquiry.id, notificationMessageIdFor(inquiry), urls, now))
    .onConflict((oc) => oc.columns(['inquiry_id', 'webhook_url']).where('webhook_url', 'is not', null).where('deal_event', 'is', null).doNothing())
    .execute()
}

/**
 * Queues a deal's event (deal.created, deal.paid, ...) to each address, in the caller's transaction: once per deal,
 * event and address (a renewed deal is not "created" twice). The payload is made when it is sent, from the deal as it
 * is then, and never carries the transfer code or the page's link (notify/message.ts).
 */
export async function queueDealNotifications(
  trx: Transaction<Database>,
  deal: { id: number; inquiryId: number; token: string; domain: string },
  event: DealEvent,
  urls: readonly string[] | undefined,
  now: number,
  /** The instalment an event is about (a rate's deal.overdue, decision 042): one delivery per rate. */
  rate = 0,
): Promise<void> {
  if (!urls || urls.length === 0) return
  const messageId = `<notify-deal-${deal.id}-${event}${rate === 0 ? '' : `-r${rate}`}-${deal.token}@${deal.domain}>`
  await trx
    .insertInto('outbox')
    .values(notificationRows(deal.inquiryId, messageId, urls, now).map((row) => ({ ...row, deal_id: deal.id, deal_event: event, deal_rate: rate })))
    .onConflict((oc) => oc.columns(['deal_id', 'deal_event', 'deal_rate', 'webhook_url']).where('deal_event', 'is not', null).doNothing())
    .execute()
}
