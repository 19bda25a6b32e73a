// A deal's steps for the owner (docs/deals.md): Zahlung erhalten, Übertragen (transfer code and/or note), Abschließen,
// Abbrechen (with a reason). Each step asks before it mails the buyer. Used on "Verkäufe" and on the inquiry.
import { useState, type FormEvent } from 'react'
import type { DealSummary } from '../../shared/console-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'

type Step = 'paid' | 'transfer' | 'complete' | 'cancel'

const STEP_LABEL: Record<Step, string> = { paid: 'Zahlung erhalten', transfer: 'Übertragen', complete: 'Abschließen', cancel: 'Abbrechen' }
const STEP_MAIL: Record<Step, string> = {
  paid: 'Der Käufer bekommt eine E-Mail, dass die Zahlung eingegangen ist.',
  transfer: 'Der Käufer bekommt eine E-Mail, dass der Transfer-Code auf seiner Kaufseite bereitsteht (der Code selbst steht nicht in der E-Mail).',
  complete: 'Der Kauf wird abgeschlossen, die Domain gilt sofort als verkauft, und der Käufer bekommt eine E-Mail.',
  cancel: 'Der Kauf wird abgebrochen und der Käufer bekommt eine E-Mail mit Ihrer Begründung.',
}

function stepsOf(status: DealSummary['status']): Step[] {
  switch (status) {
    case 'awaiting_payment':
      return ['paid', 'cancel']
    case 'paid':
      return ['transfer', 'complete', 'cancel']
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

export function DealSteps({ deal, onChange }: { deal: DealSummary; onChange: (deal: DealSummary) => void }) {
  const [step, setStep] = useState<Step | null>(null)
  const [code, setCode] = useState('')
  const [note, setNote] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const steps = stepsOf(deal.status)
  if (steps.length === 0) return null

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!step) return
    setBusy(true)
    setError(null)
    const body = step === 'transfer' ? { code, note } : step === 'cancel' ? { reason: note } : {}
    const result = await callApi<DealSummary>('POST', `/api/deals/${deal.id}/${step}`, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setStep(null)
    setCode('')
    setNote('')
    onChange(result.data)
  }

  return (
    <div className="deal-steps">
      <div className="actions">
        {steps.map((name) => (
          <button key={name} type="button" className={name === 'cancel' ? 'button secondary' : 'button'} disabled={busy} aria-pressed={step === name} onClick={() => setStep(name)}>
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
              <label htmlFor={`note-${deal.id}`}>{step === 'cancel' ? 'Begründung (geht an den Käufer)' : 'Notiz, z. B. „Push an Ihren Account bei …“ (optional)'}</label>
              <textarea id={`note-${deal.id}`} name="note" rows={3} maxLength={2000} value={note} onChange={(event) => setNote(event.target.value)} />
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
