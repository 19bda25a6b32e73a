// `payments import FILE [--dry-run] [--json]`: a bank statement (CAMT.053) matched against the deals, as the
// console's "Kontoauszug importieren" does it (docs/deals.md, decision 040). Without --dry-run the matched payments
// are recorded and the deals they pay are marked paid; the buyers' mails are queued and the running server sends
// them. Everything from the file (names, remittance) is printed as text: escapes, not terminal commands.
import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '../server/config.ts'
import { formatMinor } from '../server/lib/money.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { CAMT_MAX_BYTES, CamtError, camtProblemText } from '../server/payments/camt.ts'
import { applyStatement, previewStatement } from '../server/payments/statement.ts'
import { domainsConfigOf } from '../server/sites/domains-document.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import type { Store } from '../server/store/types.ts'
import { BANK_CLASS_LABEL, BANK_REASON_TEXT, type BankStatementPreview, type BankStatementResult } from '../shared/payments-api.ts'
import { table } from './format.ts'

export interface PaymentsValues {
  'dry-run'?: boolean | undefined
  json?: boolean | undefined
}

interface Context {
  store: Store
  config: Config
  print: (text: string) => void
  printError: (text: string) => void
  usage: (message: string) => Error
}

const money = (amount: number | null, currency: string | null) => (amount === null || currency === null ? '' : formatMinor(amount, currency, 'en'))

function report(preview: BankStatementPreview | BankStatementResult, dryRun: boolean): string {
  const { counts } = preview
  const lines: string[] = [
    `camt.053.001.${String(preview.version).padStart(2, '0')}: ${preview.statements} statement(s); ${counts.matched} matched, ${counts.partial} partly paid, ${counts.overpaid} overpaid, ` +
      `${counts.unmatched} unmatched, ${counts.applied} already applied, ${counts.return} returns (${counts.ignored} debits and unbooked entries left out)`,
  ]
  if (preview.items.length > 0) {
    lines.push(
      '',
      table(
        ['Class', 'Booked', 'Amount', 'Deal', 'From', 'Remittance', 'Note'],
        preview.items.map((item) => [
          BANK_CLASS_LABEL[item.class].en,
          item.bookingDate,
          `${item.direction === 'debit' ? '-' : ''}${money(item.amount, item.currency)}`,
          item.reference === null ? '' : `${item.dealId} ${item.reference}`,
          item.name,
          item.text,
          item.reason === undefined ? '' : BANK_REASON_TEXT[item.reason].en,
        ]),
        60,
      ),
    )
    if (!preview.listedAll) lines.push(`(the first ${preview.items.length} entries)`)
  }
  if (preview.deals.length > 0) {
    lines.push(
      '',
      table(
        ['Deal', 'Reference', 'Domain', 'Amount', 'Received', 'State', ''],
        preview.deals.map((deal) => [
          deal.dealId,
          deal.reference,
          deal.domain,
          money(deal.amount, deal.currency),
          money(deal.receivedAfter, deal.currency),
          deal.status,
          deal.marksPaid
            ? dryRun
              ? 'would be marked paid'
              : 'marked paid'
            : deal.status === 'awaiting_payment'
              ? 'still open'
              : deal.status !== 'cancelled' && deal.receivedAfter < deal.receivedBefore
                ? 'WARNING: payment returned, but the deal counts as paid: check it'
                : '',
        ]),
        70,
      ),
    )
  }
  if ('applied' in preview) {
    lines.push(
      '',
      `${preview.recorded} booking(s) recorded; ${preview.paid.length} deal(s) marked paid${preview.paid.length ? ` (${preview.paid.map((deal) => deal.reference).join(', ')}): the buyers' mails are queued and the running server sends them within seconds` : ''}.`,
    )
  } else {
    lines.push('', 'Dry run: nothing recorded, no deal marked paid.')
  }
  return lines.join('\n')
}

/** `payments import FILE`; returns the exit code (1: the file cannot be read as a statement, nothing applied). */
export async function runPayments(args: string[], values: PaymentsValues, context: Context): Promise<number> {
  const { store, config, print, printError, usage } = context
  const [step, file, ...rest] = args
  if (step !== 'import') throw usage(`payments takes import${step ? `, not "${visible(step)}"` : ''} (see the command list)`)
  if (file === undefined || rest.length > 0) throw usage('payments import needs one FILE (a CAMT.053 statement)')
  const where = path.resolve(file)
  let bytes: Buffer
  try {
    // Not more than the limit (and one byte to tell) is read, however large the file is.
    const handle = fs.openSync(where, 'r')
    try {
      bytes = Buffer.alloc(CAMT_MAX_BYTES + 1)
      bytes = bytes.subarray(0, fs.readSync(handle, bytes, 0, bytes.length, 0))
    } finally {
      fs.closeSync(handle)
    }
  } catch (error) {
    throw usage(`${visible(file)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const dryRun = values['dry-run'] === true
  try {
    const result = dryRun
      ? await previewStatement(store, bytes)
      : await applyStatement({ store, config, domains: config.domainsFile ? readDomainsFile(config.domainsFile) : domainsConfigOf({}) }, bytes, Date.now())
    print(values.json ? jsonText(result) : report(result, dryRun))
    return 0
  } catch (error) {
    if (!(error instanceof CamtError)) throw error
    printError(`domain-lander: ${visible(file)}: ${visible(camtProblemText(error.problem, 'en'))}; nothing was applied`)
    return 1
  }
}
