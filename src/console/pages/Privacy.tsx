// Datenschutz: an e-mail address, what is stored about it (Auskunft, as JSON to hand over) and erasing all of it
// (Löschen, after an in-page confirmation). Everything shown is text: names and messages are what visitors typed.
import { ConfirmErase } from '../ConfirmErase.tsx'
import { useState, type FormEvent } from 'react'
import { STATUS_LABEL, type InquiryStatus } from '../../shared/console-api.ts'
import { DEAL_STATE_LABEL, type DealState } from '../../shared/deal-api.ts'
import { accessReportSchema, erasedReportSchema, type AccessReport, type ErasedReport, type PrivacyRequest } from '../../shared/privacy-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber, formatTime } from '../format.ts'

const count = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`

function downloadJson(report: AccessReport) {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = 'auskunft.json'
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export function Privacy() {
  const [email, setEmail] = useState('')
  const [report, setReport] = useState<AccessReport | null>(null)
  const [erased, setErased] = useState<ErasedReport | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function lookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setErased(null)
    setConfirming(false)
    const request: PrivacyRequest = { email }
    const result = await callApi('POST', '/api/privacy/access', accessReportSchema, request)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setReport(result.data)
  }

  async function erase() {
    if (!report) return
    setBusy(true)
    setError(null)
    const request: PrivacyRequest = { email: report.email }
    const result = await callApi('POST', '/api/privacy/erase', erasedReportSchema, request)
    setBusy(false)
    setConfirming(false)
    if (result.status === 'error') return setError(result.error)
    setErased(result.data)
    setReport(null)
  }

  return (
    <>
      <h1>Datenschutz</h1>
      <p className="muted">
        Auskunft (Art. 15 DSGVO) und Löschung (Art. 17 DSGVO) für eine Person: alle Anfragen mit ihrer E-Mail-Adresse in jeder Schreibweise, die dasselbe
        Postfach erreicht (Groß- und Kleinschreibung, Umlaute oder Punycode in der Domain; bei Gmail auch Punkte und +Zusätze), mit Antworten und Mails.
        Seitenaufrufe sind nicht personenbezogen und bleiben.
      </p>
      <form className="privacy-form" onSubmit={lookUp}>
        <label htmlFor="privacy-email">E-Mail-Adresse</label>
        <input id="privacy-email" type="email" required maxLength={320} value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
        <button type="submit" className="button" disabled={busy}>
          Anzeigen
        </button>
      </form>
      {error && <ErrorText>{error}</ErrorText>}
      {erased && (
        <p className="notice-ok" role="status">
          {erased.inquiries.length === 0
            ? 'Es war nichts mehr gespeichert.'
            : `Gelöscht: ${count(erased.inquiries.length, 'Anfrage', 'Anfragen')} (Nr. ${erased.inquiries.map(({ id }) => id).join(', ')}) auf ${erased.domains.join(', ')}, ${count(erased.replies.length, 'Antwort', 'Antworten')}, ${count(erased.outboxRows, 'Eintrag', 'Einträge')} im Postausgang, ${count(erased.mailFiles, 'Mail-Datei', 'Mail-Dateien')}.`}
        </p>
      )}
      {report && (
        <section aria-labelledby="privacy-result">
          <h2 id="privacy-result">
            Gespeichert zu <bdi>{report.email}</bdi>: {count(report.inquiries.length, 'Anfrage', 'Anfragen')}
          </h2>
          {report.inquiries.length > 0 && (
            <>
              <table className="list">
                <thead>
                  <tr>
                    <th scope="col">Nr.</th>
                    <th scope="col">Eingang</th>
                    <th scope="col">Domain</th>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Antworten</th>
                    <th scope="col">Kauf</th>
                    <th scope="col">Nachricht</th>
                  </tr>
                </thead>
                <tbody>
                  {report.inquiries.map((inquiry) => (
                    <tr key={inquiry.id}>
                      <td data-label="Nr.">{inquiry.id}</td>
                      <td data-label="Eingang">{inquiry.createdAt ? formatTime(Date.parse(inquiry.createdAt)) : '–'}</td>
                      <td data-label="Domain">{inquiry.domain}</td>
                      <td data-label="Name">
                        <bdi>{inquiry.name}</bdi>
                      </td>
                      <td data-label="Status">{STATUS_LABEL[inquiry.status as InquiryStatus] ?? inquiry.status}</td>
                      <td data-label="Antworten">{formatNumber(inquiry.replies.length)}</td>
                      <td data-label="Kauf">
                        {inquiry.deals.length === 0
                          ? '–'
                          : inquiry.deals.map((deal) => `${deal.reference}: ${DEAL_STATE_LABEL[deal.status as DealState] ?? deal.status}`).join(', ')}
                      </td>
                      <td data-label="Nachricht" className="last-error">
                        <bdi>{(inquiry.message.split(/\r?\n/, 1)[0] ?? '').slice(0, 200)}</bdi>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <div className="actions" role="group" aria-label="Aktionen">
                <button type="button" className="button secondary" onClick={() => downloadJson(report)}>
                  Auskunft als JSON herunterladen
                </button>
                <button type="button" className="button danger" disabled={busy} onClick={() => setConfirming(true)}>
                  Alles löschen
                </button>
              </div>
            </>
          )}
          {confirming && (
            <ConfirmErase
              id="confirm-erase"
              question="Alles zu dieser Adresse endgültig löschen?"
              busy={busy}
              onConfirm={erase}
              onCancel={() => setConfirming(false)}
            >
              {count(report.inquiries.length, 'Anfrage', 'Anfragen')} mit Antworten, Mails und Mail-Dateien werden gelöscht. Das lässt sich nicht rückgängig
              machen.
            </ConfirmErase>
          )}
        </section>
      )}
    </>
  )
}
