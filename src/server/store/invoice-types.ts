// The store's part for invoices (store/invoice.ts; decision 038).

/**
 * An invoice issued with a step of a deal, in the step's transaction. `build` gets the next number of the one gapless
 * sequence (and, for a Stornorechnung, the invoice it cancels) and returns the frozen data; the number is taken only
 * when a row is inserted with it.
 */
export type InvoiceIssue =
  | { kind: 'invoice'; build(sequence: number): { data: string; eInvoice: boolean } }
  | { kind: 'cancellation'; build(sequence: number, original: { data: string; eInvoice: boolean }): { data: string; eInvoice: boolean } }

export interface InvoiceListing {
  id: number
  /** The gapless sequence number. */
  number: number
  kind: 'invoice' | 'cancellation'
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

export interface InvoiceStore {
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
}
