// Double opt-in (the domains file's `confirm: verify`; docs/confirmation.md) over the table inquiries (decision 060):
// an inquiry waits as 'unconfirmed' until the visitor follows the link mailed to them, and is erased when they do not
// in time. Plain functions over the store's Kysely or a unit of work's transaction; the confirmation's use case
// (confirm/route.ts) holds the transaction of confirmInquiry.
import type { Language } from '../../../shared/language.ts'
import { UNCONFIRMED_TTL_MS } from '../../lib/confirm-link.ts'
import type { InquiryStatus, MailPlan } from '../inquiry-types.ts'
import { queueNotifications } from './notifications.ts'
import { messageIdFor } from '../save-inquiry.ts'
import type { Q, Trx } from './db.ts'

/** What a confirmation link needs to know of its inquiry. */
export interface ConfirmationTarget {
  id: number
  token: string
  domain: string
  createdAt: number
  belowMinimum: boolean
  status: InquiryStatus
  /** The pages of the link answer in the language the inquiry was written in. */
  language: Language
}

export type ConfirmResult = 'confirmed' | 'already' | 'missing'

/** The inquiry a confirmation link names, or null when there is none (any more). */
export async function confirmationTarget(q: Q, id: number): Promise<ConfirmationTarget | null> {
  const row = await q
    .selectFrom('inquiries')
    .select(['id', 'token', 'domain', 'created_at', 'below_minimum', 'status', 'language'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row
    ? {
        id: row.id,
        token: row.token,
        domain: row.domain,
        createdAt: row.created_at,
        belowMinimum: row.below_minimum === 1,
        status: row.status,
        language: row.language,
      }
    : null
}

/**
 * Turns an unconfirmed inquiry of `domain` that has not expired into a new one and queues its mail to the owner as
 * `mail` says, in the caller's transaction. 'already': it is no longer waiting (confirmed before, or the owner acted
 * on it); 'missing': there is no such inquiry, or it has expired.
 */
export async function confirmInquiry(trx: Trx, id: number, domain: string, mail: MailPlan, now: number): Promise<ConfirmResult> {
  // Only a waiting inquiry changes: a second click, or two at once, find it confirmed already.
  const confirmed = await trx
    .updateTable('inquiries')
    .set({ status: 'new' })
    .where('id', '=', id)
    .where('domain', '=', domain)
    .where('status', '=', 'unconfirmed')
    .where('created_at', '>', now - UNCONFIRMED_TTL_MS)
    .returning(['id', 'token', 'domain'])
    .executeTakeFirst()
  if (!confirmed) {
    const row = await trx.selectFrom('inquiries').select('status').where('id', '=', id).where('domain', '=', domain).executeTakeFirst()
    return row && row.status !== 'unconfirmed' ? 'already' : 'missing'
  }
  if (mail.queue) {
    await trx
      .insertInto('outbox')
      .values({
        inquiry_id: id,
        reply_id: null,
        message_id: messageIdFor(confirmed),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        mail_to: mail.mailTo,
      })
      .onConflict((oc) => oc.column('inquiry_id').where('reply_id', 'is', null).where('webhook_url', 'is', null).doNothing())
      .execute()
    // A confirmed inquiry is a new genuine one from now on, so it notifies like one.
    await queueNotifications(trx, confirmed, mail.notify ?? [], now)
  }
  return 'confirmed'
}

/** Erases the inquiries that waited longer than UNCONFIRMED_TTL_MS, with their mails, in the caller's transaction; how many. */
export async function eraseExpiredUnconfirmed(trx: Trx, now: number): Promise<number> {
  const cutoff = now - UNCONFIRMED_TTL_MS
  const expired = trx.selectFrom('inquiries').select('id').where('status', '=', 'unconfirmed').where('created_at', '<=', cutoff)
  await trx.deleteFrom('outbox').where('inquiry_id', 'in', expired).execute()
  await trx.deleteFrom('replies').where('inquiry_id', 'in', expired).execute()
  const result = await trx.deleteFrom('inquiries').where('status', '=', 'unconfirmed').where('created_at', '<=', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}
