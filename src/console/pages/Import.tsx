// Domains importieren: a registrar's list (CSV or JSON), read in the browser and sent as text; first what it would
// change in the domains file (a dry run on the server), then "Übernehmen", which writes the file as
// `npx domain-lander import` does. The server refuses "Übernehmen" when the file changed since the preview.
import { useState, type FormEvent } from 'react'
import {
  importReportSchema,
  type ImportApplyRequest,
  type ImportFormat,
  type ImportPageData,
  type ImportReport,
  type ImportRequest,
} from '../../shared/import-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber } from '../format.ts'
import { ImportReportView } from './ImportReport.tsx'

const formatOf = (fileName: string): ImportFormat => (/\.json$/i.test(fileName) ? 'json' : 'csv')

export function ImportPage({ data }: { data: ImportPageData }) {
  const [request, setRequest] = useState<ImportRequest | null>(null)
  const [report, setReport] = useState<ImportReport | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const megabytes = formatNumber(data.maxBytes / 1024 / 1024)

  async function preview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const file = form.get('file')
    setError(null)
    setReport(null)
    setRequest(null)
    if (!(file instanceof File) || file.size === 0) return setError('Bitte eine Datei wählen.')
    if (file.size > data.maxBytes)
      return setError(`Die Datei ist größer als ${megabytes} MB. Größere Listen importiert npx domain-lander import auf dem Server.`)
    setBusy(true)
    const next: ImportRequest = { text: await file.text(), format: formatOf(file.name), prune: form.get('prune') === 'on' }
    const result = await callApi('POST', '/api/import/preview', importReportSchema, next)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setRequest(next)
    setReport(result.data)
  }

  async function apply() {
    if (!request || !report) return
    setBusy(true)
    setError(null)
    const body: ImportApplyRequest = { ...request, fingerprint: report.fingerprint }
    const result = await callApi('POST', '/api/import/apply', importReportSchema, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setReport(result.data)
  }

  const changes = report ? report.counts.added + report.counts.changed + report.counts.removed : 0
  return (
    <>
      <h1>Domains importieren</h1>
      <p className="muted">
        Eine Liste Ihrer Domains, z. B. der Export Ihres Registrars: CSV mit Kopfzeile (getrennt durch Komma oder Semikolon) oder JSON. Erkannt werden die
        Spalten Domain, Preis, Mindestgebot und Währung (auch Domain Name, Price, Min Offer, Currency); andere Spalten bleiben unbeachtet. Sie sehen zuerst, was
        sich an der Domains-Datei ändert; geschrieben wird erst mit „Übernehmen“.
      </p>
      {data.domainsFile === null ? (
        <p className="error">Der Server hat keine Domains-Datei (DOMAINS_FILE): es gibt nichts, in das importiert werden kann.</p>
      ) : (
        <form className="import-form" onSubmit={preview}>
          <div className="field">
            <label htmlFor="import-file">Datei (CSV oder JSON, höchstens {megabytes} MB)</label>
            <input id="import-file" name="file" type="file" accept=".csv,.json,.txt,text/csv,application/json" required />
          </div>
          <div className="field check">
            <input id="import-prune" name="prune" type="checkbox" />
            <label htmlFor="import-prune">Domains aus der Datei entfernen, die nicht in der Liste stehen (Platzhalter wie *.example.de bleiben)</label>
          </div>
          <button type="submit" className="button" disabled={busy}>
            Vorschau
          </button>
          <p className="muted">
            Domains-Datei: <code>{data.domainsFile}</code>
          </p>
        </form>
      )}
      {busy && <p role="status">Wird geprüft …</p>}
      {error && <ErrorText>{error}</ErrorText>}
      {report && (
        <section aria-label="Vorschau" className="import-report">
          <ImportReportView report={report} />
          {report.written ? (
            <p className="notice-ok" role="status">
              Übernommen: die Domains-Datei ist geschrieben; der Server lädt sie von selbst neu.
            </p>
          ) : changes === 0 ? (
            <p className="muted">Nichts zu ändern.</p>
          ) : (
            <div className="actions">
              <button type="button" className="button" disabled={busy || report.counts.errors > 0} onClick={() => void apply()}>
                Übernehmen
              </button>
              {report.counts.errors > 0 && <p className="muted">Erst wenn die Liste keine Fehler mehr hat, lässt sie sich übernehmen.</p>}
            </div>
          )}
        </section>
      )}
    </>
  )
}
