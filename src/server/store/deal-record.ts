// Deals (docs/deals.md, decision 033): created with the acceptance's mail (store/deal.ts, deal-create.ts), then moved on step by
// step, each step one transaction with its mail to the buyer. The transfer code is stored sealed and read only
// through dealTransferCode.
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely'
import { queueReplyMail } from './reply-mail.ts'
import { issueAdvancesIn, issueInvoiceIn } from './invoice.ts'
import { queueDealNotifications } from './notifications.ts'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { DealEvent, DealMail, DealRecordStore, DealState, InquiryStatus, SoldNotice, StoredDeal, StoredRate } from './types.ts'

type Q = Kysely<Database> | Transaction<Database>

export type DealRow = Omit<Selectable<Database['deals']>, 'transfer_code'> & {
  has_code: number | boolean | null
  name: string
  email: string
  language: Database['inquiries']['language']
}

const DEAL_COLUMNS = [
  'd.id',
  'd.link_hash',
  'd.link_sealed',
  'd.inquiry_id',
  'd.domain',
  'd.status',
  'd.amount',
  'd.currency',
  'd.reference',
  'd.created_at',
  'd.payment_due_at',
  'd.transfer_days',
  'd.paid_at',
  'd.transfer_due_at',
  'd.transferred_at',
  'd.completes_at',
  'd.completed_at',
  'd.cancelled_at',
  'd.cancelled_by',
  'd.cancel_reason',
  'd.transfer_note',
  'd.notify_others',
  'd.plan_transfer',
  'i.name',
  'i.email',
  'i.language',
] as const

const toDeal = (row: DealRow): StoredDeal => ({
  id: Number(row.id),
  inquiryId: Number(row.inquiry_id),
  linkHash: row.link_hash,
  linkSealed: row.link_sealed,
  domain: row.domain,
  status: row.status,
  amount: Number(row.amount),
  currency: row.currency,
  reference: row.reference,
  createdAt: row.created_at,
  paymentDueAt: row.payment_due_at,
  transferDays: row.transfer_days,
  paidAt: row.paid_at,
  transferDueAt: row.transfer_due_at,
  transferredAt: row.transferred_at,
  completesAt: row.completes_at,
  completedAt: row.completed_at,
  cancelledAt: row.cancelled_at,
  cancelledBy: row.cancelled_by,
  cancelReason: row.cancel_reason,
  hasTransferCode: Boolean(row.has_code),
  transferNote: row.transfer_note,
  notifyOthers: row.notify_others === null ? null : Number(row.notify_others) === 1,
  buyer: { name: row.name, email: row.email, language: row.language },
  plan: null,
})

type RateRow = Selectable<Database['deal_rates']>

const toRate = (row: RateRow): StoredRate => ({
  number: Number(row.number),
  amount: Number(row.amount),
  dueAt: Number(row.due_at),
  reference: row.reference,
  paidAt: row.paid_at === null ? null : Number(row.paid_at),
  paidBy: row.paid_by,
  remindedAt: row.reminded_at === null ? null : Number(row.reminded_at),
  overdueAt: row.overdue_at === null ? null : Number(row.overdue_at),
  waitedAt: row.waited_at === null ? null : Number(row.waited_at),
})

/** The deals with their instalment plans' rates, read in one more query. */
export async function withPlans(q: Q, rows: readonly DealRow[]): Promise<StoredDeal[]> {
  const deals = rows.map(toDeal)
  const planned = rows.filter((row) => row.plan_transfer !== null).map((row) => Number(row.id))
  if (planned.length === 0) return deals
  const rates = new Map<number, StoredRate[]>()
  for (let i = 0; i < planned.length; i += 500) {
    const part = planned.slice(i, i + 500)
    const found = await q.selectFrom('deal_rates').selectAll().where('deal_id', 'in', part).orderBy('deal_id').orderBy('number').execute()
    for (const row of found) rates.set(Number(row.deal_id), [...(rates.get(Number(row.deal_id)) ?? []), toRate(row)])
  }
  return deals.map((deal, i) =>
    rows[i]!.plan_transfer === null ? deal : { ...deal, plan: { transfer: rows[i]!.plan_transfer!, rates: rates.get(deal.id) ?? [] } },
  )
}

export function selectDeals(q: Q) {
  return q
    .selectFrom('deals as d')
    .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
    .select(DEAL_COLUMNS)
    .select((eb) => eb('d.transfer_code', 'is not', null).as('has_code'))
}

