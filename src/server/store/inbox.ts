// The inbox: inquiries and their replies, as the console lists, reads and changes them (their mail: outbox.ts).
// Plain functions over the store's Kysely or a unit of work's transaction (decision 060), across the inquiry, its
// replies and their outbox rows; one implementation for both databases but for the free-text search (SQLite's FTS5
// table, PostgreSQL's GIN index; both find words and the starts of words).
import { sql } from 'kysely'
import type { ConsoleFilter, ConsoleInquiry, InquiryStatus, InquiryThread, MailRow, NewReply, OutboxStatus } from './inquiry-types.ts'
import type { DialectName } from './migration-step.ts'
import { queueNotifications } from './tables/notifications.ts'
import { queueReplyMail } from './reply-mail.ts'
import { messageIdFor } from './save-inquiry.ts'
import type { Q, Trx } from './tables/db.ts'
import { INQUIRY_COLUMNS, toInquiry } from './tables/inquiries.ts'

const toMailRow = (row: {
  id: number | null
  status: OutboxStatus | null
  attempts: number | null
  last_error: string | null
  message_id: string | null
}): MailRow | null =>
  row.id === null ? null : { id: row.id, status: row.status!, attempts: row.attempts ?? 0, lastError: row.last_error, messageId: row.message_id ?? '' }

/**
 * The search expression of these words: each must occur as a word, or as the start of one when it ends in "*".
 * Words hold only letters and digits (and that "*"): nothing of either database's query syntax.
 */
function searchQuery(postgres: boolean, words: string[], domain?: string): string {
  const parts = words.map((word) => ({ text: word.replace(/\*$/, ''), prefix: word.endsWith('*') }))
  if (postgres) return parts.map(({ text, prefix }) => `${text}${prefix ? ':*' : ''}`).join(' & ')
  const text = parts.map(({ text, prefix }) => `{name email message} : "${text}"${prefix ? '*' : ''}`).join(' AND ')
  // SQLite's index holds the domain too, as the phrase of its labels: a common word within a small domain is then
  // found without reading every inquiry with that word. The exact domain is still checked on the row.
  return domain === undefined
    ? text
    : `domain : "${domain
        .split(/[^a-z0-9]+/)
        .filter(Boolean)
        .join(' ')}" AND ${text}`
}

/**
 * How PostgreSQL searches (see consoleInquiries): first the newest `window` inquiries; then, when fewer than a page
 * matched there, up to `rareMatches` matches are fetched through the word index and sorted, or, above that, the
 * inquiries are read newest first. Exported so that the store's tests reach each way with a few rows.
 */
export const SEARCH_BOUNDS = { window: 20_000, rareMatches: 5_000 }

/** How long the list of domains with inquiries is kept whole: reading it costs a walk over the index. */
const DOMAINS_TTL_MS = 30_000

async function queueInquiryMail(trx: Trx, inquiry: { id: number; token: string; domain: string }, mailTo: string | null, now: number) {
  await trx
    .insertInto('outbox')
    .values({
      inquiry_id: inquiry.id,
      reply_id: null,
      message_id: messageIdFor(inquiry),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
      mail_to: mailTo,
    })
    .onConflict((oc) => oc.column('inquiry_id').where('reply_id', 'is', null).where('webhook_url', 'is', null).doNothing())
    .execute()
}

