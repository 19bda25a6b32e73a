// Postausgang: pending and failed mail, notifications and DNS updates with the last error, a page at a time
// ("Weitere laden"); "Erneut senden" queues one again now.
import { useState } from 'react'
import { CONSOLE_PATHS, MAIL_LABEL, outboxPageSchema, type OutboxPage, type OutboxRow } from '../../shared/console-api.ts'
import { callApi, okAnswer, type ApiResult } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatNumber, formatTime } from '../format.ts'

const KIND_LABEL: Record<OutboxRow['kind'], string> = {
  inquiry: 'Anfrage',
  reply: 'Antwort',
  webhook: 'Webhook',
  dns: 'DNS-Update',
  'domain-notice': 'Webhook',
}

const kindOf = (row: OutboxRow) =>
  row.kind === 'webhook'
    ? `Webhook an ${row.target ?? '?'}`
    : row.kind === 'dns'
      ? `DNS-Update an ${row.target ?? '?'}`
      : row.kind === 'domain-notice'
        ? `Webhook an ${row.target ?? '?'} (${row.event ?? '?'})`
        : KIND_LABEL[row.kind]

/** Mail, DNS updates and the daily checks' notifications are numbered apart. */
const resendPath = (row: OutboxRow) =>
  row.kind === 'dns'
    ? `/api/outbox/dns/${row.id}/resend`
    : row.kind === 'domain-notice'
      ? `/api/outbox/domain-notices/${row.id}/resend`
      : `/api/outbox/${row.id}/resend`

/** The pages from the first on, until `rows` are there (or the last page): the list as the owner saw it, anew. */
async function reloadPages(rows: number): Promise<ApiResult<OutboxPage>> {
  let items: OutboxRow[] = []
  let next: string | null = null
  do {
    const result: ApiResult<OutboxPage> = await callApi('GET', next ? `/api/outbox?cursor=${encodeURIComponent(next)}` : '/api/outbox', outboxPageSchema)
    if (result.status === 'error') return result
    items = [...items, ...result.data.items]
    next = result.data.next
  } while (next && items.length < rows)
  return { status: 'success', data: { items, next } }
}

export function Outbox({ initial }: { initial: OutboxPage }) {
  const [items, setItems] = useState(initial.items)
  const [next, setNext] = useState(initial.next)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)

  async function resend(row: OutboxRow) {
    setBusy(`${row.kind}-${row.id}`)
    setError(null)
    const result = await callApi('POST', resendPath(row), okAnswer)
    const reload = result.status === 'success' ? await reloadPages(items.length) : result
    setBusy(null)
    if (reload.status === 'error') return setError(reload.error)
    setItems(reload.data.items)
    setNext(reload.data.next)
  }

  async function loadMore() {
    if (!next) return
    setLoading(true)
    const result = await callApi('GET', `/api/outbox?cursor=${encodeURIComponent(next)}`, outboxPageSchema)
    setLoading(false)
    if (result.status === 'error') return setError(result.error)
    setError(null)
    setItems((current) => {
      const known = new Set(current.map((item) => item.id))
      return [...current, ...result.data.items.filter((item) => !known.has(item.id))]
    })
    setNext(result.data.next)
  }

  return (
    <>
      <h1>Postausgang</h1>
      {error && <ErrorText>{error}</ErrorText>}
      {items.length === 0 ? (
        <p className="empty">Keine ausstehenden oder fehlgeschlagenen Mails.</p>
      ) : (
        <table className="list outbox">
          <thead>
            <tr>
              <th scope="col">Art</th>
              <th scope="col">Domain</th>
              <th scope="col">Status</th>
              <th scope="col">Versuche</th>
              <th scope="col">Letzter Fehler</th>
              <th scope="col">Erstellt</th>
              <th scope="col">Nächster Versuch</th>
              <th scope="col">
                <span className="visually-hidden">Aktionen</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((row) => (
              <tr key={`${row.kind}-${row.id}`}>
                <td data-label="Art">{row.inquiryId === null ? kindOf(row) : <a href={CONSOLE_PATHS.inquiry(row.inquiryId)}>{kindOf(row)}</a>}</td>
                <td data-label="Domain">{row.domain}</td>
                <td data-label="Status">
                  <span className={`badge mail-${row.status}`}>{MAIL_LABEL[row.status]}</span>
                </td>
                <td data-label="Versuche">{formatNumber(row.attempts)}</td>
                <td data-label="Letzter Fehler" className="last-error">
                  {row.lastError ?? '–'}
                </td>
                <td data-label="Erstellt">{formatTime(row.createdAt)}</td>
                <td data-label="Nächster Versuch">{row.status === 'pending' ? formatTime(row.nextAttemptAt) : '–'}</td>
                <td>
                  <button type="button" className="button secondary" disabled={busy !== null} onClick={() => resend(row)}>
                    Erneut senden
                  </button>
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
