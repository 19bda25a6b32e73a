// The tables invoices and invoice_numbers (decision 038): issued in a deal step's transaction with one gapless number
// for every process and instance, their PDF kept once drawn and never changed. Plain functions over the store's
// Kysely or a unit of work's transaction (decision 060).
import { createHash } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { DealState } from '../../../shared/deal-api.ts'
import { InvoiceHashMismatchError } from '../errors.ts'
import type { Database } from '../schema.ts'
import type { Q, Trx } from './db.ts'

/** The states in which a deal has been paid: only these are invoiced (decision 038). */
export const PAID_STATES = ['paid', 'transferred', 'completed'] as const

/** One seller per installation (config.ts, SELLER_*): one sequence. */
const SELLER = 'seller'

/**
 * The next number: the counter row updated (or made) in the caller's transaction. Another transaction wanting a
 * number waits for this one's row lock (PostgreSQL) or write lock (SQLite) and sees its result: a rolled-back
 * transaction gives its number back, a committed one has used it. No gaps, no duplicates.
 */
async function nextNumber(trx: Trx): Promise<number> {
  const row = await trx
    .insertInto('invoice_numbers')
    .values({ seller: SELLER, last: 1 })
    .onConflict((oc) => oc.column('seller').doUpdateSet((eb) => ({ last: eb('invoice_numbers.last', '+', 1) })))
    .returning('last')
    .executeTakeFirstOrThrow()
  return Number(row.last)
}

/** The deal's Anzahlungsrechnungen that no Stornorechnung cancels, in the order of their numbers. */
const openAdvances = (trx: Trx, dealId: number) =>
  trx
    .selectFrom('invoices as a')
    .select(['a.id', 'a.advance_rate', 'a.data', 'a.e_invoice'])
    .where('a.deal_id', '=', dealId)
    .where('a.kind', '=', 'invoice')
    .where('a.advance_rate', 'is not', null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('invoices as c').select('c.id').whereRef('c.cancels_id', '=', 'a.id'))))
    .orderBy('a.number')
    .execute()

const insertInvoice = async (
  trx: Trx,
  row: {
    number: number
    kind: 'invoice' | 'cancellation'
    dealId: number
    cancelsId: number | null
    advanceRate: number | null
    replyId: number | null
    now: number
    values: { data: string; eInvoice: boolean }
  },
) => {
  const { id } = await trx
    .insertInto('invoices')
    .values({
      number: row.number,
      kind: row.kind,
      deal_id: row.dealId,
      cancels_id: row.cancelsId,
      advance_rate: row.advanceRate,
      reply_id: row.replyId,
      issued_at: row.now,
      data: row.values.data,
      e_invoice: row.values.eInvoice ? 1 : 0,
      pdf: null,
      sha256: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(id)
}

/**
 * In the deal step's transaction, after its mail (the PDF goes with `replyId`). The invoice over the whole price gets
 * the deal's Anzahlungsrechnungen to deduct (decision 046); a cancellation cancels every invoice of the deal not yet
 * cancelled, each with a Stornorechnung of its own. Returns the (first) new invoice's id, or null.
 */
export async function issueInvoiceIn(trx: Trx, dealId: number, issue: InvoiceIssue, replyId: number | null, now: number): Promise<number | null> {
  if (issue.kind === 'invoice') {
    // A deal is invoiced once (a second "paid" cannot happen: the state moved on; this guards a retried step).
    const existing = await trx
      .selectFrom('invoices')
      .select('id')
      .where('deal_id', '=', dealId)
      .where('kind', '=', 'invoice')
      .where('advance_rate', 'is', null)
      .executeTakeFirst()
    if (existing) return null
    const advances: IssuedAdvance[] = (await openAdvances(trx, dealId)).map((row) => ({ rate: Number(row.advance_rate), data: row.data }))
    const number = await nextNumber(trx)
    return insertInvoice(trx, { number, kind: 'invoice', dealId, cancelsId: null, advanceRate: null, replyId, now, values: issue.build(number, advances) })
  }
  const open = await trx
    .selectFrom('invoices as a')
    .select(['a.id', 'a.advance_rate', 'a.data', 'a.e_invoice'])
    .where('a.deal_id', '=', dealId)
    .where('a.kind', '=', 'invoice')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('invoices as c').select('c.id').whereRef('c.cancels_id', '=', 'a.id'))))
    .orderBy('a.number')
    .execute()
  let first: number | null = null
  for (const original of open) {
    const number = await nextNumber(trx)
    const values = issue.build(number, { data: original.data, eInvoice: Number(original.e_invoice) === 1 })
    const advanceRate = original.advance_rate === null ? null : Number(original.advance_rate)
    const id = await insertInvoice(trx, { number, kind: 'cancellation', dealId, cancelsId: Number(original.id), advanceRate, replyId, now, values })
    first ??= id
  }
  return first
}

