// A deal's steps for the owner (docs/deals.md): Zahlung erhalten, Übertragen (transfer code and/or note), Abschließen,
// Abbrechen (with a reason), Frist ändern. Each step asks before it mails anyone. Used on "Verkäufe" and on the inquiry.
import { useState, type FormEvent } from 'react'
import { dealSummarySchema, type DealSummary } from '../../shared/deal-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'

type Step = 'paid' | 'transfer' | 'complete' | 'cancel' | 'deadline'

const STEP_LABEL: Record<Step, string> = {
  paid: 'Zahlung erhalten',
  transfer: 'Übertragen',
  complete: 'Abschließen',
  cancel: 'Abbrechen',
  deadline: 'Frist ändern',
}
const STEP_MAIL: Record<Step, string> = {
  paid: 'Der Käufer bekommt eine E-Mail, dass die Zahlung eingegangen ist (bei Ratenzahlung: alle offenen Raten gelten als erhalten).',
  transfer: 'Der Käufer bekommt eine E-Mail, dass der Transfer-Code auf seiner Kaufseite bereitsteht (der Code selbst steht nicht in der E-Mail).',
  complete: 'Der Kauf wird abgeschlossen, die Domain gilt sofort als verkauft, und der Käufer bekommt eine E-Mail.',
  cancel: 'Der Kauf wird abgebrochen und der Käufer bekommt eine E-Mail mit Ihrer Begründung.',
  deadline:
    'Die Kaufseite des Käufers zeigt die neue Frist (bis 23:59 Uhr dieses Tages); niemand bekommt eine E-Mail. Die Erinnerungen richten sich nach der neuen Frist.',
}

/** The day a deadline ends on in Berlin, as the date field shows it (YYYY-MM-DD). */
const dayOf = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date(ms))

function stepsOf(status: DealSummary['status'], plan: DealSummary['plan']): Step[] {
  switch (status) {
    case 'awaiting_payment':
      // A plan's dates are its rates' (the owner waits or cancels); one whose name moves at once may be transferred now.
      if (plan) return plan.transfer === 'at-once' ? ['paid', 'transfer', 'cancel'] : ['paid', 'cancel']
      return ['paid', 'deadline', 'cancel']
    case 'paid':
      return ['transfer', 'complete', 'deadline', 'cancel']
    case 'transferred':
      return ['complete', 'cancel']
    default:
      return []
  }
}

export function DealFacts({ deal }: { deal: DealSummary }) {
  return (
    <dl className="facts">
      <dt>Kauf</dt>
      <dd>
        {deal.reference} · {deal.statusLabel}
      </dd>
      <dt>Betrag</dt>
      <dd>{deal.amount}</dd>
      {deal.nextDeadline !== null && (
        <>
          <dt>{deal.nextDeadlineLabel}</dt>
          <dd className={deal.overdue ? 'overdue' : undefined}>
            {formatTime(deal.nextDeadline)}
            {deal.overdue && ' (überfällig)'}
          </dd>
        </>
      )}
      {deal.hasTransferCode && (
        <>
          <dt>Transfer-Code</dt>
          <dd>hinterlegt (verschlüsselt)</dd>
        </>
      )}
      {deal.transferNote && (
        <>
          <dt>Notiz zur Übertragung</dt>
          <dd className="pre">{deal.transferNote}</dd>
        </>
      )}
      {deal.notifyOthers !== null && deal.status === 'transferred' && (
        <>
          <dt>Andere Interessenten</dt>
          <dd>{deal.notifyOthers ? 'werden beim Abschluss informiert („Bereits verkauft“)' : 'werden nicht informiert'}</dd>
        </>
      )}
      {deal.cancelReason && (
        <>
          <dt>Begründung</dt>
          <dd className="pre">{deal.cancelReason}</dd>
        </>
      )}
      {deal.pageUrl && (
        <>
          <dt>Kaufseite</dt>
          <dd>
            <a href={deal.pageUrl} rel="noreferrer noopener" target="_blank">
              Seite des Käufers öffnen
            </a>
          </dd>
        </>
      )}
    </dl>
  )
}

/**
 * The plan's payments (decision 042): each with its date, reference and state; an open one is marked received here
 * ("Rate erhalten", the buyer is mailed), and for an overdue one the owner decides: wait ("Abwarten") or cancel below.
 */
