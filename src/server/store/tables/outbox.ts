// The outbox: the mail and notifications waiting to be sent, as the outbox worker claims them under a lease and marks
// them sent, to be tried again or failed (decision 009), and as the console and the CLI list them and send them again.
// Plain functions over the store's Kysely or a unit of work (decision 060); `outboxQueue` is what the worker's queue
// takes (decision 057), guarded as tables/leased.ts says.
import type { DialectSpecifics } from '../dialect.ts'
import { INQUIRY_COLUMNS, toInquiry } from './inquiries.ts'
import type { MailListing, OutboxHealth, OutboxItem, OutboxListing, OutboxStatus } from '../inquiry-types.ts'
import { replyMessageIdFor } from '../reply-mail.ts'
import { messageIdFor } from '../save-inquiry.ts'
import type { Work } from '../unit-of-work.ts'
import type { Db, Q } from './db.ts'
import { leasedTable, noLease, type LeasedQueueTable } from './leased.ts'

/** The outbox's queue: the leased claim, then the claimed rows read whole, with their inquiry and reply. */
export function outboxQueue(db: Db, dialect: DialectSpecifics): LeasedQueueTable<OutboxItem> {
  const { claim, nextDueAt, releaseLeases, markSent, markRetry, markFailed } = leasedTable(db, dialect, 'outbox')
  return {
    async claim(now, limit, owner, leaseMs) {
      const claimed = await claim(now, limit, owner, leaseMs)
      if (claimed.length === 0) return []
      return dialect.guard(() =>
        outboxItems(
          db,
          claimed.map((row) => row.id),
        ),
      )
    },
    nextDueAt,
    releaseLeases,
    markSent: (id, now) => markSent(id, now),
    markRetry,
    markFailed,
  }
}

/** The rows as the worker sends them, in claim order (due time, id). */
async function outboxItems(q: Q, ids: number[]): Promise<OutboxItem[]> {
  const rows = await q
    .selectFrom('outbox as o')
    .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
    .leftJoin('replies as r', 'r.id', 'o.reply_id')
    .select(INQUIRY_COLUMNS)
    .select([
      'o.id as outbox_id',
      'o.message_id',
      'o.attempts',
      'o.created_at as outbox_created_at',
      'o.mail_to',
      'o.webhook_url',
      'o.deal_id',
      'o.deal_event',
      'o.deal_rate',
    ])
    .select(['r.id as reply_id', 'r.body as reply_body', 'r.reply_to', 'r.kind as reply_kind', 'r.amount as reply_amount'])
    // A reply refers to the mail the owner got about the inquiry (In-Reply-To), whatever became of it.
    .select((eb) =>
      eb
        .selectFrom('outbox as first')
        .select('first.message_id')
        .whereRef('first.inquiry_id', '=', 'o.inquiry_id')
        .where('first.reply_id', 'is', null)
        .where('first.webhook_url', 'is', null)
        .as('inquiry_message_id'),
    )
    .where('o.id', 'in', ids)
    .orderBy('o.next_attempt_at')
    .orderBy('o.id')
    .execute()
  return rows.map((row): OutboxItem => {
    const inquiry = { ...toInquiry(row), status: row.status }
    return {
      id: row.outbox_id,
      messageId: row.message_id,
      mailTo: row.mail_to,
      webhookUrl: row.webhook_url,
      deal:
        row.deal_id === null || row.deal_event === null
          ? null
          : { id: Number(row.deal_id), event: row.deal_event, ...(Number(row.deal_rate) !== 0 && { rate: Number(row.deal_rate) }) },
      attempts: row.attempts,
      createdAt: row.outbox_created_at,
      inquiry,
      reply:
        row.reply_id === null
          ? null
          : {
              id: row.reply_id,
              kind: row.reply_kind ?? 'reply',
              amount: row.reply_amount,
              body: row.reply_body ?? '',
              replyTo: row.reply_to,
              inquiryMessageId: row.inquiry_message_id ?? messageIdFor(inquiry),
            },
    }
  })
}

/** The state of the owner's mail about an inquiry, or null. */
export async function outboxStatus(q: Q, inquiryId: number): Promise<{ status: OutboxStatus; attempts: number; lastError: string | null } | null> {
  const row = await q
    .selectFrom('outbox')
    .select(['status', 'attempts', 'last_error'])
    .where('inquiry_id', '=', inquiryId)
    .where('reply_id', 'is', null)
    .where('webhook_url', 'is', null)
    .executeTakeFirst()
  return row ? { status: row.status, attempts: row.attempts, lastError: row.last_error } : null
}

export async function outboxHealth(q: Q): Promise<OutboxHealth> {
  const row = await q
    .selectFrom('outbox')
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere('status', '=', 'pending').as('pending'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'failed').as('failed'),
      eb.fn.min('created_at').filterWhere('status', '=', 'pending').as('oldest_pending_at'),
      eb.fn
        .min('created_at')
        .filterWhere((eb) => eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)]))
        .as('failing_since'),
    ])
    .executeTakeFirstOrThrow()
  return { pending: row.pending, failed: row.failed, oldestPendingAt: row.oldest_pending_at, failingSince: row.failing_since }
}