/** The console's inbox: newest first, keyset-paginated by (createdAt, id), with the state of the owner's mail. */
export async function consoleInquiries(q: Q, dialect: DialectName, filter: ConsoleFilter): Promise<ConsoleInquiry[]> {
  const postgres = dialect === 'postgres'
  const words = filter.words ?? []
  const filtered = q
    .selectFrom('inquiries as i')
    .$if(filter.domain !== undefined, (qb) => qb.where('i.domain', '=', filter.domain!))
    .$if(filter.status !== undefined, (qb) => qb.where('i.status', '=', filter.status!))
    .$if(filter.since !== undefined, (qb) => qb.where('i.created_at', '>=', filter.since!))
    .$if(filter.until !== undefined, (qb) => qb.where('i.created_at', '<', filter.until!))
  const withMail = (qb: typeof filtered) =>
    qb
      .leftJoin('outbox as o', (join) => join.onRef('o.inquiry_id', '=', 'i.id').on('o.reply_id', 'is', null).on('o.webhook_url', 'is', null))
      .select(INQUIRY_COLUMNS)
      .select('o.status as mail_status')
  const query = withMail(filtered)
  // A search runs newest first by id (ids grow with arrival, as the times do), so that each database reads its
  // index of words in that order and stops at a page; otherwise a common word sorts every match by time first.
  const rows = await (async () => {
    if (words.length === 0) {
      return query
        .$if(filter.before !== undefined, (qb) =>
          qb.where((eb) => eb(eb.refTuple('i.created_at', 'i.id'), '<', eb.tuple(filter.before!.createdAt, filter.before!.id))),
        )
        .orderBy('i.created_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(filter.limit)
        .execute()
    }
    const text = searchQuery(postgres, words, filter.domain)
    if (postgres) {
      // PostgreSQL's planner cannot tell how rare a word is that it has no statistics for: it reads the newest
      // inquiries one by one until enough match, quick for a common word and a walk over the whole table for a
      // rare one. So the search goes in bounded steps, each with every filter: the newest inquiries first
      // (a page of a common word or name is found there); else the matches through the word index, looked up
      // by id and sorted when they are few; else, many but old, newest first after all.
      const matching = filtered
        .where(sql<boolean>`i.search @@ to_tsquery('simple', ${text})`)
        .$if(filter.before !== undefined, (qb) => qb.where('i.id', '<', filter.before!.id))
      const newest =
        filter.before?.id ??
        ((
          await q
            .selectFrom('inquiries')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0) + 1
      const oldestRecent = newest - SEARCH_BOUNDS.window
      const recent = await withMail(matching.where('i.id', '>=', oldestRecent))
        .orderBy('i.id', 'desc')
        .limit(filter.limit)
        .execute()
      if (recent.length === filter.limit || oldestRecent <= 1) return recent
      const probe = await matching
        .select('i.id')
        .limit(SEARCH_BOUNDS.rareMatches + 1)
        .execute()
      const rare = probe.length <= SEARCH_BOUNDS.rareMatches
      return withMail(rare ? filtered.where(sql<boolean>`i.id = ANY(${probe.map((row) => row.id)})`) : matching)
        .orderBy('i.id', 'desc')
        .limit(filter.limit)
        .execute()
    }
    return query
      .innerJoin('inquiries_fts', 'inquiries_fts.rowid', 'i.id')
      .where(sql<boolean>`inquiries_fts MATCH ${text}`)
      .$if(filter.before !== undefined, (qb) => qb.where('inquiries_fts.rowid', '<', filter.before!.id))
      .orderBy('inquiries_fts.rowid', 'desc')
      .limit(filter.limit)
      .execute()
  })()
  return rows.map((row): ConsoleInquiry => ({ ...toInquiry(row), status: row.status, mailStatus: row.mail_status }))
}

/**
 * Every domain with at least one inquiry (ASCII), sorted: the list is kept whole for a while (reading it costs a walk
 * over the index), so each Store holds one of these.
 */
export function inquiryDomainList(): (q: Q) => Promise<string[]> {
  let domainsCache: { at: number; newest: number | null; list: string[] } | undefined
  return async (q) => {
    const { newest } = await q
      .selectFrom('inquiries')
      .select((eb) => eb.fn.max('id').as('newest'))
      .executeTakeFirstOrThrow()
    const now = Date.now()
    if (domainsCache && now - domainsCache.at < DOMAINS_TTL_MS) {
      if (newest === domainsCache.newest) return domainsCache.list
      // Only the inquiries that came since are read for new names; erased ones drop out at the next full read.
      const added = await q
        .selectFrom('inquiries')
        .select('domain')
        .distinct()
        .where('id', '>', domainsCache.newest ?? 0)
        .execute()
      const list = [...new Set([...domainsCache.list, ...added.map((row) => row.domain)])].sort()
      domainsCache = { ...domainsCache, newest, list }
      return list
    }
    // One index lookup per domain instead of reading every inquiry (a loose index scan, in both databases).
    const result = await sql<{ domain: string }>`WITH RECURSIVE d (domain) AS (
        SELECT MIN(domain) FROM inquiries
        UNION ALL
        SELECT (SELECT MIN(domain) FROM inquiries WHERE inquiries.domain > d.domain) FROM d WHERE d.domain IS NOT NULL
      )
      SELECT domain FROM d WHERE domain IS NOT NULL`.execute(q)
    domainsCache = { at: now, newest, list: result.rows.map((row) => row.domain) }
    return domainsCache.list
  }
}

/** The inquiry with its owner's mail and its replies with theirs, or null. */
export async function inquiryThread(q: Q, id: number): Promise<InquiryThread | null> {
  const row = await q
    .selectFrom('inquiries as i')
    .leftJoin('outbox as o', (join) => join.onRef('o.inquiry_id', '=', 'i.id').on('o.reply_id', 'is', null).on('o.webhook_url', 'is', null))
    .select(INQUIRY_COLUMNS)
    .select(['o.id as mail_id', 'o.status as mail_status', 'o.attempts as mail_attempts', 'o.last_error as mail_error', 'o.message_id as mail_message_id'])
    .where('i.id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const replies = await q
    .selectFrom('replies as r')
    .leftJoin('outbox as o', 'o.reply_id', 'r.id')
    .select(['r.id', 'r.kind', 'r.amount', 'r.body', 'r.created_at', 'o.id as mail_id', 'o.status', 'o.attempts', 'o.last_error', 'o.message_id'])
    .where('r.inquiry_id', '=', id)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute()
  const thread: InquiryThread = {
    inquiry: { ...toInquiry(row), status: row.status, mailStatus: row.mail_status },
    ownerMail: toMailRow({
      id: row.mail_id,
      status: row.mail_status,
      attempts: row.mail_attempts,
      last_error: row.mail_error,
      message_id: row.mail_message_id,
    }),
    replies: replies.map((reply) => ({
      id: reply.id,
      kind: reply.kind,
      amount: reply.amount,
      body: reply.body,
      createdAt: reply.created_at,
      mail: toMailRow({ id: reply.mail_id, status: reply.status, attempts: reply.attempts, last_error: reply.last_error, message_id: reply.message_id }),
    })),
  }
  return thread
}

/** Stores the reply, queues its mail to the visitor and marks the inquiry answered, in the caller's transaction; null when there is no such inquiry. */
export async function addReply(trx: Trx, reply: NewReply): Promise<number | null> {
  const inquiry = await trx.selectFrom('inquiries').select(['id', 'token', 'domain']).where('id', '=', reply.inquiryId).executeTakeFirst()
  if (!inquiry) return null
  const id = await queueReplyMail(trx, inquiry, { body: reply.body, replyTo: reply.replyTo, to: reply.to }, reply.createdAt)
  await trx.updateTable('inquiries').set({ status: 'answered' }).where('id', '=', inquiry.id).execute()
  return id
}

/** Archives the inquiry, or brings it back (as answered when it has replies, else new); false when it is spam or gone. */
export async function setArchived(q: Q, id: number, archived: boolean): Promise<boolean> {
  const result = await q
    .updateTable('inquiries')
    .set((eb) => ({
      status: archived
        ? sql<InquiryStatus>`'archived'`
        : // A confirmation mail to the visitor (notice, verify) is not an answer.
          sql<InquiryStatus>`CASE WHEN ${eb.exists(eb.selectFrom('replies').select('replies.id').whereRef('replies.inquiry_id', '=', 'inquiries.id').where('replies.kind', 'not in', ['notice', 'verify']))} THEN 'answered' ELSE 'new' END`,
    }))
    .where('id', '=', id)
    .where('status', '!=', 'spam')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Marks the inquiry as spam (reason "owner"), in the caller's transaction; its mail and notifications, if still pending, are not sent. */
export async function markSpam(trx: Trx, id: number): Promise<boolean> {
  const result = await trx
    .updateTable('inquiries')
    .set((eb) => ({ status: 'spam', spam_reason: eb.fn.coalesce('spam_reason', sql.lit('owner')) }))
    .where('id', '=', id)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) return false
  // The owner's mail and notifications about it, if they have not gone out yet and no process is sending
  // them right now.
  await trx
    .deleteFrom('outbox')
    .where('inquiry_id', '=', id)
    .where('reply_id', 'is', null)
    .where('status', '=', 'pending')
    .where('lease_owner', 'is', null)
    .execute()
  return true
}

/** Marks a spam inquiry as genuine and queues its mail to the owner and its notifications, in the caller's transaction. */
export async function markNotSpam(trx: Trx, id: number, mailTo: string | null, now: number, notify: readonly string[] = []): Promise<boolean> {
  const inquiry = await trx.selectFrom('inquiries').select(['id', 'token', 'domain']).where('id', '=', id).where('status', '=', 'spam').executeTakeFirst()
  if (!inquiry) return false
  await trx.updateTable('inquiries').set({ status: 'new', spam_reason: null }).where('id', '=', id).execute()
  await queueInquiryMail(trx, inquiry, mailTo, now)
  await queueNotifications(trx, inquiry, notify, now)
  return true
}

/** Erases the inquiry with its replies and every mail about it (GDPR Art. 17), in the caller's transaction. */
export async function deleteInquiry(trx: Trx, id: number): Promise<boolean> {
  await trx.deleteFrom('outbox').where('inquiry_id', '=', id).execute()
  await trx.deleteFrom('replies').where('inquiry_id', '=', id).execute()
  const result = await trx.deleteFrom('inquiries').where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Every genuine offer since `since` (epoch ms). */
export async function offersSince(q: Q, since: number): Promise<{ domain: string; amount: number; currency: string; createdAt: number }[]> {
  const rows = await q
    .selectFrom('inquiries')
    .select(['domain', 'offer_amount', 'offer_currency', 'created_at'])
    .where('created_at', '>=', since)
    .where('offer_amount', 'is not', null)
    .where('status', '!=', 'spam')
    .execute()
  return rows.map((row) => ({ domain: row.domain, amount: row.offer_amount!, currency: row.offer_currency ?? 'EUR', createdAt: row.created_at }))
}
