// The daily checks of the listed names (decision 047) in the console: a name's state on "Domains", and the names that
// need attention on the Übersicht. Loaded after the page (GET /api/domain-checks), so the pages' own data stays as
// it is. Everything in a check came from the network in part: shown as text only.
import { useEffect, useState } from 'react'
import { DOMAINS_PATH } from '../../shared/domains-api.ts'
import {
  POINTING_LABEL,
  RECORDS_LABEL,
  domainChecksPageSchema,
  expiryLabel,
  isExpiringSoon,
  type DomainCheck,
  type DomainChecksPage,
} from '../../shared/domain-checks.ts'
import { callApi } from '../api.ts'
import { formatNumber } from '../format.ts'

/** The checks of these names (ASCII), loaded again when the names change; null until loaded. */
export function useDomainChecks(names: readonly string[]): { checks: Map<string, DomainCheck>; now: number } | null {
  const key = names.join(',')
  const [state, setState] = useState<{ key: string; checks: Map<string, DomainCheck>; now: number } | null>(null)
  useEffect(() => {
    if (!key) return
    let current = true
    void callApi('GET', `/api/domain-checks?${new URLSearchParams({ names: key })}`, domainChecksPageSchema).then((result) => {
      if (current && result.status === 'success') {
        setState({ key, now: result.data.now, checks: new Map(result.data.checks.map((check) => [check.domain, check])) })
      }
    })
    return () => {
      current = false
    }
  }, [key])
  return state && state.key === key ? state : null
}

/** One name's state: where it points, its records, its expiry (red under 30 days). */
export function DomainCheckState({ check, now }: { check: DomainCheck | undefined; now: number }) {
  if (!check) return <span className="muted">noch nicht geprüft</span>
  const soon = isExpiringSoon(check, now)
  return (
    <ul className="check-state">
      <li
        className={check.pointing === 'elsewhere' ? 'check-bad' : check.pointing === 'unknown' ? 'muted' : undefined}
        title={check.pointingDetail || undefined}
      >
        {POINTING_LABEL[check.pointing]}
      </li>
      {check.records !== 'ok' && (
        <li className={check.records === 'unknown' ? 'muted' : 'check-bad'} title={check.recordsDetail || undefined}>
          {RECORDS_LABEL[check.records]}
        </li>
      )}
      <li className={soon ? 'check-bad' : check.expiry === 'known' ? undefined : 'muted'} title={check.expiryDetail || undefined}>
        {expiryLabel(check)}
      </li>
    </ul>
  )
}

/** Übersicht: the names that need attention, most urgent first. Nothing while all is in order. */
export function DomainHealth() {
  const [page, setPage] = useState<DomainChecksPage | null>(null)
  useEffect(() => {
    void callApi('GET', '/api/domain-checks?attention=1', domainChecksPageSchema).then((result) => {
      if (result.status === 'success') setPage(result.data)
    })
  }, [])
  if (!page || page.total === 0) return null
  return (
    <section aria-labelledby="domain-health" className="domain-health">
      <h2 id="domain-health">Domains mit Handlungsbedarf ({formatNumber(page.total)})</h2>
      <table className="list">
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col">Zustand</th>
          </tr>
        </thead>
        <tbody>
          {page.checks.map((check) => (
            <tr key={check.domain}>
              <th scope="row" data-label="Domain">
                <a href={`${DOMAINS_PATH}?${new URLSearchParams({ q: check.domain })}`}>
                  <bdi>{check.name}</bdi>
                </a>
              </th>
              <td data-label="Zustand">
                <DomainCheckState check={check} now={page.now} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.total > page.checks.length && <p className="muted">… und {formatNumber(page.total - page.checks.length)} weitere.</p>}
    </section>
  )
}
