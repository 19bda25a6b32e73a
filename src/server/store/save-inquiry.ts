// Storing one submission: the statements every POST runs, so they are compiled once (decision 014).
import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely'
import { notificationMessageIdFor } from './tables/notifications.ts'
import type { Database } from './schema.ts'
import type { ConfirmPlan, MailPlan, NewInquiry, SaveResult } from './inquiry-types.ts'

/**
 * A stable Message-ID, so that a mail sent again after a crash is recognisable as the same mail. A deliberate
 * resend (the owner asked for it) gets a new one, so that no mail system drops it as a duplicate.
 */
export const messageIdFor = (inquiry: { id: number; token: string; domain: string }, resend = 0) =>
  `<inquiry-${inquiry.id}-${inquiry.token}${resend ? `-resend${resend}` : ''}@${inquiry.domain}>`

/** The visitor's confirmation mail, as stable across retries as the inquiry's own. */
const confirmMessageIdFor = (kind: ConfirmPlan['kind'], reply: { id: number; token: string; domain: string }) =>
  `<${kind}-${reply.id}-${reply.token}@${reply.domain}>`

/**
 * A query built and compiled once, with named markers where its values go; each run only fills them in. For the
 * statements every submission runs: building a query costs about as much as SQLite's insert (decision 014).
 */
function precompiled<Name extends string, Row>(names: readonly Name[], build: (value: (name: Name) => never) => Compilable<Row>) {
  const marker = (name: Name) => `\u0000${name}\u0000`
  const compiled = build((name) => marker(name) as never).compile()
  const slots = compiled.parameters.map((parameter) => names.find((name) => marker(name) === parameter))
  return (values: Record<Name, unknown>): CompiledQuery<Row> => ({
    ...compiled,
    parameters: slots.map((name, i) => (name === undefined ? compiled.parameters[i] : values[name])),
  })
}

/**
 * Stores the inquiry and its outbox entries (the owner's mail and its notifications). The same token and content again
 * is a duplicate; the same token with other content is an inquiry of its own (tokens are shared, decision 055).
 */
