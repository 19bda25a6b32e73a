// The numbers of the weekly digest (jobs/digest.ts): read across the inquiries, the visits and the outbox. A plain
// function over the store's Kysely (decision 060). Same for both databases.
import type { Offer } from '../inquiry-types.ts'
import type { Q } from './db.ts'

export interface DigestDomain {
  domain: string
  views: number
  inquiries: number
  spam: number
  failedMail: number
  /** Genuine offers, in the currency each was made in. */
  offers: Offer[]
}

export interface DigestFacts {
  /** Each domain with views, inquiries or failed mail in the range. */
  domains: DigestDomain[]
  /** Domains with page views since `quietSince`, or with an inquiry ever; sorted. */
  seen: string[]
  /** Domains with a genuine inquiry since `quietSince`; sorted. */
  askedLately: string[]
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)

/**
 * The digest's numbers: inquiries, spam, offers and failed mail in [since, until); page views of the UTC days from
 * since's day up to (not including) until's day.
 */
export async function digestFacts(db: Q, { since, until, quietSince }: { since: number; until: number; quietSince: number }): Promise<DigestFacts> {
  const [views, inquiries, offers, failed, recentViews, everAsked, activeLately] = await Promise.all([
    // Visits as counted since decision 049, and the page views counted before it.
    db
      .selectFrom((db) =>
        db
          .selectFrom('page_views')
          .select(['domain', 'day', 'views'])
          .unionAll(db.selectFrom('visit_counts').select(['domain', 'day', 'count as views']).where('metric', '=', 'visit'))
          .as('u'),
      )
      .select((eb) => ['u.domain', eb.fn.sum<number>('u.views').as('views')])
      .where('u.day', '>=', dayOf(since))
      .where('u.day', '<', dayOf(until))
      .groupBy('u.domain')
      .execute(),
    db
      .selectFrom('inquiries')
      .select((eb) => [
        'domain',
        eb.fn.countAll<number>().filterWhere('spam_reason', 'is', null).as('inquiries'),
        eb.fn.countAll<number>().filterWhere('spam_reason', 'is not', null).as('spam'),
      ])
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .groupBy('domain')
      .execute(),
    db
      .selectFrom('inquiries')
      .select(['domain', 'offer_amount', 'offer_currency'])
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .where('spam_reason', 'is', null)
      .where('below_minimum', '=', 0)
      .where('offer_amount', 'is not', null)
      .execute(),
    db
      .selectFrom('outbox as o')
      .innerJoin('inquiries as i', 'i.id', 'o.inquiry_id')
      .select((eb) => ['i.domain', eb.fn.countAll<number>().as('failed')])
      .where('o.status', '=', 'failed')
      .where('o.failed_at', '>=', since)
      .where('o.failed_at', '<', until)
      .groupBy('i.domain')
      .execute(),
    db
      .selectFrom('page_views')
      .select('domain')
      .where('day', '>=', dayOf(quietSince))
      .union(db.selectFrom('visit_counts').select('domain').where('metric', '=', 'visit').where('day', '>=', dayOf(quietSince)))
      .execute(),
    db.selectFrom('inquiries').select('domain').distinct().execute(),
    db.selectFrom('inquiries').select('domain').distinct().where('created_at', '>=', quietSince).where('spam_reason', 'is', null).execute(),
  ])
  const byDomain = new Map<string, DigestDomain>()
  const entry = (domain: string) => {
    let found = byDomain.get(domain)
    if (!found) byDomain.set(domain, (found = { domain, views: 0, inquiries: 0, spam: 0, failedMail: 0, offers: [] }))
    return found
  }
  for (const row of views) entry(row.domain).views = Number(row.views)
  for (const row of inquiries) Object.assign(entry(row.domain), { inquiries: Number(row.inquiries), spam: Number(row.spam) })
  for (const row of offers) entry(row.domain).offers.push({ amount: row.offer_amount!, currency: row.offer_currency ?? 'EUR' })
  for (const row of failed) entry(row.domain).failedMail = Number(row.failed)
  return {
    domains: [...byDomain.values()].sort((a, b) => a.domain.localeCompare(b.domain)),
    seen: [...new Set([...recentViews, ...everAsked].map((row) => row.domain))].sort(),
    askedLately: activeLately.map((row) => row.domain).sort(),
  }
}
