// An invoice's PDF: drawn once from its frozen data in a worker thread, then the stored bytes forever (decision 038).
// Whoever needs it first (the mail, a download, the CLI) draws and keeps it; a second process drawing at the same
// moment gets the bytes the first one kept.
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { StoredInvoice, Store } from '../store/types.ts'
import type { InvoiceData } from './document.ts'

const WORKER = fileURLToPath(
  import.meta.url.endsWith('.ts') ? new URL('./invoice-worker.ts', import.meta.url) : new URL('../invoice-worker.js', import.meta.url),
)
/** A worker's heap: the PDF libraries and one invoice; a runaway drawing ends the worker, not the server. */
const WORKER_HEAP_MIB = 256

/** Draws one invoice in a worker thread of its own (invoices are rare: no thread is kept waiting for the next). */
function drawInWorker(data: InvoiceData, eInvoice: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { data, eInvoice }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB } })
    let done = false
    worker.once('message', (pdf: Uint8Array) => {
      done = true
      resolve(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength))
      void worker.terminate()
    })
    worker.once('error', (error) => {
      done = true
      reject(error)
    })
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`the invoice worker exited with ${code} before drawing`))
    })
  })
}

export interface InvoiceFile {
  invoice: StoredInvoice
  data: InvoiceData
  pdf: Buffer
  sha256: string
  /** "RE-00042.pdf": from the number only, never from anything typed. */
  filename: string
}

export async function invoiceFile(store: Pick<Store, 'getInvoice' | 'keepInvoicePdf'>, id: number): Promise<InvoiceFile | null> {
  const invoice = await store.getInvoice(id)
  if (!invoice) return null
  const data = JSON.parse(invoice.data) as InvoiceData
  const filename = `${data.number}.pdf`
  if (invoice.pdf && invoice.sha256) return { invoice, data, pdf: invoice.pdf, sha256: invoice.sha256, filename }
  // In a thread of its own, which loads the PDF libraries: they cost the server's start and its requests nothing.
  const pdf = await drawInWorker(data, invoice.eInvoice)
  const kept = await store.keepInvoicePdf(id, pdf, createHash('sha256').update(pdf).digest('hex'))
  return { invoice: { ...invoice, pdf: kept.pdf, sha256: kept.sha256 }, data, ...kept, filename }
}

/** The PDFs that go with a reply's mail, as nodemailer attachments. */
export async function invoiceAttachments(
  store: Pick<Store, 'replyInvoices' | 'getInvoice' | 'keepInvoicePdf'>,
  replyId: number,
): Promise<{ filename: string; content: Buffer; contentType: string }[]> {
  const files = await Promise.all((await store.replyInvoices(replyId)).map((id) => invoiceFile(store, id)))
  return files.filter((file) => file !== null).map((file) => ({ filename: file.filename, content: file.pdf, contentType: 'application/pdf' }))
}