export async function listOutbox(q: Q, status?: OutboxStatus): Promise<OutboxListing[]> {
  const rows = await q
    .selectFrom('outbox as o')
    .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
    .select(['o.inquiry_id', 'i.domain', 'o.status', 'o.attempts', 'o.next_attempt_at', 'o.last_error', 'o.created_at', 'o.mail_to', 'o.webhook_url'])
    .$if(status !== undefined, (qb) => qb.where('o.status', '=', status!))
    .orderBy('o.created_at')
    .execute()
  return rows.map((row) => ({
    inquiryId: row.inquiry_id,
    domain: row.domain,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    mailTo: row.mail_to,
    webhookUrl: row.webhook_url,
  }))
}

/** Queues the inquiry's mail to the owner again (to `mailTo`, or as before), due now, with a new Message-ID. */
export async function requeueMail(work: Work, inquiryId: number, now: number, mailTo: string | null): Promise<boolean> {
  const { trx } = work
  const inquiry = await trx.selectFrom('inquiries').select(['id', 'token', 'domain']).where('id', '=', inquiryId).executeTakeFirst()
  if (!inquiry) return false
  const previous = await work
    .forUpdate(trx.selectFrom('outbox').select('resends').where('inquiry_id', '=', inquiryId).where('reply_id', 'is', null).where('webhook_url', 'is', null))
    .executeTakeFirst()
  const messageId = messageIdFor(inquiry, (previous?.resends ?? 0) + 1)
  await trx
    .insertInto('outbox')
    .values({
      inquiry_id: inquiryId,
      message_id: messageId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      mail_to: mailTo,
      resends: 1,
    })
    .onConflict((oc) =>
      oc
        .column('inquiry_id')
        .where('reply_id', 'is', null)
        .where('webhook_url', 'is', null)
        .doUpdateSet((eb) => ({
          status: 'pending',
          next_attempt_at: eb.ref('excluded.next_attempt_at'),
          created_at: eb.ref('excluded.created_at'),
          attempts: 0,
          last_error: null,
          message_id: eb.ref('excluded.message_id'),
          mail_to: eb.fn.coalesce('excluded.mail_to', 'outbox.mail_to'),
          resends: eb('outbox.resends', '+', 1),
          ...noLease,
        })),
    )
    .execute()
  return true
}

/** The ids of the failed rows, for "send every failed mail again". */
export async function failedMailIds(q: Q): Promise<number[]> {
  const rows = await q.selectFrom('outbox').select('id').where('status', '=', 'failed').execute()
  return rows.map((row) => row.id)
}

export async function listMail(
  q: Q,
  statuses: OutboxStatus[],
  page: { after?: { createdAt: number; id: number }; limit?: number } = {},
): Promise<MailListing[]> {
  if (statuses.length === 0) return []
  const { after, limit } = page
  const rows = await q
    .selectFrom('outbox as o')
    .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
    .select(['o.id', 'o.inquiry_id', 'o.reply_id', 'i.domain', 'o.status', 'o.attempts', 'o.last_error', 'o.created_at', 'o.next_attempt_at', 'o.webhook_url'])
    .where('o.status', 'in', statuses)
    .$if(after !== undefined, (qb) => qb.where((eb) => eb(eb.refTuple('o.created_at', 'o.id'), '>', eb.tuple(after!.createdAt, after!.id))))
    .orderBy('o.created_at')
    .orderBy('o.id')
    .$if(limit !== undefined, (qb) => qb.limit(limit!))
    .execute()
  return rows.map((row) => ({
    id: row.id,
    inquiryId: row.inquiry_id,
    replyId: row.reply_id,
    domain: row.domain,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    webhookUrl: row.webhook_url,
  }))
}

/** Queues one outbox row again, due now; false when there is none or it is being sent. */
export async function resendMail(work: Work, outboxId: number, now: number): Promise<boolean> {
  const { trx } = work
  const row = await work
    .forUpdate(
      trx
        .selectFrom('outbox as o')
        .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
        .select(['o.id', 'o.reply_id', 'o.webhook_url', 'o.message_id', 'o.resends', 'o.lease_until', 'i.id as inquiry_id', 'i.token', 'i.domain'])
        .where('o.id', '=', outboxId),
    )
    .executeTakeFirst()
  // A mail being sent right now is left to the process sending it.
  if (!row || (row.lease_until !== null && row.lease_until > now)) return false
  const resends = row.resends + 1
  // A notification keeps its delivery id (the row's id): a receiver that did get it drops the repeat.
  const messageId =
    row.webhook_url !== null
      ? row.message_id
      : row.reply_id === null
        ? messageIdFor({ id: row.inquiry_id, token: row.token, domain: row.domain }, resends)
        : replyMessageIdFor({ id: row.reply_id, token: row.token, domain: row.domain }, resends)
  await trx
    .updateTable('outbox')
    .set({ status: 'pending', attempts: 0, last_error: null, next_attempt_at: now, created_at: now, message_id: messageId, resends, ...noLease })
    .where('id', '=', outboxId)
    .execute()
  return true
}
