// The table deals (docs/deals.md, decision 033): what an accepted offer became, read with its buyer (the inquiry) and
// its plan's rates. Plain functions over the store's Kysely or a unit of work's transaction (decision 060); the use
// cases (deal/steps.ts) compose them. The transfer code is stored sealed and read only through dealTransferCode.
import type { Updateable } from 'kysely'
import type { DealState } from '../../../shared/deal-api.ts'
import type { Language } from '../../../shared/language.ts'
import type { InquiryStatus } from '../inquiry-types.ts'
import type { Database } from '../schema.ts'
import type { Work } from '../unit-of-work.ts'
import type { Q, Trx } from './db.ts'
import { ratesOf, type StoredRate } from './deal-rates.ts'

export type { DealState }

/** What the acceptance creates, in the same transaction as its mail. */
export interface NewDeal {
  /** SHA-256 (hex) of the random id in the page's link. */
  linkHash: string
  /** The link's token, sealed with the deal key. */
  linkSealed: string
  /** In minor units of `currency` (cents). */
  amount: number
  currency: string
  paymentDueAt: number
  /** Days the owner has for the transfer once the payment is marked received. */
  transferDays: number
  /** The addresses told `deal.created` (notifyUrlsFor); none when absent. */
  notify?: readonly string[]
  /** An instalment plan (decision 042): its payments, exact to the cent, and when the name moves. */
  plan?: NewPlan
}

interface NewPlan {
  transfer: 'after-last' | 'at-once'
  /** Number 0 the down payment, 1 … n the monthly rates; the amounts add up to the deal's. */
  rates: readonly { number: number; amount: number; dueAt: number }[]
}

export interface StoredDeal {
  id: number
  inquiryId: number
  linkHash: string
  /** The link's token, sealed with the deal key: the page's address for later mails. */
  linkSealed: string
  /** ASCII (punycode). */
  domain: string
  status: DealState
  amount: number
  currency: string
  /** The payment reference, unique per deal (DL-2026-0042). */
  reference: string
  createdAt: number
  paymentDueAt: number
  transferDays: number
  paidAt: number | null
  transferDueAt: number | null
  transferredAt: number | null
  /** When a transferred deal completes by itself unless the buyer confirms first. */
  completesAt: number | null
  completedAt: number | null
  cancelledAt: number | null
  cancelledBy: 'owner' | 'buyer' | null
  cancelReason: string | null
  /** Whether a transfer code is stored (the code itself only through dealTransferCode). */
  hasTransferCode: boolean
  transferNote: string | null
  /**
   * The owner's choice with "Übertragen": whether the other inquirers are told "bereits verkauft" when the deal
   * completes by itself (decision 037); null when not chosen (no notice).
   */
  notifyOthers: boolean | null
  buyer: { name: string; email: string; language: Language }
  /** The instalment plan, its rates in order; null for a deal paid at once. */
  plan: { transfer: 'after-last' | 'at-once'; rates: StoredRate[] } | null
}

/** Another open inquiry of a deal's domain, to be told the name is sold (decision 037). */
interface OtherInquirer {
  inquiryId: number
  email: string
  name: string
  language: Language
}

/** What a step writes on its deal's row (the store's deal-step.ts adds what goes with it). */
export interface DealUpdate {
  to: DealState
  paidAt?: number
  transferDueAt?: number
  transferredAt?: number
  completesAt?: number
  completedAt?: number
  cancelledAt?: number
  cancelledBy?: 'owner' | 'buyer'
  cancelReason?: string | null
  /** Sealed transfer code (never the code). */
  transferCode?: string | null
  transferNote?: string | null
  notifyOthers?: boolean | null
}

