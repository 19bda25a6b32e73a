// The store's part for invoices (store/invoice.ts; decision 038).
import type { DealState } from '../../shared/deal-api.ts'
import type { InvoiceAddress } from './inquiry-types.ts'

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
export interface IssuedAdvance {
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

export interface InvoiceStore {
  /**
   * Keeps the invoice address of a deal from a negotiation (the checkout's columns of its inquiry), in a transaction
   * that also finds no invoice of the deal: an address on an issued invoice never changes.
   */
  keepInvoiceAddress(dealId: number, address: InvoiceAddress): Promise<KeepAddressResult>
  /** Issues the invoice of a deal that is paid (or further) and has none, without a mail: the buyer's page lists it. */
  issueLateInvoice(dealId: number, issue: Extract<InvoiceIssue, { kind: 'invoice' }>, now: number): Promise<LateInvoiceResult>
  /**
   * The invoice with its PDF, whose bytes are checked against the stored SHA-256 on every read: InvoiceHashMismatchError
   * when they differ (changed or swapped in the database), or one of the two is missing.
   */
  getInvoice(id: number): Promise<StoredInvoice | null>
  /** A deal's invoices, oldest first. */
  dealInvoices(dealId: number): Promise<InvoiceListing[]>
  /** Every invoice, newest first. */
  listInvoices(): Promise<InvoiceListing[]>
  /** The invoices that go with the mail of this reply. */
  replyInvoices(replyId: number): Promise<number[]>
  /**
   * Keeps the PDF drawn for an invoice, unless one is kept already (another process drew it first): an invoice's
   * bytes never change once stored. Returns the bytes and hash that are kept.
   */
  keepInvoicePdf(id: number, pdf: Buffer, sha256: string): Promise<{ pdf: Buffer; sha256: string }>
  /**
   * Erases the invoices issued before `issuedBefore` (their retention period over, decision 038), in one transaction;
   * an invoice whose Stornorechnung is still kept stays with it. Returns the erased numbers.
   */
  eraseInvoicesIssuedBefore(issuedBefore: number): Promise<number[]>
}
