// The table inquiries, as far as the deal's use cases read and change it in their unit of work (decision 060): the
// buyer's inquiry, whose columns hold the invoice address, and the negotiation's state on it (docs/negotiation.md).
// The inbox's queries are still the Store's (store/inbox.ts).
import type { Selectable } from 'kysely'
import type { InquiryStatus, StoredInquiry } from '../inquiry-types.ts'
import type { Database } from '../schema.ts'
import type { Work } from '../unit-of-work.ts'
import type { Q, Trx } from './db.ts'

/**
 * The columns of an inquiry, named rather than `*`: PostgreSQL's table also holds the words of its free-text search,
 * which no caller needs.
 */
export const INQUIRY_COLUMNS = [
  'i.id',
  'i.token',
  'i.content_hash',
  'i.domain',
  'i.name',
  'i.email',
  'i.message',
  'i.language',
  'i.spam_reason',
  'i.offer_amount',
  'i.offer_currency',
  'i.below_minimum',
  'i.created_at',
  'i.status',
  'i.counter_amount',
  'i.counter_expires_at',
  'i.kind',
  'i.buyer_company',
  'i.buyer_street',
  'i.buyer_postcode',
  'i.buyer_city',
  'i.buyer_country',
  'i.buyer_vat_id',
  'i.buyer_name',
  'i.plan_rates',
  'i.plan_down_payment',
  'i.plan_transfer',
] as const

export const toInquiry = (row: Selectable<Database['inquiries']>): StoredInquiry => ({
  id: row.id,
  token: row.token,
  contentHash: row.content_hash,
  domain: row.domain,
  name: row.name,
  email: row.email,
  message: row.message,
  language: row.language,
  spamReason: row.spam_reason,
  offer: row.offer_amount === null ? null : { amount: row.offer_amount, currency: row.offer_currency ?? 'EUR' },
  belowMinimum: row.below_minimum === 1,
  createdAt: row.created_at,
  ...(row.counter_amount !== null && { counter: { amount: row.counter_amount, expiresAt: row.counter_expires_at ?? 0 } }),
  ...(row.kind === 'checkout' && {
    checkout: {
      company: row.buyer_company,
      street: row.buyer_street ?? '',
      postcode: row.buyer_postcode ?? '',
      city: row.buyer_city ?? '',
      country: row.buyer_country ?? '',
      vatId: row.buyer_vat_id,
    },
  }),
  ...(row.kind === 'inquiry' &&
    row.buyer_street !== null && {
      invoiceAddress: {
        name: row.buyer_name ?? row.name,
        company: row.buyer_company,
        street: row.buyer_street,
        postcode: row.buyer_postcode ?? '',
        city: row.buyer_city ?? '',
        country: row.buyer_country ?? '',
        vatId: row.buyer_vat_id,
      },
    }),
  ...(row.plan_rates !== null && {
    plan: { rates: row.plan_rates, downPayment: Number(row.plan_down_payment ?? 0), transfer: row.plan_transfer ?? 'after-last' },
  }),
})

export async function getInquiry(q: Q, id: number): Promise<StoredInquiry | null> {
  const row = await q.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.id', '=', id).executeTakeFirst()
  return row ? toInquiry(row) : null
}

/** An inquiry as a step of the negotiation reads it: with its state, and its counter-offer's end as stored. */
export type LockedInquiry = StoredInquiry & { status: InquiryStatus; counterExpiresAt: number | null }

/**
 * The inquiry as a step of the negotiation starts from it, locked until the work commits (PostgreSQL, where two
 * instances may act on it at once; SQLite's writers take turns on the file): the step's one read of it.
 */
export async function lockInquiry(work: Work, id: number): Promise<LockedInquiry | null> {
  const row = await work.forUpdate(work.trx.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.id', '=', id)).executeTakeFirst()
  return row ? { ...toInquiry(row), status: row.status, counterExpiresAt: row.counter_expires_at } : null
}

/** What a step of the negotiation writes on the inquiry besides its state: the counter-offer and its plan. */
export type NegotiationUpdate = Partial<
  Pick<Database['inquiries'], 'counter_amount' | 'counter_expires_at' | 'plan_rates' | 'plan_down_payment' | 'plan_transfer'>
>

export async function setNegotiationState(trx: Trx, id: number, status: InquiryStatus, update: NegotiationUpdate): Promise<void> {
  await trx
    .updateTable('inquiries')
    .set({ status, ...update })
    .where('id', '=', id)
    .execute()
}

/** Marks every counter-offer whose time ran out by `now` as expired; returns how many. */
export async function expireCounterOffers(q: Q, now: number): Promise<number> {
  const result = await q
    .updateTable('inquiries')
    .set({ status: 'expired' })
    .where('status', '=', 'countered')
    .where('counter_expires_at', '<=', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}
