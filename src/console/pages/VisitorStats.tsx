// The Übersicht's visitor statistics (decision 049): the portfolio's path from visit to deal, its days, sources and
// languages, hints with the figures behind them, and a sortable table per name with a CSV download.
import { useState } from 'react'
import { sourceLabel, STATS_CSV_PATH, type KeyCount, type MinorAmount, type NameStats, type VisitorStats } from '../../shared/stats-api.ts'
import { formatWhole, hintText } from '../../shared/stats-texts.ts'
import { formatNumber } from '../format.ts'
import { DailyVisitsChart, FunnelChart } from './StatsCharts.tsx'

type SortKey = 'domain' | 'visitors' | 'visits' | 'botsFiltered' | 'formTurns' | 'inquiries' | 'offers' | 'highestShare' | 'deals'

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'domain', label: 'Domain' },
  { key: 'visitors', label: 'Besucher' },
  { key: 'visits', label: 'Besuche' },
  { key: 'botsFiltered', label: 'Bots gefiltert' },
  { key: 'formTurns', label: 'Zum Formular' },
  { key: 'inquiries', label: 'Anfragen' },
  { key: 'offers', label: 'Angebote' },
  { key: 'highestShare', label: 'Höchstes / Preis' },
  { key: 'deals', label: 'Abschlüsse' },
]

/** Deals' money, minor units: exact, divided only for display. */
function formatMinor(value: MinorAmount): string {
  const format = new Intl.NumberFormat('de-DE', { style: 'currency', currency: value.currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  return format.format(value.amount / 10 ** digits)
}

const formatRevenue = (revenue: MinorAmount[]) => (revenue.length === 0 ? '–' : revenue.map(formatMinor).join(', '))

export function sortNames(names: NameStats[], key: SortKey, descending: boolean): NameStats[] {
  const sign = descending ? -1 : 1
  return [...names].sort((a, b) => {
    if (key === 'domain') return sign * a.domain.localeCompare(b.domain, 'de')
    if (key === 'highestShare') {
      // Names without a share come last either way.
      if (a.highestShare === null || b.highestShare === null) return (a.highestShare === null ? 1 : 0) - (b.highestShare === null ? 1 : 0)
      return sign * (a.highestShare - b.highestShare)
    }
    return sign * (a[key] - b[key]) || b.visitors - a.visitors || a.domain.localeCompare(b.domain, 'de')
  })
}

function KeyTable({ caption, column, rows, label }: { caption: string; column: string; rows: KeyCount[]; label: (key: string) => string }) {
  if (rows.length === 0) return null
  return (
    <table className="list stats-keys">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{column}</th>
          <th scope="col">Besuche</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{label(row.key)}</th>
            <td>{formatNumber(row.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const languageLabel = (key: string) => (key === 'other' ? 'Weitere' : key)

export function VisitorStatsSection({ stats }: { stats: VisitorStats }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'visitors', descending: true })
  const rows = sortNames(stats.names, sort.key, sort.descending)
  const { total } = stats
  const sortBy = (key: SortKey) =>
    setSort((current) => (current.key === key ? { key, descending: !current.descending } : { key, descending: key !== 'domain' }))
  const figures: [string, string][] = [
    ['Besucher', formatNumber(total.visitors)],
    ['Besuche', formatNumber(total.visits)],
    ['Bots gefiltert', formatNumber(total.botsFiltered)],
    ['Zum Formular', formatNumber(total.formTurns)],
    ['Anfragen', formatNumber(total.inquiries)],
    ['Angebote', formatNumber(total.offers)],
    ['Abschlüsse', formatNumber(total.deals)],
    ['Umsatz', formatRevenue(total.revenue)],
  ]
  return (
    <section aria-labelledby="visitor-stats" className="visitor-stats">
      <h2 id="visitor-stats">Besucher und Weg zum Abschluss</h2>
      <dl className="stats-figures">
        {figures.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {stats.hints.length > 0 && (
        <>
          <h3>Hinweise</h3>
          <ul className="stats-hints">
            {stats.hints.map((hint) => (
              <li key={`${hint.kind} ${hint.domain}`}>{hintText(hint)}</li>
            ))}
          </ul>
        </>
      )}
      <div className="stats-charts">
        <FunnelChart counts={total} />
        <DailyVisitsChart stats={stats} />
      </div>
      <div className="stats-key-tables">
        <KeyTable caption="Quellen" column="Quelle" rows={total.sources} label={sourceLabel} />
        <KeyTable caption="Sprachen" column="Sprache" rows={total.languages} label={languageLabel} />
      </div>
      <h3>Je Domain</h3>
      <p className="stats-downloads">
        <a href={`${STATS_CSV_PATH}?days=${stats.days}`} download>
          Als CSV herunterladen
        </a>{' '}
        <a href={`${STATS_CSV_PATH}?days=${stats.days}&sep=%3B`} download>
          CSV für Excel (Semikolon)
        </a>
      </p>
      {rows.length === 0 ? (
        <p className="empty">In diesem Zeitraum keine Besucher.</p>
      ) : (
        <div className="stats-table-wrap">
          <table className="list stats-names">
            <caption className="visually-hidden">Besucher und Weg zum Abschluss je Domain, {stats.days} Tage</caption>
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column.key} scope="col" aria-sort={sort.key === column.key ? (sort.descending ? 'descending' : 'ascending') : undefined}>
                    <button type="button" className="sort" onClick={() => sortBy(column.key)}>
                      {column.label}
                      <span aria-hidden="true" className="sort-mark">
                        {sort.key === column.key ? (sort.descending ? ' ▼' : ' ▲') : ''}
                      </span>
                    </button>
                  </th>
                ))}
                <th scope="col">Umsatz</th>
                <th scope="col">Häufigste Quelle</th>
                <th scope="col">Sprache</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((name) => (
                <tr key={name.domainAscii}>
                  <th scope="row" data-label="Domain">
                    {name.domain}
                  </th>
                  <td data-label="Besucher">{formatNumber(name.visitors)}</td>
                  <td data-label="Besuche">{formatNumber(name.visits)}</td>
                  <td data-label="Bots gefiltert">{formatNumber(name.botsFiltered)}</td>
                  <td data-label="Zum Formular">{formatNumber(name.formTurns)}</td>
                  <td data-label="Anfragen">{formatNumber(name.inquiries)}</td>
                  <td data-label="Angebote">
                    {formatNumber(name.offers)}
                    {name.highestOffer && name.medianOffer && (
                      <span className="muted">
                        {' '}
                        (höchstes {formatWhole(name.highestOffer)}, Median {formatWhole(name.medianOffer)})
                      </span>
                    )}
                  </td>
                  <td data-label="Höchstes / Preis">
                    {name.highestShare === null ? '–' : `${formatNumber(name.highestShare)} % von ${formatWhole(name.askingPrice!)}`}
                  </td>
                  <td data-label="Abschlüsse">{formatNumber(name.deals)}</td>
                  <td data-label="Umsatz">{formatRevenue(name.revenue)}</td>
                  <td data-label="Häufigste Quelle">{name.sources[0] ? sourceLabel(name.sources[0].key) : '–'}</td>
                  <td data-label="Sprache">{name.languages[0] ? languageLabel(name.languages[0].key) : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
