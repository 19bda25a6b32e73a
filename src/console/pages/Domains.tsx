// Domains: every name of the domains file, searchable and paged; one name edited (or several selected: the price in
// %, the status, listed), a name added or removed. Every change is first shown as what it does to the file (a preview
// on the server), then written with "Speichern", which the server refuses when the file changed since the preview.
// Everything from the file is shown as text (<bdi>), never as markup.
import { useState } from 'react'
import {
  DOMAINS_PAGE_SIZE,
  type DomainEdit,
  type DomainRow,
  type DomainsApplyRequest,
  type DomainsEditReport,
  type DomainsListPage,
  type DomainsPageData,
  domainsEditReportSchema,
  domainsListPageSchema,
} from '../../shared/domains-api.ts'
import { callApi } from '../api.ts'
import { useDomainChecks } from './DomainHealth.tsx'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber } from '../format.ts'
import { TextField } from '../TextField.tsx'
import { DomainsTable } from './domains/DomainsTable.tsx'
import { EntryForm, SelectionForm } from './domains/forms.tsx'
import { NoFile } from './domains/NoFile.tsx'
import { DiffTable, ProblemText } from './domains/Preview.tsx'

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
        <DomainsTable
          rows={list.items}
          selected={selected}
          onToggle={toggle}
          checks={checks}
          onEdit={(row) => setEditing({ kind: 'row', row })}
          onRemove={(row) => void preview([{ op: 'remove', name: row.ascii }])}
        />
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