export function inquirySaver(db: Kysely<Database>) {
  const inquiryColumns = [
    'token',
    'content_hash',
    'domain',
    'name',
    'email',
    'message',
    'language',
    'spam_reason',
    'offer_amount',
    'offer_currency',
    'below_minimum',
    'created_at',
    'status',
    'kind',
    'buyer_company',
    'buyer_street',
    'buyer_postcode',
    'buyer_city',
    'buyer_country',
    'buyer_vat_id',
  ] as const
  const insertInquiry = precompiled(inquiryColumns, (value) =>
    db
      .insertInto('inquiries')
      .values({
        token: value('token'),
        content_hash: value('content_hash'),
        domain: value('domain'),
        name: value('name'),
        email: value('email'),
        message: value('message'),
        language: value('language'),
        spam_reason: value('spam_reason'),
        offer_amount: value('offer_amount'),
        offer_currency: value('offer_currency'),
        below_minimum: value('below_minimum'),
        created_at: value('created_at'),
        status: value('status'),
        kind: value('kind'),
        buyer_company: value('buyer_company'),
        buyer_street: value('buyer_street'),
        buyer_postcode: value('buyer_postcode'),
        buyer_city: value('buyer_city'),
        buyer_country: value('buyer_country'),
        buyer_vat_id: value('buyer_vat_id'),
      })
      .onConflict((oc) => oc.columns(['token', 'content_hash']).doNothing())
      .returning('id'),
  )
  const byKey = precompiled(['token', 'content_hash'], (value) =>
    db.selectFrom('inquiries').select('id').where('token', '=', value('token')).where('content_hash', '=', value('content_hash')),
  )
  const outboxColumns = ['inquiry_id', 'message_id', 'next_attempt_at', 'created_at', 'mail_to'] as const
  const mailRow = (value: (name: (typeof outboxColumns)[number]) => never) => ({
    inquiry_id: value('inquiry_id'),
    message_id: value('message_id'),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: value('next_attempt_at'),
    created_at: value('created_at'),
    mail_to: value('mail_to'),
  })
  const insertOutbox = precompiled(outboxColumns, (value) => db.insertInto('outbox').values(mailRow(value)))
  // The owner's mail and its notifications (one row per address) in one statement, compiled once per number of
  // addresses.
  const withNotifications = new Map<number, ReturnType<typeof precompiled<string, unknown>>>()
  const insertOutboxWith = (count: number) => {
    let insert = withNotifications.get(count)
    if (!insert) {
      const urls = Array.from({ length: count }, (_, i) => `url${i}`)
      insert = precompiled([...outboxColumns, 'notify_message_id', ...urls], (value) =>
        db
          .insertInto('outbox')
          .values([
            { ...mailRow(value), webhook_url: null },
            ...urls.map((url) => ({ ...mailRow(value), message_id: value('notify_message_id'), mail_to: null, webhook_url: value(url) })),
          ]),
      )
      withNotifications.set(count, insert)
    }
    return insert
  }
  // Only for domains with `confirm` on: the group commit of the others runs no more statements than before.
  const insertReply = precompiled(['inquiry_id', 'body', 'reply_to', 'created_at', 'kind'] as const, (value) =>
    db
      .insertInto('replies')
      .values({ inquiry_id: value('inquiry_id'), body: value('body'), reply_to: value('reply_to'), created_at: value('created_at'), kind: value('kind') })
      .returning('id'),
  )
  const insertReplyMail = precompiled(['inquiry_id', 'reply_id', 'message_id', 'next_attempt_at', 'created_at', 'mail_to'] as const, (value) =>
    db.insertInto('outbox').values({
      inquiry_id: value('inquiry_id'),
      reply_id: value('reply_id'),
      message_id: value('message_id'),
      status: 'pending',
      attempts: 0,
      next_attempt_at: value('next_attempt_at'),
      created_at: value('created_at'),
      mail_to: value('mail_to'),
    }),
  )
  async function queueConfirmation(trx: Transaction<Database>, inquiry: NewInquiry, inquiryId: number, confirm: ConfirmPlan) {
    const reply = (
      await trx.executeQuery(
        insertReply({ inquiry_id: inquiryId, body: confirm.body, reply_to: confirm.replyTo, created_at: inquiry.createdAt, kind: confirm.kind }),
      )
    ).rows[0]!
    await trx.executeQuery(
      insertReplyMail({
        inquiry_id: inquiryId,
        reply_id: reply.id,
        message_id: confirmMessageIdFor(confirm.kind, { id: reply.id, token: inquiry.token, domain: inquiry.domain }),
        next_attempt_at: inquiry.createdAt,
        created_at: inquiry.createdAt,
        mail_to: inquiry.email,
      }),
    )
  }
  return async (trx: Transaction<Database>, inquiry: NewInquiry, mail: MailPlan, confirm?: ConfirmPlan): Promise<SaveResult> => {
    // Spam is never confirmed, and an unconfirmed inquiry never mails the owner: the caller's plans say so already,
    // and this keeps a mistake there from doing either.
    const genuine = inquiry.spamReason === null
    const waits = genuine && confirm?.kind === 'verify'
    const inserted = (
      await trx.executeQuery(
        insertInquiry({
          token: inquiry.token,
          content_hash: inquiry.contentHash,
          domain: inquiry.domain,
          name: inquiry.name,
          email: inquiry.email,
          message: inquiry.message,
          language: inquiry.language,
          spam_reason: inquiry.spamReason,
          offer_amount: inquiry.offer?.amount ?? null,
          offer_currency: inquiry.offer?.currency ?? null,
          below_minimum: inquiry.belowMinimum ? 1 : 0,
          created_at: inquiry.createdAt,
          status: !genuine ? 'spam' : waits ? 'unconfirmed' : 'new',
          kind: inquiry.checkout ? 'checkout' : 'inquiry',
          buyer_company: inquiry.checkout?.company ?? null,
          buyer_street: inquiry.checkout?.street ?? null,
          buyer_postcode: inquiry.checkout?.postcode ?? null,
          buyer_city: inquiry.checkout?.city ?? null,
          buyer_country: inquiry.checkout?.country ?? null,
          buyer_vat_id: inquiry.checkout?.vatId ?? null,
        }),
      )
    ).rows[0]
    if (!inserted) {
      const existing = (await trx.executeQuery(byKey({ token: inquiry.token, content_hash: inquiry.contentHash }))).rows[0]!
      return { status: 'duplicate', id: existing.id }
    }
    // The instalment plan a checkout's buyer chose (decision 042): rare, so outside the precompiled insert above.
    if (inquiry.plan) {
      await trx
        .updateTable('inquiries')
        .set({ plan_rates: inquiry.plan.rates, plan_down_payment: inquiry.plan.downPayment, plan_transfer: inquiry.plan.transfer })
        .where('id', '=', inserted.id)
        .execute()
    }
    if (mail.queue && !waits) {
      const ids = { id: inserted.id, token: inquiry.token, domain: inquiry.domain }
      const values = {
        inquiry_id: inserted.id,
        message_id: messageIdFor(ids),
        next_attempt_at: inquiry.createdAt,
        created_at: inquiry.createdAt,
        mail_to: mail.mailTo,
      }
      const urls = [...new Set(mail.notify ?? [])]
      await trx.executeQuery(
        urls.length === 0
          ? insertOutbox(values)
          : insertOutboxWith(urls.length)({
              ...values,
              notify_message_id: notificationMessageIdFor(ids),
              ...Object.fromEntries(urls.map((url, i) => [`url${i}`, url])),
            }),
      )
    }
    if (genuine && confirm?.mail) await queueConfirmation(trx, inquiry, inserted.id, confirm)
    return { status: 'created', id: inserted.id }
  }
}
