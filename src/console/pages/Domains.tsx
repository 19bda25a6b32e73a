// Domains: every name of the domains file, searchable and paged; one name edited (or several selected: the price in
// %, the status, listed), a name added or removed. Every change is first shown as what it does to the file (a preview
// on the server), then written with "Speichern", which the server refuses when the file changed since the preview.
// Everything from the file is shown as text (<bdi>), never as markup.
import { useState, type FormEvent } from 'react'
import {
  DOMAINS_PAGE_SIZE,
  type DomainDiff,
  type DomainEdit,
  type DomainEditProblem,
  type DomainRow,
  type DomainsApplyRequest,
  type DomainsCreateRequest,
  type DomainsEditReport,
  type DomainsListPage,
  type DomainsPageData,
  domainsCreatedSchema,
  domainsEditReportSchema,
  domainsListPageSchema,
  type EditableField,
  type EntryFields,
  type FieldChanges,
} from '../../shared/domains-api.ts'
import { callApi } from '../api.ts'
import { DomainCheckState, useDomainChecks } from './DomainHealth.tsx'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber } from '../format.ts'
import { SelectField, YES_NO } from '../SelectField.tsx'
import { TextField } from '../TextField.tsx'

const PRICE_TYPE = { fixed: 'Festpreis', negotiable: 'Verhandlungsbasis', 'on-request': 'Preis auf Anfrage' } as const
const STATUS = { available: 'verfügbar', reserved: 'reserviert', sold: 'verkauft' } as const
const LANGUAGE = {
  de: 'Deutsch',
  en: 'Englisch',
  fr: 'Französisch',
  es: 'Spanisch',
  it: 'Italienisch',
  nl: 'Niederländisch',
  pl: 'Polnisch',
  auto: 'nach Browser',
} as const
const AS_DEFAULT = 'wie Vorgabe'
const UNCHANGED = 'unverändert'
const FIELD: Record<EditableField, string> = {
  price: 'Preis',
  priceType: 'Preisart',
  minOffer: 'Mindestgebot',
  currency: 'Währung',
  status: 'Status',
  language: 'Sprache',
  listed: 'Gelistet',
  description: 'Beschreibung',
}

const amount = (value: number | null, currency?: string) => (value === null ? '–' : `${formatNumber(value)}${currency ? ` ${currency}` : ''}`)

function shown(field: EditableField, value: EntryFields[EditableField]): string {
  if (value === null) return '–'
  if (field === 'price' || field === 'minOffer') return formatNumber(value as number)
  if (field === 'priceType') return PRICE_TYPE[value as keyof typeof PRICE_TYPE] ?? String(value)
  if (field === 'status') return STATUS[value as keyof typeof STATUS] ?? String(value)
  if (field === 'language') return LANGUAGE[value as keyof typeof LANGUAGE] ?? String(value)
  if (field === 'listed') return value ? 'ja' : 'nein'
  return String(value)
}

function ProblemText({ problem }: { problem: DomainEditProblem }) {
  switch (problem.kind) {
    case 'name':
      return (
        <>
          „<bdi>{problem.value}</bdi>“ ist kein Domainname.
        </>
      )
    case 'wildcard':
      return (
        <>
          „<bdi>{problem.value}</bdi>“ ist ein Platzhalter; Platzhalter werden in der Datei selbst bearbeitet.
        </>
      )
    case 'unknown':
      return (
        <>
          <bdi>{problem.name}</bdi> steht nicht in der Domains-Datei.
        </>
      )
    case 'exists':
      return (
        <>
          <bdi>{problem.name}</bdi> steht schon in der Domains-Datei.
        </>
      )
    case 'twice':
      return (
        <>
          <bdi>{problem.name}</bdi> wird zweimal geändert (hinzufügen oder entfernen nur allein).
        </>
      )
    case 'no-price':
      return (
        <>
          <bdi>{problem.name}</bdi> hat keinen eigenen Preis; er bleibt unverändert (nur ein Hinweis).
        </>
      )
    case 'domains-file':
      return (
        <>
          Domains-Datei: <bdi>{problem.message}</bdi>
        </>
      )
    case 'refused':
      return (
        <>
          Der Server würde die Domains-Datei danach nicht laden: <bdi>{problem.message}</bdi>
        </>
      )
    case 'changed':
      return <>Die Domains-Datei wurde inzwischen geändert. Bitte die Vorschau neu laden.</>
    case 'busy':
    case 'write':
      return (
        <>
          Die Domains-Datei bleibt, wie sie war: <bdi>{problem.message}</bdi>
        </>
      )
  }
}

const KIND = { added: 'neu', changed: 'geändert', removed: 'entfernt' } as const

