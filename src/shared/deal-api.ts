// A deal as the console shows it and the answers about deals (docs/deals.md), beside console-api.ts: the states, the
// summary (never its transfer code), its invoices, the sales page. Zod schemas (zod/mini) with their types, as there
// (decision 059).
import * as z from 'zod/mini'

/** When the name moves in a plan of rates: after the last one, or at once. */
export const planTransfer = z.enum(['after-last', 'at-once'])

/** A deal's states (docs/deals.md): awaiting_payment → paid → transferred → completed, or cancelled. */
export type DealState = 'awaiting_payment' | 'paid' | 'transferred' | 'completed' | 'cancelled'
export const DEAL_STATES: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred', 'completed', 'cancelled']
export const DEAL_STATE_LABEL: Record<DealState, string> = {
  awaiting_payment: 'Wartet auf Zahlung',
  paid: 'Bezahlt',
  transferred: 'Übertragen',
  completed: 'Abgeschlossen',
  cancelled: 'Abgebrochen',
}

/** A deal as the console shows it (docs/deals.md): never its transfer code. */
export const dealSummarySchema = z.object({
  id: z.number(),
  inquiryId: z.number(),
  /** As people read it. */
  domain: z.string(),
  status: z.enum(DEAL_STATES),
  statusLabel: z.string(),
  amount: z.string(),
  reference: z.string(),
  buyer: z.object({ name: z.string(), email: z.string(), language: z.string() }),
  createdAt: z.number(),
  /** The deadline of the step it waits for (payment, transfer, completing by itself), or null when it is over. */
  nextDeadline: z.nullable(z.number()),
  nextDeadlineLabel: z.nullable(z.string()),
  overdue: z.boolean(),
  hasTransferCode: z.boolean(),
  transferNote: z.nullable(z.string()),
  cancelReason: z.nullable(z.string()),
  cancelledBy: z.nullable(z.enum(['owner', 'buyer'])),
  /** The buyer's page, when this server can open its link (the deal key). */
  pageUrl: z.nullable(z.string()),
  /** The owner's choice with "Übertragen": tell the other inquirers when it completes (decision 037); null: not chosen. */
  notifyOthers: z.nullable(z.boolean()),
  /** In the answer to a completing step: how many other inquirers were told "bereits verkauft". */
  soldNotices: z.optional(z.number()),
  /** An instalment plan (decision 042): when the name moves, and each payment as the owner reads it. */
  plan: z.optional(
    z.object({
      transfer: planTransfer,
      rates: z.array(
        z.object({
          number: z.number(),
          label: z.string(),
          amount: z.string(),
          dueAt: z.number(),
          reference: z.string(),
          paidAt: z.nullable(z.number()),
          paidBy: z.nullable(z.enum(['owner', 'bank'])),
          overdue: z.boolean(),
          waitedAt: z.nullable(z.number()),
        }),
      ),
    }),
  ),
})
export type DealSummary = z.infer<typeof dealSummarySchema>

/** GET /api/inquiries/:id/deal: the inquiry's open deal, or null. */
export const openDealSchema = z.object({ deal: z.nullable(dealSummarySchema) })

/** An issued invoice or Stornorechnung, as the console lists it. */
const invoiceEntrySchema = z.object({
  id: z.number(),
  number: z.number(),
  /** `advance`: an Anzahlungsrechnung of an instalment plan (decision 046). */
  kind: z.enum(['invoice', 'advance', 'cancellation']),
  /** The rate an Anzahlungsrechnung (or its Stornorechnung) is for, 0 the down payment; null otherwise. */
  advanceRate: z.nullable(z.number()),
  dealId: z.nullable(z.number()),
  issuedAt: z.number(),
  eInvoice: z.boolean(),
  sha256: z.nullable(z.string()),
})

/** GET /api/deals/:id/invoices: a deal's invoices, and whether the owner may issue the missing one now. */
export const dealInvoicesSchema = z.object({
  invoices: z.array(invoiceEntrySchema),
  /** Paid (or further), invoices on, no invoice yet, the buyer's address known: "Rechnung ausstellen". */
  canIssue: z.boolean(),
  /** Paid with no invoice because the buyer of a negotiated deal has not given an address yet. */
  missingAddress: z.boolean(),
})
export type DealInvoices = z.infer<typeof dealInvoicesSchema>

/** GET /verkaeufe: every deal, the next deadline first. */
export const salesPageSchema = z.object({
  deals: z.array(dealSummarySchema),
  /** Each deal's invoices by the deal's id (JSON keys are strings), while invoices are on (decision 038). */
  invoices: z.optional(z.record(z.string(), dealInvoicesSchema)),
})
export type SalesPage = z.infer<typeof salesPageSchema>
