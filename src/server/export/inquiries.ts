// Inquiries as the owner takes them elsewhere: the CLI's `export` and the console's Export, one set of columns and
// rules for both (CSV cells that cannot start a formula, JSON with every control and bidi character escaped).
import { displayHost } from '../sites/host.ts'
import type { InquiryListing } from '../store/types.ts'
import { csv, type CsvSeparator } from './csv.ts'
import { jsonText } from '../lib/escape.ts'

export function inquiryJson(i: InquiryListing) {
  return {
    id: i.id,
    time: new Date(i.createdAt).toISOString(),
    domain: displayHost(i.domain),
    name: i.name,
    email: i.email,
    message: i.message,
    offer: i.offer?.amount ?? null,
    currency: i.offer?.currency ?? null,
    belowMinimum: i.belowMinimum,
    spam: i.spamReason,
    mail: i.mailStatus,
    language: i.language,
  }
}

// New columns go last: a spreadsheet or script that reads the columns by position keeps working.
const EXPORT_HEADERS = ['id', 'time', 'domain', 'name', 'email', 'message', 'offer', 'currency', 'belowMinimum', 'spam', 'mail', 'language'] as const

export function exportText(inquiries: InquiryListing[], format: 'csv' | 'json', separator: CsvSeparator = ','): string {
  const rows = inquiries.map(inquiryJson)
  return format === 'json'
    ? `${jsonText(rows)}\n`
    : csv(
        [...EXPORT_HEADERS],
        rows.map((r) => EXPORT_HEADERS.map((h) => r[h])),
        separator,
      )
}
