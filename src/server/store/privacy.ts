// GDPR in the store: everything about one person (Art. 15), erasing it (Art. 17), and finding what retention erases.
// Plain functions over the store's Kysely or a unit of work's transaction, across the tables that hold the person
// (decision 060): the use cases (privacy/erase.ts, jobs/retention.ts) hold the erasure's transaction.
// An address is found in every spelling that reaches the same mailbox (lib/mailbox.ts: case, full-width letters,
// Unicode or punycode, Gmail's dots and tags). No SQL function knows IDNA, so each database indexes a coarse key of
// the local part (inquiries_email_stem: the same key, each with its own functions); mailboxOf decides among the rows
// it finds.
import { sql } from 'kysely'
import type { DealState } from '../../shared/deal-api.ts'
import { localStem, sameMailboxAs } from '../lib/mailbox.ts'
import { AUDIT_DETAIL_MAX, toAuditEntry } from './tables/audit-log.ts'
import type { AuditEntry } from './tables/audit-log.ts'
import type { InquiryStatus, OutboxStatus, ReplyKind, StoredInquiry } from './inquiry-types.ts'
import type { DialectName } from './migration-step.ts'
import type { Q, Trx } from './tables/db.ts'
import { INQUIRY_COLUMNS, toInquiry } from './tables/inquiries.ts'

/** One inquiry with everything stored with it, as Art. 15 asks. */
export interface PersonInquiry {
  inquiry: StoredInquiry & { status: InquiryStatus }
  replies: { id: number; kind: ReplyKind; body: string; amount: number | null; replyTo: string | null; createdAt: number }[]
  /**
   * The inquiry's deals (docs/deals.md), with their dates: never the transfer code nor the page's link, which are
   * secrets of the sale, not data about the person.
   */
  deals: PersonDeal[]
  /** Every outbox row: the owner's mail (replyId and webhookUrl null), each reply's mail, each webhook. */
  mails: {
    id: number
    replyId: number | null
    webhookUrl: string | null
    messageId: string
    status: OutboxStatus
    attempts: number
    lastError: string | null
    mailTo: string | null
    createdAt: number
    sentAt: number | null
    failedAt: number | null
  }[]
  /** The audit trail's rows naming the inquiry or one of its deals (decision 043), oldest first. */
  audit: AuditEntry[]
}

/** What an erasure removed: the inquiries (with their domains), their replies, their outbox rows. */
export interface Erased {
  inquiries: { id: number; domain: string }[]
  replyIds: number[]
  outboxRows: number
  /** Rows of the audit trail that named the inquiries or their deals: kept, their ids moved into the detail (decision 043). */
  auditRows: number
  /**
   * The numbers of the invoices of their deals, which are not erased: an invoice and the data on it are kept for
   * their own period (INVOICE_RETENTION_YEARS; §147 AO, §14b UStG; GDPR Art. 17(3)(b)), without their link to the
   * inquiry (decision 038).
   */
  keptInvoices: number[]
}

interface PersonDeal {
  id: number
  domain: string
  reference: string
  status: DealState
  amount: number
  currency: string
  createdAt: number
  paymentDueAt: number
  paidAt: number | null
  transferDueAt: number | null
  transferredAt: number | null
  completedAt: number | null
  cancelledAt: number | null
  cancelledBy: 'owner' | 'buyer' | null
  cancelReason: string | null
  transferNote: string | null
  /** An instalment plan's payments (decision 042): each with its due time, amount, when received, its reference. */
  rates: { number: number; amount: number; dueAt: number; paidAt: number | null; reference: string }[]
  /** The deal's invoices, Anzahlungsrechnungen and Stornorechnungen (decisions 038, 046): number, kind, date. */
  invoices: { number: number; kind: 'invoice' | 'advance' | 'cancellation'; issuedAt: number }[]
}

/**
 * An erased person's row of the audit trail: "Anfrage 12, Verkauf 10 (gelöscht)", then what the detail said. Read
 * from the row's old values (an UPDATE's SET sees the row as it was), in SQL both databases speak.
 */
const pseudonymisedDetail = sql<string>`substr(
  CASE WHEN inquiry_id IS NULL THEN '' ELSE 'Anfrage ' || CAST(inquiry_id AS text) END
  || CASE WHEN inquiry_id IS NULL OR deal_id IS NULL THEN '' ELSE ', ' END
  || CASE WHEN deal_id IS NULL THEN '' ELSE 'Verkauf ' || CAST(deal_id AS text) END
  || ' (gelöscht)'
  || CASE WHEN detail IS NULL THEN '' ELSE ' · ' || detail END, 1, ${sql.lit(AUDIT_DETAIL_MAX)})`