/**
 * The Anzahlungsrechnungen of a plan's rates that are received and have none (decision 046), in the step's
 * transaction: normally the rate just received; also any received while no address or no seller was known.
 */
export async function issueAdvancesIn(trx: Trx, dealId: number, issue: AdvanceIssue, replyId: number | null, now: number): Promise<number[]> {
  const rates = await trx
    .selectFrom('deal_rates as r')
    .select(['r.number', 'r.amount', 'r.paid_at'])
    .where('r.deal_id', '=', dealId)
    .where('r.paid_at', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('invoices as a')
            .select('a.id')
            .where('a.deal_id', '=', dealId)
            .where('a.kind', '=', 'invoice')
            .whereRef('a.advance_rate', '=', 'r.number'),
        ),
      ),
    )
    .orderBy('r.paid_at')
    .orderBy('r.number')
    .execute()
  const ids: number[] = []
  for (const rate of rates) {
    const number = await nextNumber(trx)
    const values = issue.build(number, { number: Number(rate.number), amount: Number(rate.amount), paidAt: Number(rate.paid_at) })
    ids.push(await insertInvoice(trx, { number, kind: 'invoice', dealId, cancelsId: null, advanceRate: Number(rate.number), replyId, now, values }))
  }
  return ids
}

const LISTING = ['id', 'number', 'kind', 'advance_rate', 'deal_id', 'issued_at', 'e_invoice', 'sha256'] as const

const toListing = (row: Pick<Selectable<Database['invoices']>, (typeof LISTING)[number]>): InvoiceListing => ({
  id: Number(row.id),
  number: Number(row.number),
  kind: row.kind === 'invoice' && row.advance_rate !== null ? 'advance' : row.kind,
  advanceRate: row.advance_rate === null ? null : Number(row.advance_rate),
  dealId: row.deal_id === null ? null : Number(row.deal_id),
  issuedAt: Number(row.issued_at),
  eInvoice: Number(row.e_invoice) === 1,
  sha256: row.sha256,
})

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * The one read of an invoice's bytes, so no caller can skip it: bytes whose SHA-256 is not the one stored with them
 * (swapped or changed in the database or a restored file) are refused, as are bytes without a hash or a hash
 * without bytes. An invoice must never go out as another's, nor under another's hash.
 */
function checkedPdf(number: number, pdf: Uint8Array | null, sha256: string | null): Buffer | null {
  if (pdf === null && sha256 === null) return null
  if (pdf === null) throw new InvoiceHashMismatchError(number, 'its SHA-256 is stored but its PDF is gone')
  if (sha256 === null) throw new InvoiceHashMismatchError(number, 'its PDF is stored without a SHA-256')
  const actual = sha256Of(pdf)
  if (actual !== sha256) throw new InvoiceHashMismatchError(number, `its stored PDF has the SHA-256 ${actual}, not the stored ${sha256}`)
  return Buffer.from(pdf)
}

/**
 * An invoice issued with a step of a deal, in the step's transaction. `build` gets the next number of the one gapless
 * sequence (and, for a Stornorechnung, the invoice it cancels) and returns the frozen data; the number is taken only
 * when a row is inserted with it.
 */
export type InvoiceIssue =
  | { kind: 'invoice'; build(sequence: number, advances: readonly IssuedAdvance[]): { data: string; eInvoice: boolean } }
  | { kind: 'cancellation'; build(sequence: number, original: { data: string; eInvoice: boolean }): { data: string; eInvoice: boolean } }

