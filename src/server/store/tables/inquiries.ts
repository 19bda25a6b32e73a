// The table inquiries (decision 060): an inquiry as the store reads it back, and the reads that are the table's
// own (by id, by its idempotency key, the CLI's listing, the daily statistics). Plain functions over the store's
// Kysely or a unit of work's transaction; storing one is save-inquiry.ts (SQLite's group commit, decision 003), the
// console's inbox (search, replies, archive, spam) is still the Store's part store/inbox.ts.
import { sql, type Expression, type RawBuilder, type Selectable } from 'kysely'
import type { DailyStats, InquiryFilter, InquiryListing, InquiryStatus, StoredInquiry } from '../inquiry-types.ts'
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

/** The inquiry stored under a form token and content digest, if any (a token alone may stand for several). */
export async function findInquiry(q: Q, token: string, contentHash: string): Promise<StoredInquiry | null> {
  const row = await q
    .selectFrom('inquiries as i')
    .select(INQUIRY_COLUMNS)
    .where('i.token', '=', token)
    .where('i.content_hash', '=', contentHash)
    .executeTakeFirst()
  return row ? toInquiry(row) : null
}

/** The CLI's listing, newest first, with the state of the owner's mail about each. */
export async function listInquiries(q: Q, filter: InquiryFilter): Promise<InquiryListing[]> {
  const rows = await q
    .selectFrom('inquiries as i')
    .leftJoin('outbox as o', (join) => join.onRef('o.inquiry_id', '=', 'i.id').on('o.reply_id', 'is', null).on('o.webhook_url', 'is', null))
    .select(INQUIRY_COLUMNS)
    .select('o.status as mail_status')
    .$if(Boolean(filter.domain), (qb) => qb.where('i.domain', '=', filter.domain!))
    .$if(filter.since !== undefined, (qb) => qb.where('i.created_at', '>=', filter.since!))
    .$if(filter.until !== undefined, (qb) => qb.where('i.created_at', '<', filter.until!))
    .$if(filter.spam !== undefined, (qb) => qb.where('i.spam_reason', filter.spam ? 'is not' : 'is', null))
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .$if(filter.limit !== undefined, (qb) => qb.limit(filter.limit!))
    .execute()
  return rows.map((row): InquiryListing => ({ ...toInquiry(row), mailStatus: row.mail_status }))
}

/** The UTC day (YYYY-MM-DD) of an epoch-milliseconds column: the dialect's (DialectSpecifics.utcDay). */
type UtcDay = (column: Expression<number>) => RawBuilder<string>

/** Views and inquiries (genuine, spam) per domain and UTC day, the days in order. */
export async function dailyStats(q: Q, utcDay: UtcDay, filter: { domain?: string; sinceDay?: string }): Promise<DailyStats[]> {
  const rows = await q
    .with('inquiries_by_day', (db) =>
      db
        .selectFrom('inquiries')
        .select((eb) => [
          'domain',
          utcDay(eb.ref('created_at')).as('day'),
          eb.fn.countAll<number>().filterWhere('spam_reason', 'is', null).as('inquiries'),
          eb.fn.countAll<number>().filterWhere('spam_reason', 'is not', null).as('spam'),
        ])
        .groupBy(['domain', 'day']),
    )
    // Visits as counted since decision 049, and the page views counted before it (robots included).
    .with('views_by_day', (db) =>
      db
        .selectFrom((db) =>
          db
            .selectFrom('page_views')
            .select(['domain', 'day', 'views'])
            .unionAll(db.selectFrom('visit_counts').select(['domain', 'day', 'count as views']).where('metric', '=', 'visit'))
            .as('u'),
        )
        .select((eb) => ['u.domain', 'u.day', eb.fn.sum<number>('u.views').as('views')])
        .groupBy(['u.domain', 'u.day']),
    )
    .with('keys', (db) =>
      db
        .selectFrom('views_by_day')
        .select(['domain', 'day'])
        .union(db.selectFrom('inquiries_by_day').select(['domain', 'day'])),
    )
    .selectFrom('keys as k')
    .leftJoin('views_by_day as v', (join) => join.onRef('v.domain', '=', 'k.domain').onRef('v.day', '=', 'k.day'))
    .leftJoin('inquiries_by_day as i', (join) => join.onRef('i.domain', '=', 'k.domain').onRef('i.day', '=', 'k.day'))
    .select((eb) => [
      'k.domain',
      'k.day',
      eb.fn.coalesce('v.views', sql<number>`0`).as('views'),
      eb.fn.coalesce('i.inquiries', sql<number>`0`).as('inquiries'),
      eb.fn.coalesce('i.spam', sql<number>`0`).as('spam'),
    ])
    .$if(filter.domain !== undefined, (qb) => qb.where('k.domain', '=', filter.domain!))
    .$if(filter.sinceDay !== undefined, (qb) => qb.where('k.day', '>=', filter.sinceDay!))
    .orderBy('k.day')
    .orderBy('k.domain')
    .execute()
  return rows.map((row): DailyStats => ({
    domain: row.domain,
    day: row.day,
    views: Number(row.views),
    inquiries: Number(row.inquiries),
    spam: Number(row.spam),
  }))
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
