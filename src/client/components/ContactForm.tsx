import { useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { FIELD, LIMIT, checkContact, type ContactSuccess, type FieldErrors, type VisibleField } from '../../shared/contact.ts'
import { textsOf } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'success' } | { kind: 'invalid'; message: string } | { kind: 'failed'; message: string }

type Values = Record<VisibleField, string>
const EMPTY: Values = { [FIELD.name]: '', [FIELD.email]: '', [FIELD.message]: '', [FIELD.offer]: '' }

function initialStatus(outcome: PageProps['outcome']): Status {
  if (!outcome) return { kind: 'idle' }
  if (outcome.status === 'success') return { kind: 'success' }
  return { kind: outcome.status, message: outcome.message }
}

const isSuccess = (body: unknown): body is ContactSuccess =>
  typeof body === 'object' &&
  body !== null &&
  (body as ContactSuccess).ok === true &&
  typeof (body as ContactSuccess).token === 'string' &&
  typeof (body as ContactSuccess).hash === 'string'

export function ContactForm(props: Pick<PageProps, 'token' | 'hash' | 'outcome' | 'values' | 'offer' | 'verify' | 'language'>) {
  const text = textsOf(props.language)
  const [values, setValues] = useState<Values>({ ...EMPTY, ...props.values })
  const [credentials, setCredentials] = useState({ token: props.token, hash: props.hash })
  const [errors, setErrors] = useState<FieldErrors>(props.outcome?.status === 'invalid' ? (props.outcome.fieldErrors ?? {}) : {})
  const [status, setStatus] = useState<Status>(() => initialStatus(props.outcome))
  const [attempted, setAttempted] = useState(props.outcome?.status === 'invalid')
  // Without JavaScript the browser's own validation guards the native post; once the script runs, it takes over.
  const [scripted, setScripted] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  // Layout effects: they run right after hydration, before the browser paints or handles the next event, so the
  // form is taken over (and a held "Senden" sent) a frame or two sooner than with passive effects.
  useLayoutEffect(() => {
    const form = formRef.current
    if (!form) return
    // React is loaded when the visitor turns to the form (loader.ts), often while they type: what is in the fields
    // now is theirs. Hydration leaves it in the DOM, and this makes it the state, so no render puts the server's
    // (empty) values back.
    const typed: Partial<Values> = {}
    for (const field of Object.keys(EMPTY) as VisibleField[]) {
      const element = form.elements.namedItem(field)
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) typed[field] = element.value
    }
    setValues((current) => ({ ...current, ...typed }))
    setScripted(true)
  }, [])
  useLayoutEffect(() => {
    if (!scripted) return
    // Now that the form has rendered with what was typed, the loader sends a "Senden" pressed before again. The
    // event's name is written out in loader.ts too.
    formRef.current?.dispatchEvent(new Event('lander:hydrated'))
    document.documentElement.dataset.hydrated = 'true'
  }, [scripted])

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const field = event.target.name as VisibleField
    const next = { ...values, [field]: event.target.value }
    setValues(next)
    // After a failed attempt every change is checked again, so a hint disappears as soon as the value is right.
    if (attempted || errors[field]) {
      const check = checkContact({ ...next, [FIELD.token]: credentials.token, [FIELD.hash]: credentials.hash }, props.language)
      setErrors((current) => ({ ...current, [field]: check.status === 'invalid' ? check.fieldErrors[field] : undefined }))
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (status.kind === 'sending') return
    const form = event.currentTarget
    const payload = Object.fromEntries(new FormData(form)) as Record<string, string>
    if (!props.offer) delete payload[FIELD.offer]
    const check = checkContact(payload, props.language)
    if (check.status === 'invalid') {
      setAttempted(true)
      setErrors(check.fieldErrors)
      setStatus({ kind: 'invalid', message: text.invalid })
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
      // Success only on a 200 with the server's confirmation; the original form showed success without looking.
      if (response.status === 200 && isSuccess(body)) {
        form.reset()
        setValues(EMPTY)
        setAttempted(false)
        setCredentials({ token: body.token, hash: body.hash })
        setStatus({ kind: 'success' })
      } else {
        setStatus({ kind: 'failed', message: text.failed })
      }
    } catch {
      setStatus({ kind: 'failed', message: text.failed })
    }
  }

  const statusText =
    status.kind === 'success' ? (props.verify ? text.successVerify : text.success) : status.kind === 'invalid' || status.kind === 'failed' ? status.message : ''
  const fieldProps = (field: VisibleField) => ({ field, value: values[field], error: errors[field], onChange })

  return (
    <form ref={formRef} className="contact" method="post" action="/api/contact" noValidate={scripted} onSubmit={onSubmit}>
      <Field {...fieldProps(FIELD.name)} id="contact-name" label={text.labelName} type="text" autoComplete="name" required maxLength={LIMIT.name} />
      <Decoy name={FIELD.nameDecoy} label={text.labelName} type="text" />
      <Field
        {...fieldProps(FIELD.email)}
        id="contact-email"
        label={text.labelEmail}
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        maxLength={LIMIT.email}
      />
      <Decoy name={FIELD.emailDecoy} label={text.labelEmail} type="email" />
      <Field {...fieldProps(FIELD.message)} id="contact-message" label={text.labelMessage} rows={8} required maxLength={LIMIT.message} />
      {props.offer && (
        <Field
          {...fieldProps(FIELD.offer)}
          id="contact-offer"
          label={text.labelOffer(props.offer.currency)}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={30}
          note={{ id: 'contact-offer-minimum', text: text.offerMinimum(props.offer.minimum) }}
        />
      )}
      <input type="hidden" name={FIELD.token} value={credentials.token} />
      <input type="hidden" name={FIELD.hash} value={credentials.hash} />
      <div className="actions">
        <button type="submit" value={text.submit} disabled={status.kind === 'sending'} aria-busy={status.kind === 'sending' || undefined}>
          {text.submit}
        </button>
        <div className={`status status-${status.kind}`} role="status" aria-live="polite" aria-atomic="true">
          {statusText}
        </div>
      </div>
    </form>
  )
}

interface FieldProps {
  field: VisibleField
  id: string
  label: string
  value: string
  error: string | undefined
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void
  /** A text area of this many rows instead of a one-line input. */
  rows?: number
  type?: 'text' | 'email'
  autoComplete?: string
  inputMode?: 'email' | 'numeric'
  required?: boolean
  maxLength: number
  /** A standing explanation below the field (shown until an error takes its place for screen readers). */
  note?: { id: string; text: string }
}

/** A labelled field with its error hint, wired for assistive technology. */
function Field({ field, id, label, value, error, onChange, rows, note, ...attributes }: FieldProps) {
  const hintId = `${field}-hint`
  const shared = {
    id,
    name: field,
    value,
    onChange,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? hintId : note?.id,
    ...attributes,
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows ? <textarea rows={rows} {...shared} /> : <input {...shared} />}
      {note && (
        <p className="note" id={note.id}>
          {note.text}
        </p>
      )}
      {error && (
        <p className="hint" id={hintId}>
          {error}
        </p>
      )}
    </div>
  )
}

/** A spam trap: in the markup for bots, invisible and unreachable for people (hidden, aria-hidden, no tab stop). */
function Decoy({ name, label, type }: { name: string; label: string; type: 'text' | 'email' }) {
  return (
    <div className="ohnobee" hidden aria-hidden="true">
      <label>
        {label}
        <input name={name} className="ohnobee" type={type} tabIndex={10} autoComplete="off" defaultValue="" />
      </label>
    </div>
  )
}