/** A deal's mail as a reply of its inquiry, with its outbox row: in the caller's transaction. */
export function queueMail(
  trx: Transaction<Database>,
  inquiry: { inquiry_id: number; token: string; domain: string },
  mail: DealMail | (Omit<SoldNotice, 'inquiryId'> & { kind: 'sold-notice' }),
  now: number,
): Promise<number> {
  return queueReplyMail(
    trx,
    { id: inquiry.inquiry_id, token: inquiry.token, domain: inquiry.domain },
    { kind: mail.kind, body: mail.body, replyTo: mail.replyTo, to: mail.to },
    now,
  )
}

/** The inquiries still waiting for an answer about the name: whom "bereits verkauft" may reach (decision 037). */
const OPEN_INQUIRY: readonly InquiryStatus[] = ['new', 'answered', 'countered', 'expired', 'accepted']
const OPEN_DEAL: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred']

/**
 * The "bereits verkauft" mails, in the completion's transaction. Each inquiry is checked again here: still of this
 * domain, still open, not told before (a second completion cannot happen, but a retried step must not mail twice).
 */
async function queueSoldNotices(trx: Transaction<Database>, domain: string, notices: readonly SoldNotice[], now: number): Promise<number> {
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
    await queueMail(
      trx,
      { inquiry_id: Number(inquiry.id), token: inquiry.token, domain: inquiry.domain },
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

export function dealRecordStore(db: Kysely<Database>, dialect: DialectSpecifics): DealRecordStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)
  const one = async (q: Q, where: (qb: ReturnType<typeof selectDeals>) => ReturnType<typeof selectDeals>) => {
    const row = await where(selectDeals(q)).executeTakeFirst()
    return row ? (await withPlans(q, [row as DealRow]))[0]! : null
  }

  return {
    getDeal: (id) => guard(() => one(db, (qb) => qb.where('d.id', '=', id))),
    dealByLink: (linkHash) => guard(() => one(db, (qb) => qb.where('d.link_hash', '=', linkHash))),
    openDealOf: (inquiryId) => guard(() => one(db, (qb) => qb.where('d.inquiry_id', '=', inquiryId).where('d.status', '!=', 'cancelled'))),
    async listDeals(filter = {}) {
      const deals = await guard(async () =>
        withPlans(
          db,
          (await selectDeals(db)
            .$if(filter.status !== undefined, (qb) => qb.where('d.status', '=', filter.status!))
            .execute()) as DealRow[],
        ),
      )
      // Open deals by their next deadline, then the finished ones, newest first.
      const nextDeadline = (deal: StoredDeal) =>
        deal.status === 'awaiting_payment'
          ? deal.paymentDueAt
          : deal.status === 'paid'
            ? deal.transferDueAt
            : deal.status === 'transferred'
              ? deal.completesAt
              : null
      return deals.sort((a, b) => {
        const [da, dbb] = [nextDeadline(a), nextDeadline(b)]
        if (da !== null && dbb !== null) return da - dbb || a.id - b.id
        if (da !== null) return -1
        if (dbb !== null) return 1
        return b.createdAt - a.createdAt || b.id - a.id
      })
    },
    changeDeal(id, change) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const current = await trx
            .selectFrom('deals as d')
            .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
            .select(['d.id', 'd.status', 'd.inquiry_id', 'i.token', 'i.domain'])
            .where('d.id', '=', id)
            .$if(postgres, (qb) => qb.forUpdate())
            .executeTakeFirst()
          if (!current) return { status: 'not-found' } as const
          if (!change.from.includes(current.status)) return { status: 'wrong-state', current: current.status } as const
          const set: Updateable<Database['deals']> = { status: change.to }
          if (change.paidAt !== undefined) set.paid_at = change.paidAt
          if (change.transferDueAt !== undefined) set.transfer_due_at = change.transferDueAt
          if (change.transferredAt !== undefined) set.transferred_at = change.transferredAt
          if (change.completesAt !== undefined) set.completes_at = change.completesAt
          if (change.completedAt !== undefined) set.completed_at = change.completedAt
          if (change.cancelledAt !== undefined) set.cancelled_at = change.cancelledAt
          if (change.cancelledBy !== undefined) set.cancelled_by = change.cancelledBy
          if (change.cancelReason !== undefined) set.cancel_reason = change.cancelReason
          if (change.transferCode !== undefined) set.transfer_code = change.transferCode
          if (change.transferNote !== undefined) set.transfer_note = change.transferNote
          if (change.notifyOthers !== undefined) set.notify_others = change.notifyOthers === null ? null : change.notifyOthers ? 1 : 0
          await trx.updateTable('deals').set(set).where('id', '=', id).execute()
          if (change.ratesPaid)
            await trx.updateTable('deal_rates').set({ paid_at: change.now, paid_by: 'owner' }).where('deal_id', '=', id).where('paid_at', 'is', null).execute()
          const replyId = change.mail ? await queueMail(trx, current, change.mail, change.now) : null
          const soldNotices = change.soldNotices?.length ? await queueSoldNotices(trx, current.domain, change.soldNotices, change.now) : undefined
          // The Anzahlungsrechnungen first: an invoice over the whole price issued in the same step deducts them.
          const advanceIds = change.advances ? await issueAdvancesIn(trx, id, change.advances, replyId, change.now) : []
          const invoiceId = (change.invoice ? await issueInvoiceIn(trx, id, change.invoice, replyId, change.now) : null) ?? advanceIds[0] ?? null
          const event = STEP_EVENT[change.to]
          if (event)
            await queueDealNotifications(
              trx,
              { id, inquiryId: Number(current.inquiry_id), token: current.token, domain: current.domain },
              event,
              change.notify,
              change.now,
            )
          const deal = (await one(trx, (qb) => qb.where('d.id', '=', id)))!
          return { status: 'done', deal, replyId, invoiceId, ...(soldNotices !== undefined && { soldNotices }) } as const
        }),
      )
    },
    changeDealDeadlines(id, deadlines) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const current = await trx
            .selectFrom('deals')
            .select(['id', 'status'])
            .where('id', '=', id)
            .$if(postgres, (qb) => qb.forUpdate())
            .executeTakeFirst()
          if (!current) return { status: 'not-found' } as const
          const set: Updateable<Database['deals']> = {}
          // A moved deadline has its reminders planned again: the halfway point and the "passed" notice follow it.
          if (deadlines.paymentDueAt !== undefined) {
            if (current.status !== 'awaiting_payment') return { status: 'wrong-state', current: current.status } as const
            Object.assign(set, { payment_due_at: deadlines.paymentDueAt, payment_reminded_at: null, payment_overdue_at: null })
          }
          if (deadlines.transferDueAt !== undefined) {
            if (current.status !== 'paid') return { status: 'wrong-state', current: current.status } as const
            Object.assign(set, { transfer_due_at: deadlines.transferDueAt, transfer_reminded_at: null })
          }
          if (Object.keys(set).length > 0) await trx.updateTable('deals').set(set).where('id', '=', id).execute()
          return { status: 'done', deal: (await one(trx, (qb) => qb.where('d.id', '=', id)))!, replyId: null } as const
        }),
      )
    },
    async otherInquirers(domain, exceptInquiryId) {
      const rows = await guard(() =>
        db
          .selectFrom('inquiries as i')
          .select(['i.id', 'i.email', 'i.name', 'i.language'])
          .where('i.domain', '=', domain)
          .where('i.id', '!=', exceptInquiryId)
          .where('i.status', 'in', OPEN_INQUIRY)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('replies as r').select('r.id').whereRef('r.inquiry_id', '=', 'i.id').where('r.kind', '=', 'sold-notice'))),
          )
          .orderBy('i.created_at', 'desc')
          .orderBy('i.id', 'desc')
          .execute(),
      )
      return rows.map((row) => ({ inquiryId: Number(row.id), email: row.email, name: row.name, language: row.language }))
    },
    async dealOfDomain(domain) {
      const rows = await guard(() =>
        db
          .selectFrom('deals')
          .select(['id', 'status'])
          .where('domain', '=', domain)
          .where('status', 'in', [...OPEN_DEAL, 'completed'])
          .orderBy('id', 'desc')
          .execute(),
      )
      // Sold outweighs a deal still open (offers' deals may have been open side by side).
      const row = rows.find((deal) => deal.status === 'completed') ?? rows[0]
      return row ? { id: Number(row.id), status: row.status } : null
    },
    async soldDomains() {
      const rows = await guard(() => db.selectFrom('deals').select('domain').distinct().where('status', '=', 'completed').orderBy('domain').execute())
      return rows.map((row) => row.domain)
    },
    async dealsToComplete(now) {
      const rows = await guard(() =>
        db.selectFrom('deals').select('id').where('status', '=', 'transferred').where('completes_at', '<=', now).orderBy('id').execute(),
      )
      return rows.map((row) => Number(row.id))
    },
    async eraseTransferCodes(completedBy) {
      const result = await write(() =>
        db
          .updateTable('deals')
          .set({ transfer_code: null })
          .where('status', '=', 'completed')
          .where('completed_at', '<=', completedBy)
          .where('transfer_code', 'is not', null)
          .executeTakeFirst(),
      )
      return Number(result.numUpdatedRows)
    },
    async dealTransferCode(id) {
      const row = await guard(() => db.selectFrom('deals').select('transfer_code').where('id', '=', id).executeTakeFirst())
      return row?.transfer_code ?? null
    },
  }
}
