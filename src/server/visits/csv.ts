// The visitor statistics per name as CSV (the console's download, decision 049), with the project's escaping:
// sources and Referer hosts are anybody's choice and end up in the owner's spreadsheet.
import { sourceLabel, type VisitorStats } from '../../shared/stats-api.ts'
import { decimalOf } from '../lib/money.ts'
import { csv, type CsvSeparator } from '../export/csv.ts'

const STATS_CSV_HEADERS = [
  'Domain',
  'Besucher',
  'Besuche',
  'Bots gefiltert',
  'Wiederholt',
  'Zum Formular',
  'Anfragen',
  'Angebote',
  'Höchstes Angebot',
  'Median',
  'Preis',
  'Währung',
  'Höchstes in % vom Preis',
  'Abschlüsse',
  'Umsatz',
  'Häufigste Quelle',
  'Häufigste Sprache',
]

export function statsCsv(stats: VisitorStats, separator: CsvSeparator = ','): string {
  return csv(
    STATS_CSV_HEADERS,
    stats.names.map((name) => [
      name.domain,
      name.visitors,
      name.visits,
      name.botsFiltered,
      name.repeats,
      name.formTurns,
      name.inquiries,
      name.offers,
      name.highestOffer?.amount,
      name.medianOffer?.amount,
      name.askingPrice?.amount,
      (name.highestOffer ?? name.askingPrice)?.currency,
      name.highestShare,
      name.deals,
      // Exact: minor units written as a decimal, one part per currency.
      name.revenue.map((entry) => `${decimalOf(entry.amount, entry.currency)} ${entry.currency}`).join('; ') || null,
      name.sources[0] ? sourceLabel(name.sources[0].key) : null,
      name.languages[0]?.key,
    ]),
    separator,
  )
}