function PlanRates({ deal, onChange }: { deal: DealSummary; onChange: (deal: DealSummary) => void }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const plan = deal.plan!
  async function act(number: number, action: 'paid' | 'wait') {
    setBusy(true)
    setError(null)
    const result = await callApi('POST', `/api/deals/${deal.id}/rates/${number}/${action}`, dealSummarySchema, {})
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    onChange(result.data)
  }
  return (
    <div className="plan-rates">
      <h3>Ratenzahlung ({plan.transfer === 'at-once' ? 'Übertragung sofort' : 'Übertragung nach der letzten Rate'})</h3>
      {plan.transfer === 'at-once' && (
        <p className="warning">Die Domain wird vor der letzten Rate übertragen: Zahlt der Käufer nicht weiter, bleibt Ihnen die Forderung.</p>
      )}
      <table className="plan-table">
        <thead>
          <tr>
            <th scope="col">Zahlung</th>
            <th scope="col">Fällig</th>
            <th scope="col">Betrag</th>
            <th scope="col">Verwendungszweck</th>
            <th scope="col">Stand</th>
          </tr>
        </thead>
        <tbody>
          {plan.rates.map((rate) => (
            <tr key={rate.number} className={rate.overdue ? 'overdue' : undefined}>
              <th scope="row">{rate.label}</th>
              <td>{formatTime(rate.dueAt)}</td>
              <td>{rate.amount}</td>
              <td>{rate.reference}</td>
              <td>
                {rate.paidAt !== null ? (
                  `erhalten am ${formatTime(rate.paidAt)}${rate.paidBy === 'bank' ? ' (Kontoauszug)' : ''}`
                ) : (
                  <span className="actions">
                    {rate.overdue && (rate.waitedAt === null ? 'überfällig ' : `überfällig, Sie warten ab (seit ${formatTime(rate.waitedAt)}) `)}
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      aria-label={`${rate.label}: Rate erhalten`}
                      onClick={() => void act(rate.number, 'paid')}
                    >
                      Rate erhalten
                    </button>
                    {rate.overdue && rate.waitedAt === null && (
                      <button
                        type="button"
                        className="button secondary"
                        disabled={busy}
                        aria-label={`${rate.label}: Abwarten`}
                        onClick={() => void act(rate.number, 'wait')}
                      >
                        Abwarten
                      </button>
                    )}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <ErrorText>{error}</ErrorText>}
    </div>
  )
}

export function DealSteps({ deal, onChange }: { deal: DealSummary; onChange: (deal: DealSummary) => void }) {
  const [step, setStep] = useState<Step | null>(null)
  const [code, setCode] = useState('')
  const [note, setNote] = useState('')
  const [notifyOthers, setNotifyOthers] = useState(false)
  const [due, setDue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [told, setTold] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const steps = stepsOf(deal.status, deal.plan)
  const toldLine = told && (
    <p className="notice-ok" role="status">
      {told}
    </p>
  )
  const rates = deal.plan && deal.status !== 'cancelled' && <PlanRates deal={deal} onChange={onChange} />
  if (steps.length === 0)
    return (
      <>
        {toldLine}
        {rates}
      </>
    )

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!step) return
    setBusy(true)
    setError(null)
    const body =
      step === 'transfer'
        ? { code, note, notifyOthers }
        : step === 'cancel'
          ? { reason: note }
          : step === 'complete'
            ? { notifyOthers }
            : step === 'deadline'
              ? { [deal.status === 'paid' ? 'transfer' : 'payment']: due }
              : {}
    const result = await callApi('POST', `/api/deals/${deal.id}/${step}`, dealSummarySchema, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setStep(null)
    setCode('')
    setNote('')
    setNotifyOthers(false)
    const notices = result.data.soldNotices
    setTold(
      notices === undefined
        ? null
        : notices === 1
          ? 'Eine andere Anfrage wurde informiert („Bereits verkauft“).'
          : `${notices} andere Anfragen wurden informiert („Bereits verkauft“).`,
    )
    onChange(result.data)
  }

  return (
    <div className="deal-steps">
      {toldLine}
      {rates}
      <div className="actions">
        {steps.map((name) => (
          <button
            key={name}
            type="button"
            className={name === 'cancel' || name === 'deadline' ? 'button secondary' : 'button'}
            disabled={busy}
            aria-pressed={step === name}
            onClick={() => {
              setStep(name)
              if (name === 'deadline' && deal.nextDeadline !== null) setDue(dayOf(deal.nextDeadline))
            }}
          >
            {STEP_LABEL[name]}
          </button>
        ))}
      </div>
      {step && (
        <form className="deal-step-form" aria-label={STEP_LABEL[step]} onSubmit={submit}>
          {step === 'transfer' && (
            <div className="field">
              <label htmlFor={`code-${deal.id}`}>Transfer-Code (AuthInfo)</label>
              <input id={`code-${deal.id}`} name="code" autoComplete="off" value={code} maxLength={200} onChange={(event) => setCode(event.target.value)} />
            </div>
          )}
          {(step === 'transfer' || step === 'cancel') && (
            <div className="field">
              <label htmlFor={`note-${deal.id}`}>
                {step === 'cancel' ? 'Begründung (geht an den Käufer)' : 'Notiz, z. B. „Push an Ihren Account bei …“ (optional)'}
              </label>
              <textarea id={`note-${deal.id}`} name="note" rows={3} maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
            </div>
          )}
          {(step === 'transfer' || step === 'complete') && (
            <div className="field checkbox">
              <input id={`notify-others-${deal.id}`} type="checkbox" checked={notifyOthers} onChange={(event) => setNotifyOthers(event.target.checked)} />
              <label htmlFor={`notify-others-${deal.id}`}>
                {step === 'complete' ? 'Andere Interessenten informieren' : 'Andere Interessenten informieren, wenn der Kauf abgeschlossen wird'}
              </label>
              <p className="muted">
                Alle anderen offenen Anfragen zu dieser Domain bekommen die Mail „Bereits verkauft“ (Vorlage), jede Adresse einmal, in der Sprache der Anfrage.
              </p>
            </div>
          )}
          {step === 'deadline' && (
            <div className="field">
              <label htmlFor={`due-${deal.id}`}>{deal.status === 'paid' ? 'Neue Frist für die Übertragung' : 'Neue Zahlungsfrist'}</label>
              <input id={`due-${deal.id}`} name="due" type="date" required value={due} onChange={(event) => setDue(event.target.value)} />
            </div>
          )}
          <p role="status">{STEP_MAIL[step]}</p>
          {error && <ErrorText>{error}</ErrorText>}
          <div className="actions">
            <button type="submit" className="button" disabled={busy}>
              {`${STEP_LABEL[step]}: bestätigen`}
            </button>
            <button type="button" className="button secondary" disabled={busy} onClick={() => setStep(null)}>
              Zurück
            </button>
          </div>
        </form>
      )}
    </div>
  )
}
