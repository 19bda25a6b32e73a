// The forms of the page "Domains": one name edited or added (EntryForm), several selected (SelectionForm). Each
// hands its edits to the page, which asks the server for a preview; nothing is written from here.
import { useState, type FormEvent } from 'react'
import type { DomainEdit, DomainRow, FieldChanges } from '../../../shared/domains-api.ts'
import { ErrorText } from '../../ErrorText.tsx'
import { formatNumber } from '../../format.ts'
import { SelectField, YES_NO } from '../../SelectField.tsx'
import { TextField } from '../../TextField.tsx'
import { AS_DEFAULT, LANGUAGE, PRICE_TYPE, STATUS, UNCHANGED } from './labels.ts'

/** The editable values of a row as the form holds them (text fields as text). */
interface FormValues {
  price: string
  priceType: string
  minOffer: string
  status: string
  language: string
  listed: string
  description: string
}
const formOf = (row: DomainRow | null): FormValues => ({
  price: row?.price === null || row === null ? '' : String(row.price),
  priceType: row?.priceType ?? '',
  minOffer: row?.minOffer === null || row === null ? '' : String(row.minOffer),
  status: row?.status ?? 'available',
  language: row?.language ?? '',
  listed: row === null || row.listed ? 'true' : 'false',
  description: row?.description ?? '',
})

/** What the form changes against the row it started from: only those keys are written. */
function changesOf(before: FormValues, after: FormValues): FieldChanges | string {
  const changes: FieldChanges = {}
  const whole = (text: string, label: string) => {
    const value = text.trim()
    if (value === '') return null
    if (!/^\d{1,10}$/.test(value)) throw new Error(`${label}: bitte eine ganze Zahl ohne Punkt und Komma.`)
    return Number(value)
  }
  try {
    if (after.price !== before.price) changes.price = whole(after.price, 'Preis')
    if (after.minOffer !== before.minOffer) changes.minOffer = whole(after.minOffer, 'Mindestgebot')
  } catch (error) {
    return (error as Error).message
  }
  if (after.priceType !== before.priceType) changes.priceType = (after.priceType || null) as FieldChanges['priceType']
  if (after.status !== before.status) changes.status = after.status as FieldChanges['status']
  if (after.language !== before.language) changes.language = (after.language || null) as FieldChanges['language']
  if (after.listed !== before.listed) changes.listed = after.listed === 'true'
  if (after.description !== before.description) changes.description = after.description === '' ? null : after.description
  return changes
}

export function EntryForm({ row, onPreview, busy }: { row: DomainRow | null; onPreview: (edits: DomainEdit[]) => void; busy: boolean }) {
  const start = formOf(row)
  const [values, setValues] = useState<FormValues>(start)
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const set = (key: keyof FormValues) => (value: string) => setValues({ ...values, [key]: value })
  const id = (key: string) => `domain-${key}`
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const changes = changesOf(row ? start : formOf(null), values)
    if (typeof changes === 'string') return setError(changes)
    setError(null)
    if (row) onPreview([{ op: 'set', name: row.ascii, changes }])
    else onPreview([{ op: 'add', name, changes }])
  }
  return (
    <form className="domain-form" onSubmit={submit} aria-label={row ? `${row.name} bearbeiten` : 'Domain hinzufügen'}>
      <h2>{row ? <bdi>{row.name}</bdi> : 'Domain hinzufügen'}</h2>
      {!row && <TextField id={id('name')} label="Domain" value={name} onChange={setName} required maxLength={300} />}
      <div className="field-row">
        <TextField id={id('price')} label="Preis" inputMode="numeric" value={values.price} onChange={set('price')} />
        <SelectField id={id('price-type')} label="Preisart" value={values.priceType} onChange={set('priceType')} options={PRICE_TYPE} empty={AS_DEFAULT} />
        <TextField id={id('min-offer')} label="Mindestgebot" inputMode="numeric" value={values.minOffer} onChange={set('minOffer')} />
      </div>
      <div className="field-row">
        <SelectField id={id('status')} label="Status" value={values.status} onChange={set('status')} options={STATUS} />
        <SelectField id={id('language')} label="Sprache" value={values.language} onChange={set('language')} options={LANGUAGE} empty={AS_DEFAULT} />
        <SelectField id={id('listed')} label="Gelistet" value={values.listed} onChange={set('listed')} options={YES_NO} />
      </div>
      <div className="field">
        <label htmlFor={id('description')}>Beschreibung</label>
        <textarea
          id={id('description')}
          value={values.description}
          onChange={(event) => set('description')(event.currentTarget.value)}
          maxLength={500}
          rows={2}
        />
      </div>
      {error && <ErrorText>{error}</ErrorText>}
      <button type="submit" className="button" disabled={busy}>
        Vorschau
      </button>
    </form>
  )
}

export function SelectionForm({ names, onPreview, busy }: { names: string[]; onPreview: (edits: DomainEdit[]) => void; busy: boolean }) {
  const [percent, setPercent] = useState('')
  const [status, setStatus] = useState('')
  const [listed, setListed] = useState('')
  const [error, setError] = useState<string | null>(null)
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const edits: DomainEdit[] = []
    const text = percent.trim().replace(',', '.')
    if (text !== '') {
      if (!/^[+-]?\d{1,4}(\.\d{1,2})?$/.test(text) || Number(text) < -99 || Number(text) > 1000)
        return setError('Preisänderung: eine Zahl von -99 bis 1000 (Prozent).')
      edits.push({ op: 'scale', names, percent: Number(text) })
    }
    const changes: FieldChanges = {}
    if (status) changes.status = status as FieldChanges['status']
    if (listed) changes.listed = listed === 'true'
    if (Object.keys(changes).length) for (const name of names) edits.push({ op: 'set', name, changes })
    if (edits.length === 0) return setError('Bitte eine Änderung angeben.')
    setError(null)
    onPreview(edits)
  }
  return (
    <form className="domain-form" onSubmit={submit} aria-label="Ausgewählte ändern">
      <h2>{formatNumber(names.length)} ausgewählt</h2>
      <div className="field-row">
        <TextField
          id="selection-percent"
          label="Preis ändern um (%)"
          inputMode="decimal"
          value={percent}
          onChange={setPercent}
          placeholder="z. B. 10 oder -5"
        />
        <SelectField id="selection-status" label="Status" value={status} onChange={setStatus} options={STATUS} empty={UNCHANGED} />
        <SelectField id="selection-listed" label="Gelistet" value={listed} onChange={setListed} options={YES_NO} empty={UNCHANGED} />
      </div>
      {error && <ErrorText>{error}</ErrorText>}
      <button type="submit" className="button" disabled={busy}>
        Vorschau
      </button>
    </form>
  )
}
