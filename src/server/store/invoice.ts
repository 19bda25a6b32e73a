// Invoices (decision 038): issued in a deal step's transaction with one gapless number for every process and
// instance, their PDF kept once drawn and never changed.
import { createHash } from 'node:crypto'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { AdvanceIssue, InvoiceIssue, InvoiceListing, InvoiceStore, IssuedAdvance, StoredInvoice } from './invoice-types.ts'
import { InvoiceHashMismatchError } from './types.ts'

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

/** The deal's Anzahlungsrechnungen that no Stornorechnung cancels, in the order of their numbers. */
const openAdvances = (trx: Transaction<Database>, dealId: number) =>
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
  trx: Transaction<Database>,
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
export async function issueInvoiceIn(
  trx: Transaction<Database>,
  dealId: number,
  issue: InvoiceIssue,
  replyId: number | null,
  now: number,
): Promise<number | null> {
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
export async function issueAdvancesIn(trx: Transaction<Database>, dealId: number, issue: AdvanceIssue, replyId: number | null, now: number): Promise<number[]> {
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

export function invoiceStore(db: Kysely<Database>, dialect: DialectSpecifics): InvoiceStore {
  const { guard } = dialect
  const write = writer(dialect)
  const getInvoice = async (id: number): Promise<StoredInvoice | null> => {
    const row = await guard(() => db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst())
    if (!row) return null
    return {
      ...toListing(row),
      cancelsId: row.cancels_id === null ? null : Number(row.cancels_id),
      data: row.data,
      pdf: checkedPdf(Number(row.number), row.pdf, row.sha256),
    }
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
            .set({
              buyer_name: address.name,
              buyer_company: address.company,
              buyer_street: address.street,
              buyer_postcode: address.postcode,
              buyer_city: address.city,
              buyer_country: address.country,
              buyer_vat_id: address.vatId,
            })
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
          const cancellations = await trx
            .deleteFrom('invoices')
            .where('kind', '=', 'cancellation')
            .where('issued_at', '<', issuedBefore)
            .returning('number')
            .execute()
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
      // A wrong hash kept with the bytes would lock the invoice away for good (getInvoice refuses it ever after).
      if (sha256Of(pdf) !== sha256) throw new Error(`invoice id ${id}: the SHA-256 given is not the PDF's`)
      await write(() => db.updateTable('invoices').set({ pdf, sha256 }).where('id', '=', id).where('pdf', 'is', null).execute())
      const kept = await getInvoice(id)
      if (!kept?.pdf || !kept.sha256) throw new Error(`invoice ${id} does not exist`)
      return { pdf: kept.pdf, sha256: kept.sha256 }
    },
  }
}
