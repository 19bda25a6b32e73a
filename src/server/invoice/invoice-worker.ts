// The worker thread that draws one invoice (files.ts starts it): laying out a PDF and making it a Factur-X takes
// about a second of CPU, which on the server's thread every request in the meantime would wait for (decision 038).
import { parentPort, workerData } from 'node:worker_threads'
import type { InvoiceData } from './document.ts'
import { facturXOf } from './e-invoice.ts'
import { renderInvoicePdf } from './pdf.ts'

const { data, eInvoice } = workerData as { data: InvoiceData; eInvoice: boolean }
const drawn = await renderInvoicePdf(data)
const pdf = eInvoice ? await facturXOf(data, drawn) : drawn
parentPort!.postMessage(pdf)