// Written exactly as the index is (migrations/0011-email-stem.ts), so that the planner uses it; localStem computes the same.
const stemMatches = (dialect: DialectName, email: string) =>
  dialect === 'postgres'
    ? sql<boolean>`lower(replace(split_part(split_part(i.email, '@', 1), '+', 1), '.', '')) = ${localStem(email)}`
    : sql<boolean>`lower(replace(substr(i.email, 1, CASE WHEN instr(i.email, '+') BETWEEN 1 AND instr(i.email, '@') THEN instr(i.email, '+') ELSE instr(i.email, '@') END - 1), '.', '')) = ${localStem(email)}`

/** The ids of the inquiries whose address reaches the mailbox `email` reaches, oldest first. */
async function inquiriesOfMailbox(q: Q, dialect: DialectName, email: string): Promise<number[]> {
  const rows = await q
    .selectFrom('inquiries as i')
    .select(['i.id', 'i.email'])
    .where(stemMatches(dialect, email))
    .orderBy('i.created_at')
    .orderBy('i.id')
    .execute()
  const sameMailbox = sameMailboxAs(email)
  return rows.filter((row) => sameMailbox(row.email)).map((row) => row.id)
}

/** Erases these inquiries with their replies and outbox rows, in the caller's transaction; then purgeErased. */
export async function eraseInquiries(trx: Trx, ids: readonly number[]): Promise<Erased> {
  if (ids.length === 0) return { inquiries: [], replyIds: [], outboxRows: 0, auditRows: 0, keptInvoices: [] }
  const inquiries = await trx.selectFrom('inquiries').select(['id', 'domain']).where('id', 'in', ids).orderBy('id').execute()
  const replies = await trx.selectFrom('replies').select('id').where('inquiry_id', 'in', ids).orderBy('id').execute()
  // Invoices stay (their deal_id and reply_id are set null by the database): only counted, for the report.
  const invoices = await trx
    .selectFrom('invoices as v')
    .innerJoin('deals as d', 'd.id', 'v.deal_id')
    .select('v.number')
    .where('d.inquiry_id', 'in', ids)
    .orderBy('v.number')
    .execute()
  // Outbox rows first: they refer to the replies and the inquiries. SQLite's triggers take the FTS rows along.
  const outbox = await trx.deleteFrom('outbox').where('inquiry_id', 'in', ids).executeTakeFirst()
  // The trail's rows that name them stay: what the owner (or whoever had the owner's session) did is not the
  // person's to erase (decision 043). They lose their link to the person instead: the ids leave the columns that
  // access, forget and the console's subject filter look up (an id SQLite gives again once the highest is erased
  // would otherwise hand the rows to the next inquiry or deal), and stay readable in the detail.
  const audit = await trx
    .updateTable('audit_log')
    .set({ inquiry_id: null, deal_id: null, detail: pseudonymisedDetail })
    .where((eb) => eb.or([eb('inquiry_id', 'in', ids), eb('deal_id', 'in', eb.selectFrom('deals').select('id').where('inquiry_id', 'in', ids))]))
    .executeTakeFirst()
  await trx.deleteFrom('replies').where('inquiry_id', 'in', ids).execute()
  await trx.deleteFrom('inquiries').where('id', 'in', ids).execute()
  return {
    inquiries,
    replyIds: replies.map((row) => row.id),
    outboxRows: Number(outbox.numDeletedRows),
    auditRows: Number(audit.numUpdatedRows),
    keptInvoices: invoices.map((row) => Number(row.number)),
  }
}

/** Erases every inquiry whose address reaches this mailbox (Art. 17), in the caller's transaction; then purgeErased. */
export async function eraseMailbox(trx: Trx, dialect: DialectName, email: string): Promise<Erased> {
  return eraseInquiries(trx, await inquiriesOfMailbox(trx, dialect, email))
}

/**
 * Rewrites what still holds erased words: SQLite's FTS index only marks a deleted row and keeps its words in its
 * pages until they are merged, which this does now (a write of its own, after the erasure's transaction).
 */
export async function purgeErased(q: Q, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await sql`INSERT INTO inquiries_fts (inquiries_fts) VALUES ('optimize')`.execute(q)
}