function DiffTable({ changes }: { changes: DomainDiff[] }) {
  return (
    <table className="list domains-diff">
      <caption>Änderungen ({formatNumber(changes.length)})</caption>
      <thead>
        <tr>
          <th scope="col">Domain</th>
          <th scope="col">Art</th>
          <th scope="col">Vorher → nachher</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          const fields = (Object.keys(FIELD) as EditableField[]).filter((field) => (change.before?.[field] ?? null) !== (change.after?.[field] ?? null))
          return (
            <tr key={change.name}>
              <th scope="row" data-label="Domain">
                <bdi>{change.name}</bdi>
              </th>
              <td data-label="Art">{KIND[change.kind]}</td>
              <td data-label="Vorher → nachher">
                <ul className="domains-fields">
                  {fields.map((field) => (
                    <li key={field}>
                      {FIELD[field]}: <bdi>{shown(field, change.before?.[field] ?? null)}</bdi> → <bdi>{shown(field, change.after?.[field] ?? null)}</bdi>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

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

function EntryForm({ row, onPreview, busy }: { row: DomainRow | null; onPreview: (edits: DomainEdit[]) => void; busy: boolean }) {
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

function SelectionForm({ names, onPreview, busy }: { names: string[]; onPreview: (edits: DomainEdit[]) => void; busy: boolean }) {
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

function NoFile({ suggestedFile }: { suggestedFile: string }) {
  const [name, setName] = useState('')
  const [created, setCreated] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    const body: DomainsCreateRequest = { name }
    const result = await callApi('POST', '/api/domains/create', domainsCreatedSchema, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setCreated(result.data.file)
  }
  return (
    <>
      <p>
        Dieser Server hat keine Domains-Datei: er zeigt jede Domain, die auf ihn zeigt, mit den Vorgaben. Mit einer Domains-Datei legen Sie fest, welche Domains
        er anbietet, zu welchem Preis und in welchem Status. Die Datei ist YAML (oder JSON) und in docs/domains.md beschrieben; der Server liest sie aus der
        Umgebungsvariablen DOMAINS_FILE.
      </p>
      {created ? (
        <p className="notice-ok" role="status">
          Angelegt: <code>{created}</code>. Setzen Sie nun <code>DOMAINS_FILE={created}</code> (z. B. in der systemd-Unit oder der .env-Datei) und starten Sie
          den Server neu; danach bearbeiten Sie die Domains hier.
        </p>
      ) : (
        <form className="domain-form" onSubmit={create} aria-label="Domains-Datei anlegen">
          <TextField id="first-domain" label="Erste Domain" value={name} onChange={setName} required maxLength={300} placeholder="beispiel.de" />
          <button type="submit" className="button" disabled={busy}>
            Domains-Datei anlegen
          </button>
          <p className="muted">
            Wird angelegt als <code>{suggestedFile}</code>.
          </p>
        </form>
      )}
      {error && <ErrorText>{error}</ErrorText>}
    </>
  )
}

type Editing = { kind: 'row'; row: DomainRow } | { kind: 'add' } | null

export function DomainsPage({ data }: { data: DomainsPageData }) {
  const [list, setList] = useState<DomainsListPage>(data.list)
  const [query, setQuery] = useState(data.list.q)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [editing, setEditing] = useState<Editing>(null)
  const [pending, setPending] = useState<{ edits: DomainEdit[]; report: DomainsEditReport } | null>(null)
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const checks = useDomainChecks(list.items.map((row) => row.ascii))

  if (data.domainsFile === null) {
    return (
      <>
        <h1>Domains</h1>
        <NoFile suggestedFile={data.suggestedFile} />
      </>
    )
  }

  async function load(q: string, offset: number) {
    setBusy(true)
    const result = await callApi('GET', `/api/domains?${new URLSearchParams({ q, offset: String(offset) })}`, domainsListPageSchema)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setError(null)
    setList(result.data)
  }

  async function preview(edits: DomainEdit[]) {
    setBusy(true)
    setError(null)
    setSaved(false)
    const result = await callApi('POST', '/api/domains/preview', domainsEditReportSchema, { edits })
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setPending({ edits, report: result.data })
  }

  async function save() {
    if (!pending) return
    setBusy(true)
    setError(null)
    const body: DomainsApplyRequest = { edits: pending.edits, fingerprint: pending.report.fingerprint }
    const result = await callApi('POST', '/api/domains/apply', domainsEditReportSchema, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setPending(null)
    setEditing(null)
    setSelected(new Set())
    setSaved(true)
    await load(list.q, list.offset)
  }

  const toggle = (ascii: string) => {
    const next = new Set(selected)
    if (next.has(ascii)) next.delete(ascii)
    else next.add(ascii)
    setSelected(next)
  }
  const blocking = pending?.report.problems.some((problem) => problem.kind !== 'no-price') ?? false
  const last = Math.min(list.total, list.offset + list.items.length)

  return (
    <>
      <h1>Domains</h1>
      <p className="muted">
        Die Namen der Domains-Datei <code>{data.domainsFile}</code>. Jede Änderung sehen Sie zuerst als Vorschau; geschrieben wird erst mit „Speichern“.
        Kommentare und alle anderen Zeilen der Datei bleiben, wie sie sind.
      </p>
      <form
        role="search"
        className="filters"
        onSubmit={(event) => {
          event.preventDefault()
          void load(query, 0)
        }}
      >
        <TextField id="domains-q" label="Suchen" type="search" value={query} onChange={setQuery} maxLength={300} />
        <button type="submit" className="button" disabled={busy}>
          Suchen
        </button>
        <button type="button" className="button secondary" onClick={() => setEditing({ kind: 'add' })}>
          Domain hinzufügen
        </button>
      </form>
      <p role="status">
        {list.total === 0 ? 'Keine Domains gefunden.' : `${formatNumber(list.offset + 1)}–${formatNumber(last)} von ${formatNumber(list.total)} Domains`}
      </p>
      {list.items.length > 0 && (
        <table className="list domains-list">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Auswahl</span>
              </th>
              <th scope="col">Domain</th>
              <th scope="col">Preis</th>
              <th scope="col">Preisart</th>
              <th scope="col">Mindestgebot</th>
              <th scope="col">Status</th>
              <th scope="col">Sprache</th>
              <th scope="col">Gelistet</th>
              <th scope="col">Beschreibung</th>
              <th scope="col">Prüfung</th>
              <th scope="col">
                <span className="visually-hidden">Aktionen</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((row) => (
              <tr key={row.ascii}>
                <td>
                  <input type="checkbox" aria-label={`${row.name} auswählen`} checked={selected.has(row.ascii)} onChange={() => toggle(row.ascii)} />
                </td>
                <th scope="row" data-label="Domain">
                  <bdi>{row.name}</bdi>
                </th>
                <td data-label="Preis">{amount(row.price, row.currency)}</td>
                <td data-label="Preisart">{row.priceType ? PRICE_TYPE[row.priceType] : '–'}</td>
                <td data-label="Mindestgebot">{amount(row.minOffer)}</td>
                <td data-label="Status">{STATUS[row.status]}</td>
                <td data-label="Sprache">{row.language ? LANGUAGE[row.language] : '–'}</td>
                <td data-label="Gelistet">{row.listed ? 'ja' : 'nein'}</td>
                <td data-label="Beschreibung">
                  <bdi>{row.description ?? ''}</bdi>
                </td>
                <td data-label="Prüfung">{checks ? <DomainCheckState check={checks.checks.get(row.ascii)} now={checks.now} /> : '–'}</td>
                <td>
                  <button type="button" className="button secondary" aria-label={`${row.name} bearbeiten`} onClick={() => setEditing({ kind: 'row', row })}>
                    Bearbeiten
                  </button>{' '}
                  <button
                    type="button"
                    className="button secondary"
                    aria-label={`${row.name} entfernen`}
                    onClick={() => void preview([{ op: 'remove', name: row.ascii }])}
                  >
                    Entfernen
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Seiten" className="actions">
        <button
          type="button"
          className="button secondary"
          disabled={busy || list.offset === 0}
          onClick={() => void load(list.q, Math.max(0, list.offset - DOMAINS_PAGE_SIZE))}
        >
          Zurück
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={busy || last >= list.total}
          onClick={() => void load(list.q, list.offset + DOMAINS_PAGE_SIZE)}
        >
          Weiter
        </button>
      </nav>
      {selected.size > 0 && <SelectionForm key={[...selected].join(' ')} names={[...selected]} onPreview={(edits) => void preview(edits)} busy={busy} />}
      {editing && (
        <EntryForm
          key={editing.kind === 'row' ? editing.row.ascii : ''}
          row={editing.kind === 'row' ? editing.row : null}
          onPreview={(edits) => void preview(edits)}
          busy={busy}
        />
      )}
      {busy && <p role="status">Wird geprüft …</p>}
      {error && <ErrorText>{error}</ErrorText>}
      {saved && (
        <p className="notice-ok" role="status">
          Gespeichert: die Domains-Datei ist geschrieben und in Kraft.
        </p>
      )}
      {pending && (
        <section aria-label="Vorschau" className="import-report">
          {pending.report.problems.length > 0 && (
            <ul className="import-problems">
              {pending.report.problems.map((problem, i) => (
                <li key={i}>
                  <ProblemText problem={problem} />
                </li>
              ))}
            </ul>
          )}
          {pending.report.changes.length === 0 ? <p className="muted">Nichts zu ändern.</p> : <DiffTable changes={pending.report.changes} />}
          <div className="actions">
            {pending.report.changes.length > 0 && (
              <button type="button" className="button" disabled={busy || blocking} onClick={() => void save()}>
                Speichern
              </button>
            )}
            <button type="button" className="button secondary" onClick={() => setPending(null)}>
              Verwerfen
            </button>
          </div>
        </section>
      )}
    </>
  )
}
