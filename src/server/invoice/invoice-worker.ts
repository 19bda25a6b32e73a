// The worker thread that draws one invoice (files.ts starts it): laying out a PDF and making it a Factur-X takes
// about a second of CPU, which on the server's thread every request in the meantime would wait for (decision 038).
import { parentPort, workerData } from 'node:worker_threads'
import type { InvoiceData } from './document.ts'
import { facturXOf } from './e-invoice.ts'
import { renderInvoicePdf } from './pdf.ts'

const { data, eInvoice } = workerData as { data: InvoiceData; eInvoice: boolean }
// A chain, not a top-level await: one anywhere in the server's build turns off the bundler's chunk optimisation for
// all of it (decision 063). A rejection ends the worker with an error, as a thrown await did.
void renderInvoicePdf(data)
  .then((drawn) => (eInvoice ? facturXOf(data, drawn) : drawn))
  .then((pdf) => parentPort!.postMessage(pdf))