/** Every inquiry whose e-mail address reaches this mailbox, oldest first, with its replies, deals and mail (Art. 15). */
export async function personData(q: Q, dialect: DialectName, email: string): Promise<PersonInquiry[]> {
  const ids = await inquiriesOfMailbox(q, dialect, email)
  if (ids.length === 0) return []
  const rows = await q.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.id', 'in', ids).orderBy('i.created_at').orderBy('i.id').execute()
  const [replies, deals, mails, audit, rates, invoices] = await Promise.all([
    q.selectFrom('replies').selectAll().where('inquiry_id', 'in', ids).orderBy('created_at').orderBy('id').execute(),
    // Column by column: the transfer code and the link are never read here.
    q
      .selectFrom('deals')
      .select([
        'id',
        'inquiry_id',
        'domain',
        'reference',
        'status',
        'amount',
        'currency',
        'created_at',
        'payment_due_at',
        'paid_at',
        'transfer_due_at',
        'transferred_at',
        'completed_at',
        'cancelled_at',
        'cancelled_by',
        'cancel_reason',
        'transfer_note',
      ])
      .where('inquiry_id', 'in', ids)
      .orderBy('id')
      .execute(),
    q
      .selectFrom('outbox')
      .select([
        'id',
        'inquiry_id',
        'reply_id',
        'webhook_url',
        'message_id',
        'status',
        'attempts',
        'last_error',
        'mail_to',
        'created_at',
        'sent_at',
        'failed_at',
      ])
      .where('inquiry_id', 'in', ids)
      .orderBy('id')
      .execute(),
    q
      .selectFrom('audit_log as a')
      .leftJoin('deals as d', 'd.id', 'a.deal_id')
      .selectAll('a')
      .select('d.inquiry_id as deal_inquiry_id')
      .where((eb) => eb.or([eb('a.inquiry_id', 'in', ids), eb('d.inquiry_id', 'in', ids)]))
      .orderBy('a.at')
      .orderBy('a.id')
      .execute(),
    q
      .selectFrom('deal_rates as r')
      .innerJoin('deals as d', 'd.id', 'r.deal_id')
      .select(['r.deal_id', 'r.number', 'r.amount', 'r.due_at', 'r.paid_at', 'r.reference'])
      .where('d.inquiry_id', 'in', ids)
      .orderBy('r.deal_id')
      .orderBy('r.number')
      .execute(),
    q
      .selectFrom('invoices as v')
      .innerJoin('deals as d', 'd.id', 'v.deal_id')
      .select(['v.deal_id', 'v.number', 'v.kind', 'v.advance_rate', 'v.issued_at'])
      .where('d.inquiry_id', 'in', ids)
      .orderBy('v.number')
      .execute(),
  ])
  return rows.map((row): PersonInquiry => ({
    inquiry: { ...toInquiry(row), status: row.status },
    replies: replies
      .filter((reply) => reply.inquiry_id === row.id)
      .map((reply) => ({ id: reply.id, kind: reply.kind, body: reply.body, amount: reply.amount, replyTo: reply.reply_to, createdAt: reply.created_at })),
    deals: deals
      .filter((deal) => Number(deal.inquiry_id) === Number(row.id))
      .map((deal) => ({
        id: Number(deal.id),
        domain: deal.domain,
        reference: deal.reference,
        status: deal.status,
        amount: Number(deal.amount),
        currency: deal.currency,
        createdAt: deal.created_at,
        paymentDueAt: deal.payment_due_at,
        paidAt: deal.paid_at,
        transferDueAt: deal.transfer_due_at,
        transferredAt: deal.transferred_at,
        completedAt: deal.completed_at,
        cancelledAt: deal.cancelled_at,
        cancelledBy: deal.cancelled_by,
        cancelReason: deal.cancel_reason,
        transferNote: deal.transfer_note,
        rates: rates
          .filter((rate) => Number(rate.deal_id) === Number(deal.id))
          .map((rate) => ({
            number: Number(rate.number),
            amount: Number(rate.amount),
            dueAt: Number(rate.due_at),
            paidAt: rate.paid_at === null ? null : Number(rate.paid_at),
            reference: rate.reference,
          })),
        invoices: invoices
          .filter((invoice) => Number(invoice.deal_id) === Number(deal.id))
          .map((invoice) => ({
            number: Number(invoice.number),
            kind: invoice.kind === 'invoice' && invoice.advance_rate !== null ? ('advance' as const) : invoice.kind,
            issuedAt: Number(invoice.issued_at),
          })),
      })),
    mails: mails
      .filter((mail) => mail.inquiry_id === row.id)
      .map((mail) => ({
        id: mail.id,
        replyId: mail.reply_id,
        webhookUrl: mail.webhook_url,
        messageId: mail.message_id,
        status: mail.status,
        attempts: mail.attempts,
        lastError: mail.last_error,
        mailTo: mail.mail_to,
        createdAt: mail.created_at,
        sentAt: mail.sent_at,
        failedAt: mail.failed_at,
      })),
    audit: audit.filter((entry) => Number(entry.inquiry_id ?? entry.deal_inquiry_id) === Number(row.id)).map(toAuditEntry),
  }))
}

/**
 * Up to `limit` inquiries, oldest first, that arrived before `before` and have no reply since then (a negotiation
 * still going on is not stale).
 */
export async function staleInquiries(q: Q, before: number, limit: number): Promise<number[]> {
  const rows = await q
    .selectFrom('inquiries as i')
    .select('i.id')
    .where('i.created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('replies as r').select('r.id').whereRef('r.inquiry_id', '=', 'i.id').where('r.created_at', '>=', before))),
    )
    .orderBy('i.created_at')
    .orderBy('i.id')
    .limit(limit)
    .execute()
  return rows.map((row) => row.id)
}
