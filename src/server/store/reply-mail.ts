// A mail to the visitor is a reply of their inquiry (the console's thread shows it) with its outbox row: the two are
// written together, in the caller's transaction, by every step that mails the visitor (the owner's answer, the
// negotiation, the deal's steps). The visitor's first mails of a confirmation are the exception: the form's hot path
// writes them with statements compiled once (save-inquiry.ts).
import type { Transaction } from 'kysely'
import type { Database } from './schema.ts'
import type { ReplyKind } from './inquiry-types.ts'

/** A reply's mail: recognisable as the same mail when it is sent again after a crash, new when the owner resends it. */
export const replyMessageIdFor = (reply: { id: number; token: string; domain: string }, resend = 0) =>
  `<reply-${reply.id}-${reply.token}${resend ? `-resend${resend}` : ''}@${reply.domain}>`

export interface ReplyMail {
  /** What the mail is; left out for the owner's own words (the column's default). */
  kind?: ReplyKind
  /** A counter-offer's amount. */
  amount?: number | null
  body: string
  replyTo: string | null
  /** The address the mail goes to (null: the inquiry's own). */
  to: string | null
}

/** Writes the reply and queues its mail; returns the reply's id. */
export async function queueReplyMail(
  trx: Transaction<Database>,
  inquiry: { id: number; token: string; domain: string },
  mail: ReplyMail,
  now: number,
): Promise<number> {
  const inserted = await trx
    .insertInto('replies')
    .values({
      inquiry_id: inquiry.id,
      ...(mail.kind && { kind: mail.kind }),
      amount: mail.amount ?? null,
      body: mail.body,
      reply_to: mail.replyTo,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const replyId = Number(inserted.id)
  await trx
    .insertInto('outbox')
    .values({
      inquiry_id: inquiry.id,
      reply_id: replyId,
      message_id: replyMessageIdFor({ id: replyId, token: inquiry.token, domain: inquiry.domain }),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      mail_to: mail.to,
    })
    .execute()
  return replyId
}
