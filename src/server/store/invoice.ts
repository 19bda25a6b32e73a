// Invoices (decision 038): issued in a deal step's transaction with one gapless number for every process and
// instance, their PDF kept once drawn and never changed.
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { InvoiceIssue, InvoiceListing, InvoiceStore, StoredInvoice } from './invoice-types.ts'

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
  return {
    getInvoice,
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
    async keepInvoicePdf(id, pdf, sha256) {
      await write(() => db.updateTable('invoices').set({ pdf, sha256 }).where('id', '=', id).where('pdf', 'is', null).execute())
      const kept = await getInvoice(id)
      if (!kept?.pdf || !kept.sha256) throw new Error(`invoice ${id} does not exist`)
      return { pdf: kept.pdf, sha256: kept.sha256 }
    },
  }
}
