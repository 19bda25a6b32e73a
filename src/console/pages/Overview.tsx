// Übersicht: per domain views, inquiries, spam and offers for 7 / 30 / 90 days, sortable by any column
// (by default the most interest first: inquiries, then views).
import { useState } from 'react'
import { CONSOLE_PATHS, OVERVIEW_DAYS, type OfferAmount, type Overview, type OverviewDomain } from '../../shared/console-api.ts'
import { formatNumber } from '../format.ts'
import { DailyChart } from './Chart.tsx'
import { DomainHealth } from './DomainHealth.tsx'
import { VisitorStatsSection } from './VisitorStats.tsx'

type SortKey = 'domain' | 'views' | 'inquiries' | 'spam' | 'highestOffer' | 'medianOffer'

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'domain', label: 'Domain' },
  { key: 'views', label: 'Aufrufe' },
  { key: 'inquiries', label: 'Anfragen' },
  { key: 'spam', label: 'Spam' },
  { key: 'highestOffer', label: 'Höchstes Angebot' },
  { key: 'medianOffer', label: 'Median' },
]

const OFFER_AMOUNT = { highestOffer: 'highestAmount', medianOffer: 'medianAmount' } as const

/**
 * Offers by their stored amounts, never by the text shown: an amount only compares with one of its own currency, so
 * the rows group by currency (alphabetically, whichever way) and sort by amount within it; rows without an offer come
 * last either way.
 */
function compareOffers(a: OfferAmount | null, b: OfferAmount | null, sign: number): number {
  if (!a || !b) return (a ? -1 : 0) + (b ? 1 : 0)
  return a.currency.localeCompare(b.currency) || sign * (a.amount - b.amount)
}

function compare(a: OverviewDomain, b: OverviewDomain, key: SortKey, sign: number): number {
  switch (key) {
    case 'domain':
      return sign * a.domain.localeCompare(b.domain, 'de')
    case 'highestOffer':
    case 'medianOffer':
      return compareOffers(a[OFFER_AMOUNT[key]], b[OFFER_AMOUNT[key]], sign)
    default:
      return sign * (a[key] - b[key])
  }
}

export function sortDomains(domains: OverviewDomain[], key: SortKey, descending: boolean): OverviewDomain[] {
  const sign = descending ? -1 : 1
  return [...domains].sort((a, b) => compare(a, b, key, sign) || b.inquiries - a.inquiries || b.views - a.views || a.domain.localeCompare(b.domain, 'de'))
}

export function OverviewPage({ data }: { data: Overview }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'inquiries', descending: true })
  const rows = sortDomains(data.domains, sort.key, sort.descending)

  function sortBy(key: SortKey) {
    setSort((current) => (current.key === key ? { key, descending: !current.descending } : { key, descending: key !== 'domain' }))
  }

  return (
    <>
      <h1>Übersicht</h1>
      <DomainHealth />
      <nav aria-label="Zeitraum" className="ranges">
        {OVERVIEW_DAYS.map((days) => (
          <a key={days} className="range" href={`${CONSOLE_PATHS.overview}?days=${days}`} aria-current={days === data.days ? 'page' : undefined}>
            {days} Tage
          </a>
        ))}
      </nav>
      <VisitorStatsSection stats={data.visits} />
      <h2>Aufrufe und Anfragen je Domain</h2>
      {rows.length === 0 ? (
        <p className="empty">In diesem Zeitraum keine Aufrufe und keine Anfragen.</p>
      ) : (
        <table className="list overview">
          <caption className="visually-hidden">Letzte {data.days} Tage je Domain</caption>
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
              <th scope="col">Verlauf</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((domain) => (
              <tr key={domain.domainAscii}>
                <th scope="row" data-label="Domain">
                  <a href={`${CONSOLE_PATHS.inbox}?domain=${encodeURIComponent(domain.domainAscii)}`}>{domain.domain}</a>
                </th>
                <td data-label="Aufrufe">{formatNumber(domain.views)}</td>
                <td data-label="Anfragen">{formatNumber(domain.inquiries)}</td>
                <td data-label="Spam">{formatNumber(domain.spam)}</td>
                <td data-label="Höchstes Angebot">{domain.highestOffer ?? '–'}</td>
                <td data-label="Median">{domain.medianOffer ?? '–'}</td>
                <td data-label="Verlauf">
                  <DailyChart domain={domain} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted legend">
        <span className="swatch swatch-views" aria-hidden="true" /> Aufrufe je Tag <span className="swatch swatch-inquiries" aria-hidden="true" /> Anfragen je
        Tag
      </p>
    </>
  )
}
