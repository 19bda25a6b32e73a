// The negotiation on an inquiry: Gegenangebot (amount, validity, note), Annehmen, Ablehnen. Each opens a small form
// in the page; sending it mails the visitor through the outbox with the owner's template for the step.
import { useState, type FormEvent } from 'react'
import { CONSOLE_PATHS, NOTE_MAX, type CounterRequest, type DealNoteRequest, type InquiryDetail, inquiryDetailSchema } from '../../shared/console-api.ts'
import { callApi, type ApiResult } from '../api.ts'
import { formatTime } from '../format.ts'
import { PlanFields, planOfferOf, planStateOf } from './PlanFields.tsx'

type Step = 'counter' | 'accept' | 'decline'

/** A checkout at the fixed price (decision 035): confirmed or declined, never countered. */
const CHECKOUT_OPENERS: { step: Step; label: string; submit: string; done: string }[] = [
  { step: 'accept', label: 'Bestätigen', submit: 'Bestätigung senden', done: 'Kauf bestätigt; der Käufer erhält den Link zur Kaufseite.' },
  { step: 'decline', label: 'Ablehnen', submit: 'Absage senden', done: 'Absage gespeichert; sie wird gesendet.' },
]

const OPENERS: { step: Step; label: string; submit: string; done: string }[] = [
  { step: 'counter', label: 'Gegenangebot', submit: 'Gegenangebot senden', done: 'Gegenangebot gespeichert; es wird gesendet.' },
  { step: 'accept', label: 'Annehmen', submit: 'Annahme senden', done: 'Annahme gespeichert; sie wird gesendet.' },
  { step: 'decline', label: 'Ablehnen', submit: 'Ablehnung senden', done: 'Ablehnung gespeichert; sie wird gesendet.' },
]

/** The counter-offer's line: amount and until when it stands, or since when it has run out. */
export function CounterLine({ counter }: { counter: NonNullable<InquiryDetail['counter']> }) {
  const at = <time dateTime={new Date(counter.expiresAt).toISOString()}>{formatTime(counter.expiresAt)}</time>
  return (
    <>
      {counter.formatted} · {counter.expired ? <>abgelaufen am {at}</> : <>gültig bis {at}</>}
    </>
  )
}

export function Negotiation({
  detail,
  busy,
  run,
}: {
  detail: InquiryDetail
  busy: boolean
  /** Sends the step; true when it was stored (the page then shows the new state). */
  run: (call: () => Promise<ApiResult<InquiryDetail>>, done: string) => Promise<boolean>
}) {
  const [open, setOpen] = useState<Step | null>(null)
  const [amount, setAmount] = useState('')
  const [days, setDays] = useState(String(detail.counterDays))
  const [note, setNote] = useState('')
  const [confirmExpired, setConfirmExpired] = useState(false)
  const [plan, setPlan] = useState(() => planStateOf(detail.plan))
  const base = `/api/inquiries/${detail.id}`
  const counterExpired = detail.counter?.expired === true && (detail.status === 'countered' || detail.status === 'expired')
  const openers = detail.checkout ? CHECKOUT_OPENERS : OPENERS
  const opener = openers.find((entry) => entry.step === open)

  function toggle(step: Step) {
    setOpen(open === step ? null : step)
    setNote('')
    setConfirmExpired(false)
    setPlan(planStateOf(detail.plan))
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!open || !opener) return
    const offer = planOfferOf(plan)
    const body: CounterRequest | DealNoteRequest =
      open === 'counter'
        ? { amount, days: Number(days), ...(note && { note }), ...(offer && { plan: offer }) }
        : { ...(note && { note }), ...(open === 'accept' && counterExpired && { confirmExpired }), ...(open === 'accept' && { plan: offer }) }
    const sent = await run(() => callApi('POST', `${base}/${open}`, inquiryDetailSchema, body), opener.done)
    if (sent) {
      setOpen(null)
      setAmount('')
      setNote('')
    }
  }

  return (
    <section aria-labelledby="negotiation-heading" className="negotiation">
      <h2 id="negotiation-heading">{detail.checkout ? 'Kauf zum Festpreis' : 'Verhandlung'}</h2>
      <div className="actions" role="group" aria-label={detail.checkout ? 'Kauf zum Festpreis' : 'Verhandlung'}>
        {openers.map((entry) => (
          <button
            key={entry.step}
            type="button"
            className={open === entry.step ? 'button' : 'button secondary'}
            aria-expanded={open === entry.step}
            aria-controls="negotiation-form"
            disabled={busy || detail.status === 'spam'}
            onClick={() => toggle(entry.step)}
          >
            {entry.label}
          </button>
        ))}
      </div>
      {opener && (
        <form
          id="negotiation-form"
          className="negotiation-form"
          aria-label={opener.label}
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(null)
          }}
        >
          {open === 'counter' && (
            <div className="field-row">
              <div className="field">
                <label htmlFor="counter-amount">Betrag ({detail.currency})</label>
                <input
                  id="counter-amount"
                  name="amount"
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  maxLength={30}
                  autoFocus
                  value={amount}
                  onChange={(event) => setAmount(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="counter-days">Gültig (Tage)</label>
                <input id="counter-days" name="days" type="number" min={1} max={365} required value={days} onChange={(event) => setDays(event.target.value)} />
              </div>
            </div>
          )}
          {open === 'accept' && counterExpired && detail.counter && (
            <div className="confirm">
              <p>
                Das Gegenangebot ({detail.counter.formatted}) ist am {formatTime(detail.counter.expiresAt)} abgelaufen.
              </p>
              <label className="checkbox">
                <input type="checkbox" required checked={confirmExpired} onChange={(event) => setConfirmExpired(event.target.checked)} /> Trotzdem annehmen
              </label>
            </div>
          )}
          {(open === 'counter' || open === 'accept') && <PlanFields state={plan} onChange={setPlan} currency={detail.currency} />}
          <div className="field">
            <label htmlFor="deal-note">Notiz (optional)</label>
            <textarea
              id="deal-note"
              name="note"
              rows={4}
              maxLength={NOTE_MAX}
              autoFocus={open !== 'counter'}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
          <p className="muted">
            Der Text kommt aus der <a href={CONSOLE_PATHS.templates}>Vorlage</a>; die Notiz steht an der Stelle von {'{notiz}'}.
          </p>
          <div className="actions">
            <button type="submit" className="button" disabled={busy || (open === 'counter' && !amount.trim())}>
              {opener.submit}
            </button>
            <button type="button" className="button secondary" onClick={() => setOpen(null)}>
              Abbrechen
            </button>
          </div>
        </form>
      )}
    </section>
  )
}
