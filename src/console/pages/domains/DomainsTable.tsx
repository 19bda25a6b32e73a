// The table of the page "Domains": a page of the file's names with their values and daily check, each selectable,
// editable and removable. Names and descriptions from the file are text (<bdi>), never markup.
import type { DomainCheck } from '../../../shared/domain-checks.ts'
import type { DomainRow } from '../../../shared/domains-api.ts'
import { DomainCheckState } from '../DomainHealth.tsx'
import { amount, LANGUAGE, PRICE_TYPE, STATUS } from './labels.ts'

export function DomainsTable({
  rows,
  selected,
  onToggle,
  checks,
  onEdit,
  onRemove,
}: {
  rows: DomainRow[]
  selected: ReadonlySet<string>
  onToggle: (ascii: string) => void
  /** The rows' daily checks, null while they load. */
  checks: { checks: Map<string, DomainCheck>; now: number } | null
  onEdit: (row: DomainRow) => void
  onRemove: (row: DomainRow) => void
}) {
  return (
    <table className="list domains-list">
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Auswahl</span>
          </th>
          <th scope="col">Domain</th>
          <th scope="col">Preis</th>
          <th scope="col">Preisart</th>
          <th scope="col">Mindestgebot</th>
          <th scope="col">Status</th>
          <th scope="col">Sprache</th>
          <th scope="col">Gelistet</th>
          <th scope="col">Beschreibung</th>
          <th scope="col">Prüfung</th>
          <th scope="col">
            <span className="visually-hidden">Aktionen</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.ascii}>
            <td>
              <input type="checkbox" aria-label={`${row.name} auswählen`} checked={selected.has(row.ascii)} onChange={() => onToggle(row.ascii)} />
            </td>
            <th scope="row" data-label="Domain">
              <bdi>{row.name}</bdi>
            </th>
            <td data-label="Preis">{amount(row.price, row.currency)}</td>
            <td data-label="Preisart">{row.priceType ? PRICE_TYPE[row.priceType] : '–'}</td>
            <td data-label="Mindestgebot">{amount(row.minOffer)}</td>
            <td data-label="Status">{STATUS[row.status]}</td>
            <td data-label="Sprache">{row.language ? LANGUAGE[row.language] : '–'}</td>
            <td data-label="Gelistet">{row.listed ? 'ja' : 'nein'}</td>
            <td data-label="Beschreibung">
              <bdi>{row.description ?? ''}</bdi>
            </td>
            <td data-label="Prüfung">{checks ? <DomainCheckState check={checks.checks.get(row.ascii)} now={checks.now} /> : '–'}</td>
            <td>
              <button type="button" className="button secondary" aria-label={`${row.name} bearbeiten`} onClick={() => onEdit(row)}>
                Bearbeiten
              </button>{' '}
              <button type="button" className="button secondary" aria-label={`${row.name} entfernen`} onClick={() => onRemove(row)}>
                Entfernen
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
