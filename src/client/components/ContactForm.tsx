import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react'
import {
  FIELD,
  LIMIT,
  checkContact,
  type ContactSuccess,
  type FieldErrors,
  type VisibleField,
} from '../../shared/contact.ts'
import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'success' }
  | { kind: 'invalid'; message: string }
  | { kind: 'failed'; message: string }

type Values = Record<VisibleField, string>
const EMPTY: Values = { [FIELD.name]: '', [FIELD.email]: '', [FIELD.message]: '', [FIELD.offer]: '' }

function initialStatus(outcome: PageProps['outcome']): Status {
  if (!outcome) return { kind: 'idle' }
  if (outcome.status === 'success') return { kind: 'success' }
  return { kind: outcome.status, message: outcome.message }
}

const isSuccess = (body: unknown): body is ContactSuccess =>
  typeof body === 'object' && body !== null && (body as ContactSuccess).ok === true &&
  typeof (body as ContactSuccess).token === 'string' && typeof (body as ContactSuccess).hash === 'string'

export function ContactForm(props: Pick<PageProps, 'token' | 'hash' | 'outcome' | 'values' | 'offer'>) {
  const [values, setValues] = useState<Values>({ ...EMPTY, ...props.values })
  const [credentials, setCredentials] = useState({ token: props.token, hash: props.hash })
  const [errors, setErrors] = useState<FieldErrors>(props.outcome?.status === 'invalid' ? (props.outcome.fieldErrors ?? {}) : {})
  const [status, setStatus] = useState<Status>(() => initialStatus(props.outcome))
  const [attempted, setAttempted] = useState(props.outcome?.status === 'invalid')
  // Without JavaScript the browser's own validation guards the native post; once the script runs, it takes over.
  const [scripted, setScripted] = useState(false)
  useEffect(() => setScripted(true), [])

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const field = event.target.name as VisibleField
    const next = { ...values, [field]: event.target.value }
    setValues(next)
    // After a failed attempt every change is checked again, so a hint disappears as soon as the value is right.
    if (attempted || errors[field]) {
      const check = checkContact({ ...next, [FIELD.token]: credentials.token, [FIELD.hash]: credentials.hash })
      setErrors((current) => ({ ...current, [field]: check.status === 'invalid' ? check.fieldErrors[field] : undefined }))
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (status.kind === 'sending') return
    const form = event.currentTarget
    const payload = Object.fromEntries(new FormData(form)) as Record<string, string>
    if (!props.offer) delete payload[FIELD.offer]
    const check = checkContact(payload)
    if (check.status === 'invalid') {
      setAttempted(true)
      setErrors(check.fieldErrors)
      setStatus({ kind: 'invalid', message: TEXT.invalid })
      const first = Object.keys(check.fieldErrors)[0]
      if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus()
      return
    }
    setErrors({})
    setStatus({ kind: 'sending' })
    try {
      const response = await fetch(form.getAttribute('action') ?? '/api/contact', {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      })
      const body: unknown = await response.json().catch(() => null)
      // Success only on a 200 with the server's confirmation; the seed's form showed success without looking.
      if (response.status === 200 && isSuccess(body)) {
        form.reset()
        setValues(EMPTY)
        setAttempted(false)
        setCredentials({ token: body.token, hash: body.hash })
        setStatus({ kind: 'success' })
      } else {
        setStatus({ kind: 'failed', message: TEXT.failed })
      }
    } catch {
      setStatus({ kind: 'failed', message: TEXT.failed })
    }
  }

  const statusText =
    status.kind === 'success' ? TEXT.success : status.kind === 'invalid' || status.kind === 'failed' ? status.message : ''
  const hintId = (field: VisibleField) => `${field}-hint`
  const describedBy = (field: VisibleField) => (errors[field] ? hintId(field) : undefined)
  const hint = (field: VisibleField) =>
    errors[field] ? (
      <p className="hint" id={hintId(field)}>
        {errors[field]}
      </p>
    ) : null

  return (
    <form
      className="contact"
      method="post"
      action="/api/contact"
      noValidate={scripted}
      onSubmit={onSubmit}
    >
      <div className="field">
        <label htmlFor="contact-name">{TEXT.labelName}</label>
        <input
          id="contact-name"
          name={FIELD.name}
          type="text"
          autoComplete="name"
          required
          maxLength={LIMIT.name}
          value={values[FIELD.name]}
          onChange={onChange}
          aria-invalid={errors[FIELD.name] ? true : undefined}
          aria-describedby={describedBy(FIELD.name)}
        />
        {hint(FIELD.name)}
      </div>
      <div className="ohnobee" hidden aria-hidden="true">
        <label>
          {TEXT.labelName}
          <input name={FIELD.nameDecoy} className="ohnobee" type="text" tabIndex={10} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="field">
        <label htmlFor="contact-email">{TEXT.labelEmail}</label>
        <input
          id="contact-email"
          name={FIELD.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={LIMIT.email}
          value={values[FIELD.email]}
          onChange={onChange}
          aria-invalid={errors[FIELD.email] ? true : undefined}
          aria-describedby={describedBy(FIELD.email)}
        />
        {hint(FIELD.email)}
      </div>
      <div className="ohnobee" hidden aria-hidden="true">
        <label>
          {TEXT.labelEmail}
          <input name={FIELD.emailDecoy} className="ohnobee" type="email" tabIndex={10} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="field">
        <label htmlFor="contact-message">{TEXT.labelMessage}</label>
        <textarea
          id="contact-message"
          name={FIELD.message}
          rows={8}
          required
          maxLength={LIMIT.message}
          value={values[FIELD.message]}
          onChange={onChange}
          aria-invalid={errors[FIELD.message] ? true : undefined}
          aria-describedby={describedBy(FIELD.message)}
        />
        {hint(FIELD.message)}
      </div>
      {props.offer && (
        <div className="field">
          <label htmlFor="contact-offer">{TEXT.labelOffer(props.offer.currency)}</label>
          <input
            id="contact-offer"
            name={FIELD.offer}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={30}
            value={values[FIELD.offer]}
            onChange={onChange}
            aria-invalid={errors[FIELD.offer] ? true : undefined}
            aria-describedby={errors[FIELD.offer] ? hintId(FIELD.offer) : 'contact-offer-minimum'}
          />
          <p className="note" id="contact-offer-minimum">
            {TEXT.offerMinimum(props.offer.minimum)}
          </p>
          {hint(FIELD.offer)}
        </div>
      )}
      <input type="hidden" name={FIELD.token} value={credentials.token} />
      <input type="hidden" name={FIELD.hash} value={credentials.hash} />
      <div className="actions">
        <button type="submit" value={TEXT.submit} disabled={status.kind === 'sending'} aria-busy={status.kind === 'sending' || undefined}>
          {TEXT.submit}
        </button>
        <div
          className={`status status-${status.kind}`}
          role="status"
          aria-live="polite"
          aria-atomic="true"
        >
          {statusText}
        </div>
      </div>
    </form>
  )
}
