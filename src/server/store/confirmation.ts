// Double opt-in (the domains file's `confirm: verify`): an inquiry waits as 'unconfirmed' until the visitor follows
// the link mailed to them, and is erased when they do not in time. Same for both databases.
import { queueNotifications } from './tables/notifications.ts'
import type { Kysely } from 'kysely'
import { messageIdFor } from './save-inquiry.ts'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { ConfirmationStore } from './types.ts'

import { UNCONFIRMED_TTL_MS } from '../lib/confirm-link.ts'

export function confirmationStore(db: Kysely<Database>, dialect: DialectSpecifics): ConfirmationStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async confirmationTarget(id) {
      const row = await guard(() =>
        db
          .selectFrom('inquiries')
          .select(['id', 'token', 'domain', 'created_at', 'below_minimum', 'status', 'language'])
          .where('id', '=', id)
          .executeTakeFirst(),
      )
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
    },
    async confirmInquiry(id, domain, mail, now) {
      return write(() =>
        db.transaction().execute(async (trx) => {
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
          }
          // A confirmed inquiry is a new genuine one from now on, so it notifies like one.
          if (mail.queue) await queueNotifications(trx, confirmed, mail.notify ?? [], now)
          return 'confirmed'
        }),
      )
    },
    async eraseExpiredUnconfirmed(now) {
      const cutoff = now - UNCONFIRMED_TTL_MS
      return write(() =>
        db.transaction().execute(async (trx) => {
          const expired = trx.selectFrom('inquiries').select('id').where('status', '=', 'unconfirmed').where('created_at', '<=', cutoff)
          await trx.deleteFrom('outbox').where('inquiry_id', 'in', expired).execute()
          await trx.deleteFrom('replies').where('inquiry_id', 'in', expired).execute()
          const result = await trx.deleteFrom('inquiries').where('status', '=', 'unconfirmed').where('created_at', '<=', cutoff).executeTakeFirst()
          return Number(result.numDeletedRows)
        }),
      )
    },
  }
}
