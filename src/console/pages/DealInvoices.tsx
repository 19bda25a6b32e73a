// A deal's invoices on "Verkäufe" (decisions 038, 046): each with its number, kind, date and download; "Rechnung ausstellen"
// for a paid deal without one whose buyer has given the address since. A Stornorechnung is never issued here: the
// cancellation of an invoiced deal issues it in the same step.
import { useEffect, useRef, useState } from 'react'
import { dealInvoicesSchema, type DealInvoices as DealInvoicesData, type DealSummary } from '../../shared/deal-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'

const KIND_LABEL = { invoice: 'Rechnung', advance: 'Anzahlungsrechnung', cancellation: 'Stornorechnung' } as const
const numberOf = (number: number) => `RE-${String(number).padStart(5, '0')}`

export function DealInvoices({ deal, initial }: { deal: DealSummary; initial: DealInvoicesData }) {
  const [data, setData] = useState(initial)
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  // A step taken on this page (Zahlung erhalten, Rate erhalten, Übertragen, Abbrechen) may have issued one: read them
  // again, not on the first render. A rate received leaves the state as it is; its Anzahlungsrechnung is new all the same.
  const shown = `${deal.status}/${deal.plan?.rates.filter((rate) => rate.paidAt !== null).length ?? 0}`
  const shownStep = useRef(shown)
  useEffect(() => {
    if (shownStep.current === shown) return
    shownStep.current = shown
    void callApi('GET', `/api/deals/${deal.id}/invoices`, dealInvoicesSchema).then((result) => {
      if (result.status === 'success') setData(result.data)
    })
  }, [deal.id, shown])

  async function issue() {
    setBusy(true)
    setError(null)
    const result = await callApi('POST', `/api/deals/${deal.id}/invoice`, dealInvoicesSchema, {})
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setAsking(false)
    setData(result.data)
  }

  if (data.invoices.length === 0 && !data.canIssue && !data.missingAddress) return null
  return (
    <section className="deal-invoices" aria-label={`Rechnungen zu ${deal.reference}`}>
      {data.invoices.length > 0 && (
        <ul>
          {data.invoices.map((invoice) => (
            <li key={invoice.id}>
              <a href={`/api/invoices/${invoice.id}`} download={`${numberOf(invoice.number)}.pdf`}>
                {`${KIND_LABEL[invoice.kind]} ${numberOf(invoice.number)}${invoice.advanceRate === null ? '' : invoice.advanceRate === 0 ? ' (Anzahlung)' : ` (Rate ${invoice.advanceRate})`}`}
              </a>
              <span className="muted">{` · ${formatTime(invoice.issuedAt)}${invoice.eInvoice ? ' · E-Rechnung (Factur-X)' : ''}`}</span>
            </li>
          ))}
        </ul>
      )}
      {data.missingAddress && (
        <p className="muted">
          Keine Rechnung: Der Käufer hat noch keine Rechnungsanschrift angegeben. Er kann sie auf seiner Kaufseite eintragen; dann können Sie die Rechnung hier
          ausstellen.
        </p>
      )}
      {data.canIssue &&
        (asking ? (
          <div className="deal-step-form" role="group" aria-label="Rechnung ausstellen">
            <p role="status">
              Die Rechnung wird unter der nächsten Nummer ausgestellt, mit dem Datum der Zahlung, und steht dann auf der Kaufseite des Käufers zum
              Herunterladen; es wird keine E-Mail gesendet.
            </p>
            {error && <ErrorText>{error}</ErrorText>}
            <div className="actions">
              <button type="button" className="button" disabled={busy} onClick={() => void issue()}>
                Rechnung ausstellen: bestätigen
              </button>
              <button type="button" className="button secondary" disabled={busy} onClick={() => setAsking(false)}>
                Zurück
              </button>
            </div>
          </div>
        ) : (
          <div className="actions">
            <button type="button" className="button" onClick={() => setAsking(true)}>
              Rechnung ausstellen
            </button>
          </div>
        ))}
    </section>
  )
}
