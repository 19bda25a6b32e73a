// What a step of a deal writes besides its row (docs/deals.md, decision 033): its mail to the buyer, the "bereits
// verkauft" mails, the invoices and the webhook events, all in the step's unit of work (decision 060). The use cases
// (deal/steps.ts, deal/rates.ts) lock and read the deal, check and compose, then record the step here.
import type { DealMailKind } from '../../shared/console-api.ts'
import type { DealEvent } from './inquiry-types.ts'
import { queueDealNotifications } from './tables/notifications.ts'
import { queueReplyMail } from './reply-mail.ts'
import type { Trx } from './tables/db.ts'
import { openRatesReceived, receiveOpenRates } from './tables/deal-rates.ts'
import { changeDeal, changed, OPEN_INQUIRY, type DealState, type DealUpdate, type LockedDeal, type StoredDeal, withoutToken } from './tables/deals.ts'
import { issueAdvancesIn, issueInvoiceIn, type AdvanceIssue, type InvoiceIssue } from './tables/invoices.ts'

/** A "bereits verkauft" mail, composed in the inquirer's language, queued with the completion. */
export interface SoldNotice {
  inquiryId: number
  body: string
  to: string
  replyTo: string
}

/** A mail to the buyer that goes with a step, as a reply of the inquiry (its text composed before). */
export interface DealMail {
  kind: DealMailKind
  body: string
  to: string
  replyTo: string
}

export interface DealChange extends DealUpdate {
  /** The states the step may start from; checked in the step's transaction. */
  from: readonly DealState[]
  now: number
  /**
   * "Bereits verkauft" to the other inquirers, in the step's transaction; an inquiry that is no longer open (declined,
   * archived, erased, told before) is left out there.
   */
  soldNotices?: readonly SoldNotice[]
  mail?: DealMail
  /** The addresses told of the step (`deal.<state>`), in its transaction. */
  notify?: readonly string[]
  /** An invoice or Stornorechnung issued with the step, in its transaction (decision 038). */
  invoice?: InvoiceIssue
  /** The Anzahlungsrechnungen of the rates received and not yet invoiced (decision 046), attached to the step's mail. */
  advances?: AdvanceIssue
  /** "Zahlung erhalten" on an instalment plan: its rates still open are marked received by the owner (decision 042). */
  ratesPaid?: boolean
}

export type DealChangeResult =
  | { status: 'done'; deal: StoredDeal; replyId: number | null; soldNotices?: number; invoiceId?: number | null }
  | { status: 'not-found' }
  | { status: 'wrong-state'; current: DealState }

/** A deal's mail as a reply of its inquiry, with its outbox row: in the caller's transaction. */
export function queueDealMail(
  trx: Trx,
  deal: Pick<StoredDeal, 'inquiryId' | 'domain'> & { token: string },
  mail: DealMail | (Omit<SoldNotice, 'inquiryId'> & { kind: 'sold-notice' }),
  now: number,
): Promise<number> {
  return queueReplyMail(
    trx,
    { id: deal.inquiryId, token: deal.token, domain: deal.domain },
    { kind: mail.kind, body: mail.body, replyTo: mail.replyTo, to: mail.to },
    now,
  )
}

/**
 * The "bereits verkauft" mails, in the completion's transaction. Each inquiry is checked again here: still of this
 * domain, still open, not told before (a second completion cannot happen, but a retried step must not mail twice).
 */
async function queueSoldNotices(trx: Trx, domain: string, notices: readonly SoldNotice[], now: number): Promise<number> {
  let queued = 0
  for (const notice of notices) {
    const inquiry = await trx
      .selectFrom('inquiries as i')
      .select(['i.id', 'i.token', 'i.domain'])
      .where('i.id', '=', notice.inquiryId)
      .where('i.domain', '=', domain)
      .where('i.status', 'in', OPEN_INQUIRY)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('replies as r').select('r.id').whereRef('r.inquiry_id', '=', 'i.id').where('r.kind', '=', 'sold-notice'))),
      )
      .executeTakeFirst()
    if (!inquiry) continue
    await queueDealMail(
      trx,
      { inquiryId: Number(inquiry.id), token: inquiry.token, domain: inquiry.domain },
      { kind: 'sold-notice', body: notice.body, to: notice.to, replyTo: notice.replyTo },
      now,
    )
    // A new inquiry is answered now, as by any reply; the badge in its history says how.
    await trx.updateTable('inquiries').set({ status: 'answered' }).where('id', '=', inquiry.id).where('status', '=', 'new').execute()
    queued++
  }
  return queued
}

/** The webhook event a step's new state makes. */
const STEP_EVENT: Partial<Record<DealState, DealEvent>> = { paid: 'paid', transferred: 'transferred', completed: 'completed', cancelled: 'cancelled' }

/**
 * Records a step the caller has checked against `deal`, the deal as it read (and locked) it in this transaction:
 * the row, the plan's rates, the mail, the sold notices, the Anzahlungsrechnungen, the invoice and the event, in this
 * order. Returns the deal as it now is, without reading it again.
 */
export async function recordDealStep(trx: Trx, deal: LockedDeal, change: DealChange): Promise<Extract<DealChangeResult, { status: 'done' }>> {
  const { id } = deal
  await changeDeal(trx, id, change)
  if (change.ratesPaid) await receiveOpenRates(trx, id, change.now)
  const replyId = change.mail ? await queueDealMail(trx, deal, change.mail, change.now) : null
  const soldNotices = change.soldNotices?.length ? await queueSoldNotices(trx, deal.domain, change.soldNotices, change.now) : undefined
  // The Anzahlungsrechnungen first: an invoice over the whole price issued in the same step deducts them.
  const advanceIds = change.advances ? await issueAdvancesIn(trx, id, change.advances, replyId, change.now) : []
  const invoiceId = (change.invoice ? await issueInvoiceIn(trx, id, change.invoice, replyId, change.now) : null) ?? advanceIds[0] ?? null
  const event = STEP_EVENT[change.to]
  if (event) await queueDealNotifications(trx, { id, inquiryId: deal.inquiryId, token: deal.token, domain: deal.domain }, event, change.notify, change.now)
  const after = changed(deal, change)
  const stored = withoutToken(
    change.ratesPaid && after.plan ? { ...after, plan: { ...after.plan, rates: openRatesReceived(after.plan.rates, change.now) } } : after,
  )
  return { status: 'done', deal: stored, replyId, invoiceId, ...(soldNotices !== undefined && { soldNotices }) }
}
