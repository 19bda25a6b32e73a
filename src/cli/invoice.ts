// `invoices` and `invoice NUMBER [--out FILE]`: the issued invoices (docs/deals.md, "Invoices"), each PDF exactly as
// it was issued (drawn once, then the same bytes; its SHA-256 printed to compare).
import fs from 'node:fs'
import path from 'node:path'
import { jsonText, visible } from '../server/lib/escape.ts'
import { invoiceFile } from '../server/invoice/files.ts'
import { InvoiceHashMismatchError, type Store } from '../server/store/types.ts'
import { table, time } from './format.ts'

interface Context {
  store: Store
  print: (text: string) => void
  usage: (message: string) => Error
}

/** `invoices [--json]`: every invoice, newest first. */
export async function runInvoiceList(values: { json?: boolean | undefined }, { store, print }: Context) {
  const invoices = await store.listInvoices()
  if (values.json) return print(jsonText(invoices))
  if (invoices.length === 0) return print('No invoices.')
  print(
    table(
      ['Number', 'Kind', 'Deal', 'Issued', 'E-Rechnung', 'SHA-256'],
      invoices.map((invoice) => [
        String(invoice.number),
        invoice.kind,
        invoice.dealId === null ? '-' : String(invoice.dealId),
        time(invoice.issuedAt),
        invoice.eInvoice ? 'Factur-X' : '-',
        invoice.sha256 ?? '(not drawn yet)',
      ]),
    ),
  )
}

/**
 * `invoice NUMBER [--out FILE]`: the PDF into FILE, or into ./RE-<number>.pdf; an existing file is never overwritten.
 * Exit 1, nothing written, when the stored bytes are not those of the invoice's hash.
 */
export async function runInvoice(
  args: string[],
  values: { out?: string | undefined },
  { store, print, printError, usage }: Context & { printError: (text: string) => void },
): Promise<number> {
  const match = /^(?:RE-)?0*(\d{1,15})$/i.exec(args[0] ?? '')
  if (!match) throw usage(`invoice needs an invoice number (see invoices)${args[0] ? `, not "${args[0]}"` : ''}`)
  const number = Number(match[1])
  const listed = (await store.listInvoices()).find((invoice) => invoice.number === number)
  let file
  try {
    file = listed && (await invoiceFile(store, listed.id))
  } catch (error) {
    if (!(error instanceof InvoiceHashMismatchError)) throw error
    printError(`domain-lander: ${error.message}`)
    return 1
  }
  if (!file) throw usage(`there is no invoice ${number} (see invoices)`)
  const out = path.resolve(values.out ?? file.filename)
  try {
    fs.writeFileSync(out, file.pdf, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw usage(`${visible(out)} exists already: choose another --out`)
    throw error
  }
  print(`${file.data.number} written to ${visible(out)} (${file.pdf.length} bytes, SHA-256 ${file.sha256})`)
  return 0
}
