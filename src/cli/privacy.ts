// `forget --email ADDRESS` (GDPR Art. 17) and `access --email ADDRESS` (Art. 15): everything stored about one
// person, by their e-mail address in any case.
import { jsonText, visible } from '../server/lib/escape.ts'
import { erasePerson } from '../server/privacy/erase.ts'
import { accessReport, erasedReport, looksLikeAddress } from '../server/privacy/report.ts'
import type { Store } from '../server/store/types.ts'
import { UsageError } from './usage-error.ts'

export const isPrivacyCommand = (command: string | undefined): command is 'forget' | 'access' => command === 'forget' || command === 'access'

export async function runPrivacy(
  command: 'forget' | 'access',
  options: { email?: string | undefined; json?: boolean | undefined },
  store: Store,
  dataDir: string,
  print: (text: string) => void,
  /** INVOICE_RETENTION_YEARS; undefined: kept without an end. */
  invoiceYears?: number,
): Promise<void> {
  const { email } = options
  if (email === undefined) throw new UsageError(`${command} needs --email ADDRESS`)
  if (!looksLikeAddress(email)) throw new UsageError(`--email: "${email}" is not an e-mail address`)
  if (command === 'access') return print(jsonText(accessReport(email, await store.personData(email))))
  const report = erasedReport(await erasePerson(store, dataDir, email))
  if (options.json) return print(jsonText(report))
  if (report.inquiries.length === 0) return print(`Nothing stored about ${visible(email)}.`)
  const ids = report.inquiries.map(({ id }) => id).join(', ')
  return print(
    [
      `Erased everything about ${visible(email)}:`,
      `  ${report.inquiries.length} inquiries (${ids}) on ${report.domains.map((domain) => visible(domain)).join(', ')}`,
      `  ${report.replies.length} replies${report.replies.length ? ` (${report.replies.join(', ')})` : ''}`,
      `  ${report.outboxRows} outbox rows (mail and webhooks)`,
      `  ${report.mailFiles} .eml files in DATA_DIR/mail`,
      ...(report.keptInvoices.length
        ? [
            `Kept ${report.keptInvoices.length} invoice${report.keptInvoices.length === 1 ? '' : 's'} (${report.keptInvoices.join(', ')}) with the buyer's name and address on them: invoices are kept ${invoiceYears === undefined ? 'without an end (INVOICE_RETENTION_YEARS=off)' : `${invoiceYears} years after the end of the year they were issued in`} (§147 Abs. 3 AO, §14b Abs. 1 UStG), which GDPR Art. 17(3)(b) allows.`,
          ]
        : []),
    ].join('\n'),
  )
}
