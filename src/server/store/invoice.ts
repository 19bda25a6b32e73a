// Invoices (decision 038): issued in a deal step's transaction with one gapless number for every process and
// instance, their PDF kept once drawn and never changed.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { InvoiceIssue, InvoiceListing, InvoiceStore, StoredInvoice } from './invoice-types.ts'

/** The states in which a deal has been paid: only these are invoiced (decision 038). */
const PAID_STATES = ['paid', 'transferred', 'completed'] as const

/** One seller per installation (config.ts, SELLER_*): one sequence. */
const SELLER = 'seller'

/**
 * The next number: the counter row updated (or made) in the caller's transaction. Another transaction wanting a
 * number waits for this one's row lock (PostgreSQL) or write lock (SQLite) and sees its result: a rolled-back
 * transaction gives its number back, a committed one has used it. No gaps, no duplicates.
 */
async function nextNumber(trx: Transaction<Database>): Promise<number> {
  const row = await trx
    .insertInto('invoice_numbers')
    .values({ seller: SELLER, last: 1 })
    .onConflict((oc) => oc.column('seller').doUpdateSet((eb) => ({ last: eb('invoice_numbers.last', '+', 1) })))
    .returning('last')
    .executeTakeFirstOrThrow()
  return Number(row.last)
}

/** In the deal step's transaction, after its mail (the PDF goes with `replyId`). Returns the invoice's id, or null. */
export async function issueInvoiceIn(trx: Transaction<Database>, dealId: number, issue: InvoiceIssue, replyId: number | null, now: number): Promise<number | null> {
  const existing = await trx.selectFrom('invoices').select(['id', 'data', 'e_invoice']).where('deal_id', '=', dealId).where('kind', '=', 'invoice').executeTakeFirst()
  let values: { data: string; eInvoice: boolean }
  let number: number
  let cancelsId: number | null = null
  if (issue.kind === 'invoice') {
    // A deal is invoiced once (a second "paid" cannot happen: the state moved on; this guards a retried step).
    if (existing) return null
    number = await nextNumber(trx)
    values = issue.build(number)
  } else {
    if (!existing) return null
    const cancelled = await trx.selectFrom('invoices').select('id').where('cancels_id', '=', existing.id).executeTakeFirst()
    if (cancelled) return null
    number = await nextNumber(trx)
    values = issue.build(number, { data: existing.data, eInvoice: Number(existing.e_invoice) === 1 })
    cancelsId = Number(existing.id)
  }
  const { id } = await trx
    .insertInto('invoices')
    .values({ number, kind: issue.kind, deal_id: dealId, cancels_id: cancelsId, reply_id: replyId, issued_at: now, data: values.data, e_invoice: values.eInvoice ? 1 : 0, pdf: null, sha256: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(id)
}

const LISTING = ['id', 'number', 'kind', 'deal_id', 'issued_at', 'e_invoice', 'sha256'] as const

const toListing = (row: Pick<Selectable<Database['invoices']>, (typeof LISTING)[number]>): InvoiceListing => ({
  id: Number(row.id),
  number: Number(row.number),
  kind: row.kind,
  dealId: row.deal_id === null ? null : Number(row.deal_id),
  issuedAt: Number(row.issued_at),
  eInvoice: Number(row.e_invoice) === 1,
  sha256: row.sha256,
})

export function invoiceStore(db: Kysely<Database>, dialect: DialectSpecifics): InvoiceStore {
  const { guard } = dialect
  const write = writer(dialect)
  const getInvoice = async (id: number): Promise<StoredInvoice | null> => {
    const row = await guard(() => db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst())
    if (!row) return null
    return { ...toListing(row), cancelsId: row.cancels_id === null ? null : Number(row.cancels_id), data: row.data, pdf: row.pdf === null ? null : Buffer.from(row.pdf) }
  }
  const postgres = dialect.name === 'postgres'
  /** The deal's row, locked until the transaction ends (PostgreSQL; SQLite has one writer): a step waits for it. */
  const lockedDeal = (trx: Transaction<Database>, dealId: number) =>
    trx
      .selectFrom('deals as d')
      .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
      .select(['d.id', 'd.status', 'd.inquiry_id', 'i.kind'])
      .where('d.id', '=', dealId)
      .$if(postgres, (qb) => qb.forUpdate())
      .executeTakeFirst()
  const invoiced = async (trx: Transaction<Database>, dealId: number) =>
    (await trx.selectFrom('invoices').select('id').where('deal_id', '=', dealId).where('kind', '=', 'invoice').executeTakeFirst()) !== undefined
  return {
    getInvoice,
    keepInvoiceAddress(dealId, address) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const deal = await lockedDeal(trx, dealId)
          if (!deal) return 'not-found' as const
          if (deal.kind === 'checkout') return 'checkout' as const
          if (deal.status === 'cancelled') return 'cancelled' as const
          if (await invoiced(trx, dealId)) return 'invoiced' as const
          await trx
            .updateTable('inquiries')
            .set({ buyer_name: address.name, buyer_company: address.company, buyer_street: address.street, buyer_postcode: address.postcode, buyer_city: address.city, buyer_country: address.country, buyer_vat_id: address.vatId })
            .where('id', '=', deal.inquiry_id)
            .execute()
          return 'done' as const
        }),
      )
    },
    issueLateInvoice(dealId, issue, now) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          const deal = await lockedDeal(trx, dealId)
          if (!deal) return { status: 'not-found' } as const
          if (!(PAID_STATES as readonly string[]).includes(deal.status)) return { status: 'wrong-state', current: deal.status } as const
          const invoiceId = await issueInvoiceIn(trx, dealId, issue, null, now)
          return invoiceId === null ? ({ status: 'invoiced' } as const) : ({ status: 'done', invoiceId } as const)
        }),
      )
    },
    async dealInvoices(dealId) {
      const rows = await guard(() => db.selectFrom('invoices').select(LISTING).where('deal_id', '=', dealId).orderBy('number').execute())
      return rows.map(toListing)
    },
    async listInvoices() {
      const rows = await guard(() => db.selectFrom('invoices').select(LISTING).orderBy('number', 'desc').execute())
      return rows.map(toListing)
    },
    async replyInvoices(replyId) {
      const rows = await guard(() => db.selectFrom('invoices').select('id').where('reply_id', '=', replyId).orderBy('number').execute())
      return rows.map((row) => Number(row.id))
    },
    eraseInvoicesIssuedBefore(issuedBefore) {
      return write(() =>
        db.transaction().execute(async (trx) => {
          // A Stornorechnung is issued after its invoice: when it is due, so is the invoice it names.
          const cancellations = await trx.deleteFrom('invoices').where('kind', '=', 'cancellation').where('issued_at', '<', issuedBefore).returning('number').execute()
          const invoices = await trx
            .deleteFrom('invoices')
            .where('kind', '=', 'invoice')
            .where('issued_at', '<', issuedBefore)
            .where(({ not, exists, selectFrom }) => not(exists(selectFrom('invoices as c').select('c.id').whereRef('c.cancels_id', '=', 'invoices.id'))))
            .returning('number')
            .execute()
          return [...cancellations, ...invoices].map((row) => Number(row.number)).sort((a, b) => a - b)
        }),
      )
    },
    async keepInvoicePdf(id, pdf, sha256) {
      await write(() => db.updateTable('invoices').set({ pdf, sha256 }).where('id', '=', id).where('pdf', 'is', null).execute())
      const kept = await getInvoice(id)
      if (!kept?.pdf || !kept.sha256) throw new Error(`invoice ${id} does not exist`)
      return { pdf: kept.pdf, sha256: kept.sha256 }
    },
  }
}