/** New deadlines for a deal (a date each, ms); only those given change. */
export interface DealDeadlines {
  paymentDueAt?: number
  transferDueAt?: number
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

const selectDeals = (q: Q) =>
  q
    .selectFrom('deals as d')
    .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
    .select(DEAL_COLUMNS)
    .select((eb) => eb('d.transfer_code', 'is not', null).as('has_code'))

type DealQuery = ReturnType<typeof selectDeals>
type DealRow = Awaited<ReturnType<DealQuery['executeTakeFirstOrThrow']>>

/** The deals with their instalment plans' rates, read in one more query. */
async function withPlans(q: Q, rows: readonly DealRow[]): Promise<StoredDeal[]> {
  const planned = rows.filter((row) => row.plan_transfer !== null).map((row) => Number(row.id))
  const rates = planned.length === 0 ? new Map<number, StoredRate[]>() : await ratesOf(q, planned)
  return rows.map((row) => {
    const deal = toDeal(row)
    return row.plan_transfer === null ? deal : { ...deal, plan: { transfer: row.plan_transfer, rates: rates.get(deal.id) ?? [] } }
  })
}

const oneDeal = async (q: Q, query: DealQuery) => {
  const row = await query.executeTakeFirst()
  return row ? (await withPlans(q, [row]))[0]! : null
}

export const getDeal = (q: Q, id: number) => oneDeal(q, selectDeals(q).where('d.id', '=', id))

/** The deal whose link id hashes to `linkHash`, or null. */
export const dealByLink = (q: Q, linkHash: string) => oneDeal(q, selectDeals(q).where('d.link_hash', '=', linkHash))

/** The open deal (not cancelled) of an inquiry, or null. */
export const openDealOf = (q: Q, inquiryId: number) => oneDeal(q, selectDeals(q).where('d.inquiry_id', '=', inquiryId).where('d.status', '!=', 'cancelled'))

/** A deal as a step reads it, with its inquiry's token (its mails' Message-IDs). */
export type LockedDeal = StoredDeal & { token: string }

/** The deal as the Store's callers know it. */
export const withoutToken = ({ token: _token, ...deal }: LockedDeal): StoredDeal => deal

/**
 * The deal as a step starts from it, its row (and its inquiry's) locked until the work commits: the one read of the
 * deal in a step's transaction (decision 060). Two steps on one deal take turns here.
 */
export async function lockDeal(work: Work, id: number): Promise<LockedDeal | null> {
  const row = await work.forUpdate(selectDeals(work.trx).select('i.token').where('d.id', '=', id)).executeTakeFirst()
  if (!row) return null
  const [deal] = await withPlans(work.trx, [row])
  return { ...deal!, token: row.token }
}

/** The next deadline an open deal waits for; null once it is finished. */
const nextDeadline = (deal: StoredDeal) =>
  deal.status === 'awaiting_payment' ? deal.paymentDueAt : deal.status === 'paid' ? deal.transferDueAt : deal.status === 'transferred' ? deal.completesAt : null

/** Every deal, or those in one state: open deals by their next deadline, then the finished ones, newest first. */
export async function listDeals(q: Q, filter: { status?: DealState } = {}): Promise<StoredDeal[]> {
  const rows = await selectDeals(q)
    .$if(filter.status !== undefined, (qb) => qb.where('d.status', '=', filter.status!))
    .execute()
  const deals = await withPlans(q, rows)
  return deals.sort((a, b) => {
    const [da, dbb] = [nextDeadline(a), nextDeadline(b)]
    if (da !== null && dbb !== null) return da - dbb || a.id - b.id
    if (da !== null) return -1
    if (dbb !== null) return 1
    return b.createdAt - a.createdAt || b.id - a.id
  })
}

/** A step's new state and fields written (decision 033). */
export async function changeDeal(trx: Trx, id: number, change: DealUpdate): Promise<void> {
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
}

/** The deal as changeDeal leaves its row, from the deal read before: a step never reads its deal twice. */
export function changed<D extends StoredDeal>(deal: D, change: DealUpdate): D {
  const defined = <T>(value: T | undefined, before: T) => (value === undefined ? before : value)
  return {
    ...deal,
    status: change.to,
    paidAt: defined(change.paidAt, deal.paidAt),
    transferDueAt: defined(change.transferDueAt, deal.transferDueAt),
    transferredAt: defined(change.transferredAt, deal.transferredAt),
    completesAt: defined(change.completesAt, deal.completesAt),
    completedAt: defined(change.completedAt, deal.completedAt),
    cancelledAt: defined(change.cancelledAt, deal.cancelledAt),
    cancelledBy: defined(change.cancelledBy, deal.cancelledBy),
    cancelReason: defined(change.cancelReason, deal.cancelReason),
    hasTransferCode: change.transferCode === undefined ? deal.hasTransferCode : change.transferCode !== null,
    transferNote: defined(change.transferNote, deal.transferNote),
    notifyOthers: defined(change.notifyOthers, deal.notifyOthers),
  }
}

/**
 * New deadlines (decision 037): the payment's while the deal waits for payment, the transfer's while paid; the
 * reminders of a moved deadline are planned again (their marks cleared). The deal as it is then, or the state that
 * refuses them.
 */
export async function moveDeadlines<D extends StoredDeal>(trx: Trx, deal: D, deadlines: DealDeadlines): Promise<D | { refused: DealState }> {
  const set: Updateable<Database['deals']> = {}
  if (deadlines.paymentDueAt !== undefined) {
    if (deal.status !== 'awaiting_payment') return { refused: deal.status }
    Object.assign(set, { payment_due_at: deadlines.paymentDueAt, payment_reminded_at: null, payment_overdue_at: null })
  }
  if (deadlines.transferDueAt !== undefined) {
    if (deal.status !== 'paid') return { refused: deal.status }
    Object.assign(set, { transfer_due_at: deadlines.transferDueAt, transfer_reminded_at: null })
  }
  if (Object.keys(set).length > 0) await trx.updateTable('deals').set(set).where('id', '=', deal.id).execute()
  return { ...deal, paymentDueAt: deadlines.paymentDueAt ?? deal.paymentDueAt, transferDueAt: deadlines.transferDueAt ?? deal.transferDueAt }
}

/** The inquiries still waiting for an answer about the name: whom "bereits verkauft" may reach (decision 037). */
export const OPEN_INQUIRY: readonly InquiryStatus[] = ['new', 'answered', 'countered', 'expired', 'accepted']
const OPEN_DEAL: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred']

/**
 * The open inquiries of a domain other than `exceptInquiryId` (not spam, unconfirmed, declined or archived, not told
 * before), newest first: whom "bereits verkauft" may reach.
 */
export async function otherInquirers(q: Q, domain: string, exceptInquiryId: number): Promise<OtherInquirer[]> {
  const rows = await q
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
    .execute()
  return rows.map((row) => ({ inquiryId: Number(row.id), email: row.email, name: row.name, language: row.language }))
}

/** An open deal (awaiting payment, paid, transferred) of a domain, or a completed one (sold); null when neither. */
export async function dealOfDomain(q: Q, domain: string): Promise<{ id: number; status: DealState } | null> {
  const rows = await q
    .selectFrom('deals')
    .select(['id', 'status'])
    .where('domain', '=', domain)
    .where('status', 'in', [...OPEN_DEAL, 'completed'])
    .orderBy('id', 'desc')
    .execute()
  // Sold outweighs a deal still open (offers' deals may have been open side by side).
  const row = rows.find((deal) => deal.status === 'completed') ?? rows[0]
  return row ? { id: Number(row.id), status: row.status } : null
}

/** Every domain (ASCII) with a completed deal: sold, whatever the domains file says (decision 033). */
export async function soldDomains(q: Q): Promise<string[]> {
  const rows = await q.selectFrom('deals').select('domain').distinct().where('status', '=', 'completed').orderBy('domain').execute()
  return rows.map((row) => row.domain)
}

/** Transferred deals whose time to complete by themselves has come by `now`. */
export async function dealsToComplete(q: Q, now: number): Promise<number[]> {
  const rows = await q.selectFrom('deals').select('id').where('status', '=', 'transferred').where('completes_at', '<=', now).orderBy('id').execute()
  return rows.map((row) => Number(row.id))
}

/** Erases the transfer codes of deals completed at or before `completedBy`; returns how many. */
export async function eraseTransferCodes(q: Q, completedBy: number): Promise<number> {
  const result = await q
    .updateTable('deals')
    .set({ transfer_code: null })
    .where('status', '=', 'completed')
    .where('completed_at', '<=', completedBy)
    .where('transfer_code', 'is not', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** The sealed transfer code, or null. */
export async function dealTransferCode(q: Q, id: number): Promise<string | null> {
  const row = await q.selectFrom('deals').select('transfer_code').where('id', '=', id).executeTakeFirst()
  return row?.transfer_code ?? null
}

/** The completed deal of a domain (the name is sold), or null. */
export const soldDealOf = async (q: Q, domain: string) =>
  idOf(await q.selectFrom('deals').select('id').where('domain', '=', domain).where('status', '=', 'completed').executeTakeFirst())

/** An open deal of a domain made from another inquiry than `inquiryId`, or null: one sale of a name at a time (decision 037). */
export const otherOpenDealOf = async (q: Q, domain: string, inquiryId: number) =>
  idOf(
    await q
      .selectFrom('deals')
      .select('id')
      .where('domain', '=', domain)
      .where('inquiry_id', '!=', inquiryId)
      .where('status', 'in', OPEN_DEAL)
      .executeTakeFirst(),
  )

/** The inquiry's deal in any state but cancelled, or null. */
export const uncancelledDealOf = async (q: Q, inquiryId: number) =>
  idOf(await q.selectFrom('deals').select('id').where('inquiry_id', '=', inquiryId).where('status', '!=', 'cancelled').executeTakeFirst())

const idOf = (row: { id: number } | undefined) => (row ? Number(row.id) : null)
