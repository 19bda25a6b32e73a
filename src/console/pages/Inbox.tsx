// Posteingang: filters (a GET form to "/"), the list newest first, "Weitere laden", and the keyboard:
// j/k select, Enter opens, e archives, / searches.
import { useEffect, useRef, useState } from 'react'
import {
  CONSOLE_PATHS,
  INQUIRY_STATUSES,
  MAIL_LABEL,
  STATUS_LABEL,
  inboxPageSchema,
  inquiryDetailSchema,
  type InboxPage,
  type InboxQuery,
  type InboxRow,
} from '../../shared/console-api.ts'
import { callApi, go } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { DayRangeFields, FilterForm } from '../FilterForm.tsx'
import { formatAge, formatTime } from '../format.ts'
import { filterParams, withParams } from '../query.ts'

interface Props {
  query: InboxQuery
  data: InboxPage
  now: number
}

/** Keys typed into a field are text, not commands. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

export function Inbox({ query, data, now }: Props) {
  const [items, setItems] = useState(data.items)
  const [next, setNext] = useState(data.next)
  const [selected, setSelected] = useState(-1)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const searchRef = useRef<HTMLInputElement>(null)
  const selectedRowRef = useRef<HTMLTableRowElement>(null)
  const filters = filterParams(query)

  async function loadMore() {
    if (!next) return
    setLoading(true)
    const params = filterParams(query)
    params.set('cursor', next)
    const result = await callApi('GET', withParams('/api/inbox', params), inboxPageSchema)
    setLoading(false)
    if (result.status === 'error') return setError(result.error)
    setError(null)
    setItems((current) => {
      const known = new Set(current.map((row) => row.id))
      return [...current, ...result.data.items.filter((row) => !known.has(row.id))]
    })
    setNext(result.data.next)
  }

  async function archive(row: InboxRow) {
    const result = await callApi('POST', `/api/inquiries/${row.id}/action`, inquiryDetailSchema, { action: 'archive' })
    if (result.status === 'error') return setError(result.error)
    setError(null)
    if (query.status === 'archived') {
      setItems((current) => current.map((item) => (item.id === row.id ? { ...item, status: result.data.status } : item)))
    } else {
      setItems((current) => current.filter((item) => item.id !== row.id))
      setSelected((index) => Math.min(index, items.length - 2))
    }
  }

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return
      const row = items[selected]
      switch (event.key) {
        case 'j':
          setSelected(Math.min(selected + 1, items.length - 1))
          break
        case 'k':
          setSelected(Math.max(selected - 1, 0))
          break
        case 'Enter':
          if (!row) return
          go(CONSOLE_PATHS.inquiry(row.id))
          break
        case 'e':
          if (!row) return
          void archive(row)
          break
        case '/':
          searchRef.current?.focus()
          break
        default:
          return
      }
      event.preventDefault()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  })

  useEffect(() => {
    selectedRowRef.current?.scrollIntoView({ block: 'nearest' })
  }, [selected])

  return (
    <>
      <h1>Posteingang</h1>
      <FilterForm path={CONSOLE_PATHS.inbox}>
        <div className="field">
          <label htmlFor="filter-domain">Domain</label>
          <select id="filter-domain" name="domain" defaultValue={query.domain ?? ''}>
            <option value="">Alle Domains</option>
            {data.domains.map((domain) => (
              <option key={domain.ascii} value={domain.ascii}>
                {domain.display}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-status">Status</label>
          <select id="filter-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">Alle</option>
            {INQUIRY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABEL[status]}
              </option>
            ))}
          </select>
        </div>
        <DayRangeFields idPrefix="filter" since={query.since} until={query.until} />
        <div className="field grow">
          <label htmlFor="filter-q">Suche</label>
          <input id="filter-q" name="q" type="search" placeholder="Suchen" defaultValue={query.q ?? ''} ref={searchRef} />
        </div>
      </FilterForm>

      <p className="toolbar">
        <a href={withParams('/api/export', new URLSearchParams([['format', 'csv'], ...filters]))}>Export CSV</a>
        <a href={withParams('/api/export', new URLSearchParams([['format', 'json'], ...filters]))}>Export JSON</a>
        <span className="muted keys">Tastatur: j/k auswählen, Enter öffnen, e archivieren, / suchen</span>
      </p>

      {error && <ErrorText>{error}</ErrorText>}

      {items.length === 0 ? (
        <p className="empty">Keine Anfragen.</p>
      ) : (
        <table className="list inbox">
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">Name</th>
              <th scope="col">E-Mail</th>
              <th scope="col">Nachricht</th>
              <th scope="col">Angebot</th>
              <th scope="col">Alter</th>
              <th scope="col">Status</th>
              <th scope="col">Mail</th>
            </tr>
          </thead>
          <tbody>
            {items.map((row, index) => (
              <tr
                key={row.id}
                className={index === selected ? 'selected' : undefined}
                aria-current={index === selected ? 'true' : undefined}
                ref={index === selected ? selectedRowRef : undefined}
              >
                <td data-label="Domain">{row.domain}</td>
                <td data-label="Name">
                  <a href={CONSOLE_PATHS.inquiry(row.id)}>
                    <bdi className="clamp">{row.name || '(ohne Namen)'}</bdi>
                  </a>
                </td>
                <td data-label="E-Mail">
                  <bdi className="clamp">{row.email}</bdi>
                </td>
                <td data-label="Nachricht" className="first-line">
                  <bdi className="clamp">{row.firstLine}</bdi>
                </td>
                <td data-label="Angebot">{row.offer ?? '–'}</td>
                <td data-label="Alter">
                  <time dateTime={new Date(row.createdAt).toISOString()} title={formatTime(row.createdAt)}>
                    {formatAge(row.createdAt, now)}
                  </time>
                </td>
                <td data-label="Status">
                  <span className={`badge status-${row.status}`}>{STATUS_LABEL[row.status]}</span>
                </td>
                <td data-label="Mail">
                  <span className={`badge mail-${row.mail ?? 'none'}`}>{row.mail ? MAIL_LABEL[row.mail] : 'nicht gesendet'}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {next && (
        <p className="more">
          <button type="button" className="button secondary" onClick={loadMore} disabled={loading}>
            Weitere laden
          </button>
        </p>
      )}
    </>
  )
}
