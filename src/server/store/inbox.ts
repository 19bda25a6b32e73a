// The inbox: inquiries and their replies, as the console lists, reads and changes them (their mail: outbox.ts).
// One implementation for both databases but for the free-text search (SQLite's FTS5 table, PostgreSQL's GIN index;
// both find words and the starts of words).
import { sql, type Kysely, type Transaction } from 'kysely'
import { queueNotifications } from './notifications.ts'
import { queueReplyMail } from './reply-mail.ts'
import type { Database } from './schema.ts'
import { INQUIRY_COLUMNS, toInquiry } from './tables/inquiries.ts'
import { messageIdFor } from './save-inquiry.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { ConsoleInquiry, InquiryStatus, InquiryThread, MailRow, OutboxStatus, Store } from './types.ts'

type InboxStore = Pick<
  Store,
  'consoleInquiries' | 'inquiryDomains' | 'inquiryThread' | 'addReply' | 'setArchived' | 'markSpam' | 'markNotSpam' | 'deleteInquiry' | 'offersSince'
>

type Db = Kysely<Database>

// The inquiry's columns and row moved to its table (tables/inquiries.ts); the inbox's other users import them here.
export { INQUIRY_COLUMNS, toInquiry }

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

export function inboxStore(db: Db, dialect: DialectSpecifics): InboxStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)

  async function queueInquiryMail(trx: Transaction<Database>, inquiry: { id: number; token: string; domain: string }, mailTo: string | null, now: number) {
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

  let domainsCache: { at: number; newest: number | null; list: string[] } | undefined

  return {
    async consoleInquiries(filter) {
      const words = filter.words ?? []
      const filtered = db
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
      const rows = await guard(async () => {
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
              await db
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
      })
      return rows.map((row): ConsoleInquiry => ({ ...toInquiry(row), status: row.status, mailStatus: row.mail_status }))
    },
    async inquiryDomains() {
      return guard(async () => {
        const { newest } = await db
          .selectFrom('inquiries')
          .select((eb) => eb.fn.max('id').as('newest'))
          .executeTakeFirstOrThrow()
        const now = Date.now()
        if (domainsCache && now - domainsCache.at < DOMAINS_TTL_MS) {
          if (newest === domainsCache.newest) return domainsCache.list
          // Only the inquiries that came since are read for new names; erased ones drop out at the next full read.
          const added = await db
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
          SELECT domain FROM d WHERE domain IS NOT NULL`.execute(db)
        domainsCache = { at: now, newest, list: result.rows.map((row) => row.domain) }
        return domainsCache.list
      })
    },
    async inquiryThread(id) {
      return guard(async () => {
        const row = await db
          .selectFrom('inquiries as i')
          .leftJoin('outbox as o', (join) => join.onRef('o.inquiry_id', '=', 'i.id').on('o.reply_id', 'is', null).on('o.webhook_url', 'is', null))
          .select(INQUIRY_COLUMNS)
          .select([
            'o.id as mail_id',
            'o.status as mail_status',
            'o.attempts as mail_attempts',
            'o.last_error as mail_error',
            'o.message_id as mail_message_id',
          ])
          .where('i.id', '=', id)
          .executeTakeFirst()
        if (!row) return null
        const replies = await db
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
      })
    },
    async addReply(reply) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const inquiry = await trx.selectFrom('inquiries').select(['id', 'token', 'domain']).where('id', '=', reply.inquiryId).executeTakeFirst()
          if (!inquiry) return null
          const id = await queueReplyMail(trx, inquiry, { body: reply.body, replyTo: reply.replyTo, to: reply.to }, reply.createdAt)
          await trx.updateTable('inquiries').set({ status: 'answered' }).where('id', '=', inquiry.id).execute()
          return id
        }),
      )
    },
    async setArchived(id, archived) {
      return write(async () => {
        const result = await db
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
      })
    },
    async markSpam(id) {
      return write(() =>
        db.transaction().execute(async (trx) => {
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
        }),
      )
    },
    async markNotSpam(id, mailTo, now, notify = []) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const inquiry = await trx
            .selectFrom('inquiries')
            .select(['id', 'token', 'domain'])
            .where('id', '=', id)
            .where('status', '=', 'spam')
            .executeTakeFirst()
          if (!inquiry) return false
          await trx.updateTable('inquiries').set({ status: 'new', spam_reason: null }).where('id', '=', id).execute()
          await queueInquiryMail(trx, inquiry, mailTo, now)
          await queueNotifications(trx, inquiry, notify, now)
          return true
        }),
      )
    },
    async deleteInquiry(id) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          await trx.deleteFrom('outbox').where('inquiry_id', '=', id).execute()
          await trx.deleteFrom('replies').where('inquiry_id', '=', id).execute()
          const result = await trx.deleteFrom('inquiries').where('id', '=', id).executeTakeFirst()
          return result.numDeletedRows > 0n
        }),
      )
    },
    async offersSince(since) {
      const rows = await guard(() =>
        db
          .selectFrom('inquiries')
          .select(['domain', 'offer_amount', 'offer_currency', 'created_at'])
          .where('created_at', '>=', since)
          .where('offer_amount', 'is not', null)
          .where('status', '!=', 'spam')
          .execute(),
      )
      return rows.map((row) => ({ domain: row.domain, amount: row.offer_amount!, currency: row.offer_currency ?? 'EUR', createdAt: row.created_at }))
    },
  }
}
