// The store's invoice methods (decision 038) for the callers that still ask the Store: each one query or one unit of
// work over the invoices table's functions (tables/invoices.ts).
import { writer, type DialectSpecifics } from './dialect.ts'
import type { Db } from './tables/db.ts'
import * as invoices from './tables/invoices.ts'
import type { InvoiceStore } from './types.ts'
import { unitOfWork, type Work } from './unit-of-work.ts'

/** The deal's row, locked until the work ends: a step on it waits. */
const lockedDeal = (work: Work, dealId: number) =>
  work
    .forUpdate(
      work.trx
        .selectFrom('deals as d')
        .innerJoin('inquiries as i', 'i.id', 'd.inquiry_id')
        .select(['d.id', 'd.status', 'd.inquiry_id', 'i.kind'])
        .where('d.id', '=', dealId),
    )
    .executeTakeFirst()

export function invoiceStore(db: Db, dialect: DialectSpecifics): InvoiceStore {
  const { guard } = dialect
  const transact = unitOfWork(db, dialect)
  const write = writer(dialect)
  return {
    getInvoice: (id) => guard(() => invoices.getInvoice(db, id)),
    keepInvoiceAddress(dealId, address) {
      return transact(async (work) => {
        const deal = await lockedDeal(work, dealId)
        if (!deal) return 'not-found' as const
        if (deal.kind === 'checkout') return 'checkout' as const
        if (deal.status === 'cancelled') return 'cancelled' as const
        if (await invoices.isInvoiced(work.trx, dealId)) return 'invoiced' as const
        await work.trx
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
      })
    },
    issueLateInvoice(dealId, issue, now) {
      return transact(async (work) => {
        const deal = await lockedDeal(work, dealId)
        if (!deal) return { status: 'not-found' } as const
        if (!(invoices.PAID_STATES as readonly string[]).includes(deal.status)) return { status: 'wrong-state', current: deal.status } as const
        const invoiceId = await invoices.issueInvoiceIn(work.trx, dealId, issue, null, now)
        return invoiceId === null ? ({ status: 'invoiced' } as const) : ({ status: 'done', invoiceId } as const)
      })
    },
    dealInvoices: (dealId) => guard(() => invoices.dealInvoices(db, dealId)),
    listInvoices: () => guard(() => invoices.listInvoices(db)),
    replyInvoices: (replyId) => guard(() => invoices.replyInvoices(db, replyId)),
    eraseInvoicesIssuedBefore: (issuedBefore) => transact((work) => invoices.eraseInvoicesIssuedBefore(work.trx, issuedBefore)),
    async keepInvoicePdf(id, pdf, sha256) {
      await write(() => invoices.keepInvoicePdf(db, id, pdf, sha256))
      const kept = await guard(() => invoices.getInvoice(db, id))
      if (!kept?.pdf || !kept.sha256) throw new Error(`invoice ${id} does not exist`)
      return { pdf: kept.pdf, sha256: kept.sha256 }
    },
  }
}
