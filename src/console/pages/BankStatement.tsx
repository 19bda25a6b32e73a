// Kontoauszug importieren: a CAMT.053 file from online banking, read in the browser and sent as its bytes (the
// server reads them in a worker thread, decision 040); first what it would do (which bookings pay which deal), then "Übernehmen", which records the payments and marks the deals they
// pay as paid (the buyers are mailed). Importing the same file again changes nothing. Everything from the file
// (names, remittance) is shown as text, isolated with <bdi>.
import { useState, type FormEvent } from 'react'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import {
  BANK_CLASS_LABEL,
  BANK_REASON_TEXT,
  bankStatementPreviewSchema,
  bankStatementResultSchema,
  type BankStatementPageData,
  type BankStatementPreview,
  type BankStatementResult,
} from '../../shared/payments-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber } from '../format.ts'

/** Minor units as the owner reads them ("1.234,50 €"); the value is exact, Intl only draws it. */
function money(minor: number | null, currency: string | null): string {
  if (minor === null || currency === null) return '–'
  const format = new Intl.NumberFormat('de-DE', { style: 'currency', currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  return format.format(minor / 10 ** digits)
}

const isResult = (report: BankStatementPreview | BankStatementResult): report is BankStatementResult => 'applied' in report

function Report({ report }: { report: BankStatementPreview | BankStatementResult }) {
  const { counts } = report
  return (
    <>
      <p>
        {formatNumber(report.statements)} Auszug/Auszüge (camt.053.001.{String(report.version).padStart(2, '0')}): {formatNumber(counts.matched)} zugeordnet,{' '}
        {formatNumber(counts.partial)} Teilzahlungen, {formatNumber(counts.overpaid)} überzahlt, {formatNumber(counts.unmatched)} nicht zugeordnet,{' '}
        {formatNumber(counts.applied)} schon übernommen, {formatNumber(counts.return)} Rückbuchungen. Nicht aufgeführt: {formatNumber(counts.ignored)}{' '}
        Lastschriften, Abbuchungen und noch nicht gebuchte Umsätze.
      </p>
      {report.deals.length > 0 && (
        <table className="bank-deals">
          <caption>Verkäufe in dieser Datei</caption>
          <thead>
            <tr>
              <th scope="col">Kauf</th>
              <th scope="col">Domain</th>
              <th scope="col">Betrag</th>
              <th scope="col">Eingegangen</th>
              <th scope="col">Ergebnis</th>
            </tr>
          </thead>
          <tbody>
            {report.deals.map((deal) => (
              <tr key={deal.reference}>
                <td>{deal.reference}</td>
                <td>{deal.domain}</td>
                <td>{money(deal.amount, deal.currency)}</td>
                <td>{money(deal.receivedAfter, deal.currency)}</td>
                <td>
                  {deal.marksPaid
                    ? deal.rate !== undefined
                      ? isResult(report)
                        ? `${deal.rate === 0 ? 'Anzahlung' : `Rate ${deal.rate}`} als erhalten markiert`
                        : `${deal.rate === 0 ? 'Anzahlung' : `Rate ${deal.rate}`} wird als erhalten markiert`
                      : isResult(report)
                        ? 'als bezahlt markiert'
                        : 'wird als bezahlt markiert'
                    : deal.status === 'awaiting_payment'
                      ? `offen: es fehlen ${money(deal.amount - deal.receivedAfter, deal.currency)}`
                      : deal.status !== 'cancelled' && deal.receivedAfter < deal.receivedBefore
                        ? 'Achtung: Zahlung zurückgebucht, der Kauf gilt aber als bezahlt. Bitte prüfen.'
                        : 'unverändert'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.items.length > 0 && (
        <table className="bank-entries">
          <caption>Buchungen</caption>
          <thead>
            <tr>
              <th scope="col">Ergebnis</th>
              <th scope="col">Buchung</th>
              <th scope="col">Betrag</th>
              <th scope="col">Kauf</th>
              <th scope="col">Von/An</th>
              <th scope="col">Verwendungszweck</th>
            </tr>
          </thead>
          <tbody>
            {report.items.map((item, i) => (
              <tr key={i} className={`bank-${item.class}`}>
                <td>
                  {BANK_CLASS_LABEL[item.class].de}
                  {item.reason && <span className="muted"> ({BANK_REASON_TEXT[item.reason].de})</span>}
                </td>
                <td>{item.bookingDate}</td>
                <td>
                  {item.direction === 'debit' ? '−' : ''}
                  {money(item.amount, item.currency)}
                </td>
                <td>{item.reference && item.dealId !== null ? `${item.reference} (${item.domain ?? ''})` : ''}</td>
                <td>
                  <bdi>{item.name ?? ''}</bdi>
                </td>
                <td>
                  <bdi>{item.text}</bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!report.listedAll && <p className="muted">Die ersten {formatNumber(report.items.length)} Buchungen.</p>}
    </>
  )
}

export function BankStatementPage({ data }: { data: BankStatementPageData }) {
  const [request, setRequest] = useState<Blob | null>(null)
  const [report, setReport] = useState<BankStatementPreview | BankStatementResult | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const megabytes = formatNumber(data.maxBytes / 1024 / 1024)

  async function preview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const file = new FormData(event.currentTarget).get('file')
    setError(null)
    setReport(null)
    setRequest(null)
    if (!(file instanceof File) || file.size === 0) return setError('Bitte eine Datei wählen.')
    if (file.size > data.maxBytes) return setError(`Die Datei ist größer als ${megabytes} MB. Bitte einen kürzeren Zeitraum exportieren.`)
    setBusy(true)
    // The bytes as read now: the apply sends the same ones, even if the file changes on disk in between.
    const next = new Blob([await file.arrayBuffer()], { type: 'application/xml' })
    const result = await callApi('POST', '/api/payments/preview', bankStatementPreviewSchema, next)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setRequest(next)
    setReport(result.data)
  }

  async function apply() {
    if (!request) return
    setBusy(true)
    setError(null)
    const result = await callApi('POST', '/api/payments/apply', bankStatementResultSchema, request)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setReport(result.data)
  }

  const toRecord = report ? report.counts.matched + report.counts.partial + report.counts.overpaid + report.counts.return : 0
  return (
    <>
      <h1>Kontoauszug importieren</h1>
      <p className="muted">
        Der Kontoauszug aus dem Online-Banking im Format CAMT.053 (XML, camt.053.001.02 bis .13). Zahlungen werden über die Kaufnummer im Verwendungszweck (z.
        B. DL-2026-0042) und den Betrag den <a href={CONSOLE_PATHS.sales}>Verkäufen</a> zugeordnet. Sie sehen zuerst, was zugeordnet wird; erst „Übernehmen“
        markiert bezahlte Käufe und schreibt den Käufern. Dieselbe Datei ein zweites Mal ändert nichts.
      </p>
      <form className="import-form" onSubmit={preview}>
        <div className="field">
          <label htmlFor="statement-file">Datei (CAMT.053, höchstens {megabytes} MB)</label>
          <input id="statement-file" name="file" type="file" accept=".xml,application/xml,text/xml" required />
        </div>
        <button type="submit" className="button" disabled={busy}>
          Vorschau
        </button>
      </form>
      {busy && <p role="status">Wird geprüft …</p>}
      {error && <ErrorText>{error}</ErrorText>}
      {report && (
        <section aria-label="Vorschau" className="import-report">
          <Report report={report} />
          {isResult(report) ? (
            <p className="notice-ok" role="status">
              Übernommen: {formatNumber(report.recorded)} Buchungen verbucht, {formatNumber(report.paid.filter((paid) => paid.rate === undefined).length)} Käufe
              als bezahlt markiert
              {report.paid.some((paid) => paid.rate !== undefined) &&
                `, ${formatNumber(report.paid.filter((paid) => paid.rate !== undefined).length)} Raten als erhalten markiert`}
              .
            </p>
          ) : toRecord === 0 && !report.deals.some((deal) => deal.marksPaid) ? (
            <p className="muted">Nichts zu übernehmen.</p>
          ) : (
            <div className="actions">
              <button type="button" className="button" disabled={busy} onClick={() => void apply()}>
                Übernehmen
              </button>
            </div>
          )}
        </section>
      )}
    </>
  )
}
