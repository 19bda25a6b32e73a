// "Protokoll": the audit trail (decision 043), newest first; filters in a GET form to /protokoll, "Ältere" pages on.
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, AUDIT_PATH, type AuditAction, type AuditPage } from '../../shared/audit-api.ts'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import { DayRangeFields, FilterForm } from '../FilterForm.tsx'
import { formatTime } from '../format.ts'
import { withParams } from '../query.ts'

const ACTIONS = Object.entries(AUDIT_ACTIONS) as [AuditAction, string][]

export function AuditPageView({ data }: { data: AuditPage }) {
  const { query, entries, next } = data

  const older = new URLSearchParams(Object.entries(query).filter(([name]) => name !== 'cursor'))
  if (next) older.set('cursor', next)

  return (
    <>
      <h1>Protokoll</h1>
      <p className="muted">
        Jede Änderung in der Konsole und mit der CLI, jede Anmeldung: wann, von welcher Sitzung, was, woran, mit welchem Ergebnis. Zwei Jahre aufbewahrt.
      </p>
      <FilterForm path={AUDIT_PATH}>
        <DayRangeFields idPrefix="audit" since={query.since} until={query.until} />
        <div className="field">
          <label htmlFor="audit-action">Aktion</label>
          <select id="audit-action" name="action" defaultValue={query.action ?? ''}>
            <option value="">Alle</option>
            {ACTIONS.map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="audit-subject">Betreff</label>
          <input id="audit-subject" name="subject" type="search" placeholder="A12, V3 oder Domain" defaultValue={query.subject ?? ''} />
        </div>
      </FilterForm>

      {entries.length === 0 ? (
        <p className="empty">Keine Einträge.</p>
      ) : (
        <table className="list audit">
          <thead>
            <tr>
              <th scope="col">Zeit</th>
              <th scope="col">Wer</th>
              <th scope="col">Aktion</th>
              <th scope="col">Betreff</th>
              <th scope="col">Ergebnis</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="Zeit">{formatTime(entry.at)}</td>
                <td data-label="Wer">{entry.actor}</td>
                <td data-label="Aktion">{AUDIT_ACTIONS[entry.action] ?? entry.action}</td>
                <td data-label="Betreff">
                  {entry.inquiryId !== null && <a href={CONSOLE_PATHS.inquiry(entry.inquiryId)}>Anfrage {entry.inquiryId}</a>}
                  {entry.dealId !== null && <span> Verkauf {entry.dealId}</span>}
                  {entry.domain !== null && (
                    <span>
                      {' '}
                      <bdi>{entry.domain}</bdi>
                    </span>
                  )}
                  {entry.inquiryId === null && entry.dealId === null && entry.domain === null && '–'}
                </td>
                <td data-label="Ergebnis">
                  <span className={`badge outcome-${entry.outcome}`}>{AUDIT_OUTCOMES[entry.outcome]}</span>
                </td>
                <td data-label="Details">
                  <bdi>{entry.detail ?? ''}</bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {next && (
        <p className="more">
          <a className="button secondary" href={withParams(AUDIT_PATH, older)}>
            Ältere Einträge
          </a>
        </p>
      )}
    </>
  )
}