/**
 * The Anzahlungsrechnungen of an instalment plan (decision 046), issued in a step's transaction for every rate that is
 * received and has none yet (normally the one just received): `build` gets the next number and the rate.
 */
export interface AdvanceIssue {
  build(sequence: number, rate: { number: number; amount: number; paidAt: number }): { data: string; eInvoice: boolean }
}

/** An Anzahlungsrechnung of the deal that is not cancelled, as the final invoice deducts it (its frozen data). */
interface IssuedAdvance {
  rate: number
  data: string
}

export interface InvoiceListing {
  id: number
  /** The gapless sequence number. */
  number: number
  /** `advance`: an Anzahlungsrechnung (decision 046). */
  kind: 'invoice' | 'advance' | 'cancellation'
  /** The rate an Anzahlungsrechnung (or its Stornorechnung) is for; null otherwise. */
  advanceRate: number | null
  dealId: number | null
  issuedAt: number
  eInvoice: boolean
  /** Null until the PDF is first drawn. */
  sha256: string | null
}

export interface StoredInvoice extends InvoiceListing {
  cancelsId: number | null
  /** The frozen data as issued (JSON of invoice/document.ts InvoiceData). */
  data: string
  pdf: Buffer | null
}

/** The buyer's own invoice address on a negotiated deal's page: kept only while nothing is invoiced yet. */
export type KeepAddressResult = 'done' | 'not-found' | 'checkout' | 'cancelled' | 'invoiced'

/** The owner's "Rechnung ausstellen" for a deal marked paid without one (the address came later). */
export type LateInvoiceResult =
  { status: 'done'; invoiceId: number } | { status: 'not-found' } | { status: 'wrong-state'; current: DealState } | { status: 'invoiced' }

export async function getInvoice(q: Q, id: number): Promise<StoredInvoice | null> {
  const row = await q.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return null
  return {
    ...toListing(row),
    cancelsId: row.cancels_id === null ? null : Number(row.cancels_id),
    data: row.data,
    pdf: checkedPdf(Number(row.number), row.pdf, row.sha256),
  }
}

/** A deal's invoices, oldest first. */
export async function dealInvoices(q: Q, dealId: number): Promise<InvoiceListing[]> {
  const rows = await q.selectFrom('invoices').select(LISTING).where('deal_id', '=', dealId).orderBy('number').execute()
  return rows.map(toListing)
}

/** Every invoice, newest first. */
export async function listInvoices(q: Q): Promise<InvoiceListing[]> {
  const rows = await q.selectFrom('invoices').select(LISTING).orderBy('number', 'desc').execute()
  return rows.map(toListing)
}

/** The invoices that go with the mail of this reply. */
export async function replyInvoices(q: Q, replyId: number): Promise<number[]> {
  const rows = await q.selectFrom('invoices').select('id').where('reply_id', '=', replyId).orderBy('number').execute()
  return rows.map((row) => Number(row.id))
}

/** Whether the deal has its invoice (over the whole price or an advance one): an address on it never changes. */
export const isInvoiced = async (q: Q, dealId: number) =>
  (await q.selectFrom('invoices').select('id').where('deal_id', '=', dealId).where('kind', '=', 'invoice').executeTakeFirst()) !== undefined

/**
 * Erases the invoices issued before `issuedBefore` (their retention period over, decision 038); an invoice whose
 * Stornorechnung is still kept stays with it. Returns the erased numbers.
 */
export async function eraseInvoicesIssuedBefore(trx: Trx, issuedBefore: number): Promise<number[]> {
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
}

/** Keeps the PDF drawn for an invoice unless one is kept already (another process drew it first). */
export async function keepInvoicePdf(q: Q, id: number, pdf: Buffer, sha256: string): Promise<void> {
  // A wrong hash kept with the bytes would lock the invoice away for good (getInvoice refuses it ever after).
  if (sha256Of(pdf) !== sha256) throw new Error(`invoice id ${id}: the SHA-256 given is not the PDF's`)
  await q.updateTable('invoices').set({ pdf, sha256 }).where('id', '=', id).where('pdf', 'is', null).execute()
}
