// The negotiation on an inquiry (docs/negotiation.md): a counter-offer, accepting, declining. Each step is one
// transaction: its reply row (the mail's text as composed), the mail to the visitor in the outbox, and the
// inquiry's new state. The owner's mail templates live in `meta`, so every instance on one database uses the same.
import type { Kysely } from 'kysely'
import { queueReplyMail } from './reply-mail.ts'
import { createOrRenewDeal } from './deal-create.ts'
import { DEAL_TEMPLATE_KINDS, type DealTemplateKind } from '../../shared/console-api.ts'
import type { Q } from './tables/db.ts'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import { unitOfWork } from './unit-of-work.ts'
import type { DealKind, DealResult, DealStep, DealStore, InquiryStatus, NewDeal } from './types.ts'

/** Every template's key in `meta`: this and its kind (DEAL_TEMPLATE_KINDS; the German negotiation's kept their names from before). */
const TEMPLATE_PREFIX = 'template:'

const STATUS_AFTER: Record<DealKind, InquiryStatus> = { counter: 'countered', accept: 'accepted', decline: 'declined' }

/** The owner's edited mail templates (absent: the default text), on the store or in a use case's unit of work. */
export async function dealTemplates(q: Q): Promise<Partial<Record<DealTemplateKind, string>>> {
  const rows = await q
    .selectFrom('meta')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      DEAL_TEMPLATE_KINDS.map((kind) => `${TEMPLATE_PREFIX}${kind}`),
    )
    .execute()
  return Object.fromEntries(rows.map((row) => [row.key.slice(TEMPLATE_PREFIX.length), row.value]))
}

export function dealStore(db: Kysely<Database>, dialect: DialectSpecifics): DealStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)
  const transact = unitOfWork(db, dialect)

  /**
   * The whole step in one transaction. `check` may refuse after seeing the inquiry as it is now (locked on
   * PostgreSQL, where two instances may act on it at once; SQLite's writers take turns on the file).
   */
  function step(
    id: number,
    kind: DealKind,
    input: DealStep & { amount: number | null; deal?: NewDeal | undefined },
    update: Partial<Pick<Database['inquiries'], 'counter_amount' | 'counter_expires_at' | 'plan_rates' | 'plan_down_payment' | 'plan_transfer'>>,
    check?: (inquiry: { status: InquiryStatus; counter_expires_at: number | null }) => DealResult | null,
  ): Promise<DealResult> {
    return transact(async (work) => {
      const { trx } = work
      const inquiry = await work
        .forUpdate(trx.selectFrom('inquiries').select(['id', 'token', 'domain', 'status', 'counter_expires_at', 'kind']).where('id', '=', id))
        .executeTakeFirst()
      if (!inquiry) return { status: 'not-found' } as const
      // Spam stays unanswered: its address is whatever a bot typed. An unconfirmed address has not shown that
      // it belongs to whoever wrote: mailing it could reach a stranger.
      if (inquiry.status === 'spam') return { status: 'spam' } as const
      if (inquiry.status === 'unconfirmed') return { status: 'unconfirmed' } as const
      const refused = check?.(inquiry)
      if (refused) return refused
      let dealId: number | undefined
      if (kind === 'accept') {
        // Nothing is accepted for a sold name, and nothing (checkout or offer) while another inquiry's deal for the
        // name is open: one buyer at a time is asked to pay (decision 037; the unique index deals_open_domain is the
        // second lock). On PostgreSQL two acceptances of the same name take turns here.
        await work.lockKey(`deal-domain:${inquiry.domain}`)
        const sold = await trx.selectFrom('deals').select('id').where('domain', '=', inquiry.domain).where('status', '=', 'completed').executeTakeFirst()
        if (sold) return { status: 'sold', dealId: Number(sold.id) } as const
        const open = await trx
          .selectFrom('deals')
          .select('id')
          .where('domain', '=', inquiry.domain)
          .where('inquiry_id', '!=', inquiry.id)
          .where('status', 'in', ['awaiting_payment', 'paid', 'transferred'])
          .executeTakeFirst()
        if (open) return { status: 'domain-deal-open', dealId: Number(open.id) } as const
      } else {
        // A counter-offer or a refusal would contradict a sale under way: the owner cancels the deal first.
        const open = await trx.selectFrom('deals').select('id').where('inquiry_id', '=', inquiry.id).where('status', '!=', 'cancelled').executeTakeFirst()
        if (open) return { status: 'deal-in-progress', dealId: Number(open.id) } as const
      }
      if (input.deal) {
        const deal = await createOrRenewDeal(trx, inquiry.id, inquiry.domain, input.deal, input.now, postgres)
        if ('inProgress' in deal) return { status: 'deal-in-progress', dealId: deal.inProgress } as const
        dealId = deal.dealId
      }
      const replyId = await queueReplyMail(trx, inquiry, { kind, amount: input.amount, body: input.body, replyTo: input.replyTo, to: input.to }, input.now)
      const status = STATUS_AFTER[kind]
      await trx
        .updateTable('inquiries')
        .set({ status, ...update })
        .where('id', '=', inquiry.id)
        .execute()
      return { status: 'queued', replyId, inquiryStatus: status, ...(dealId !== undefined && { dealId }) } as const
    })
  }

  return {
    counterOffer(id, input) {
      // The plan offered with it (or none: a new counter-offer without a plan withdraws the one before).
      const plan = { plan_rates: input.plan?.rates ?? null, plan_down_payment: input.plan?.downPayment ?? null, plan_transfer: input.plan?.transfer ?? null }
      return step(id, 'counter', input, { counter_amount: input.amount, counter_expires_at: input.expiresAt, ...plan })
    },
    accept(id, input) {
      return step(id, 'accept', input, {}, (inquiry) => {
        // The counter-offer the visitor may be accepting has run out: the owner decides again (docs/decisions/020).
        const expiredAt = inquiry.counter_expires_at
        const expired = inquiry.status === 'expired' || (inquiry.status === 'countered' && expiredAt !== null && expiredAt <= input.now)
        return expired && !input.confirmExpired ? { status: 'counter-expired', expiredAt: expiredAt ?? 0 } : null
      })
    },
    decline(id, input) {
      return step(id, 'decline', { ...input, amount: null }, {})
    },
    async expireCounterOffers(now) {
      return write(async () => {
        const result = await db
          .updateTable('inquiries')
          .set({ status: 'expired' })
          .where('status', '=', 'countered')
          .where('counter_expires_at', '<=', now)
          .executeTakeFirst()
        return Number(result.numUpdatedRows)
      })
    },
    dealTemplates: () => guard(() => dealTemplates(db)),
    async setDealTemplate(kind, text) {
      const key = `${TEMPLATE_PREFIX}${kind}`
      await write(async () => {
        if (text === null) {
          await db.deleteFrom('meta').where('key', '=', key).execute()
          return
        }
        await db
          .insertInto('meta')
          .values({ key, value: text })
          .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
          .execute()
      })
    },
  }
}
