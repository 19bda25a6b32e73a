// One inquiry: the whole message as text, the offer against price and minimum, the owner's mail, the
// conversation, a reply form and the actions (archive, spam, delete after an in-page confirmation).
import { ConfirmErase } from '../ConfirmErase.tsx'
import { useState, type FormEvent } from 'react'
import {
  CONSOLE_PATHS,
  REPLY_KIND_LABEL,
  REPLY_MAX,
  STATUS_LABEL,
  inquiryDetailSchema,
  type InquiryAction,
  type InquiryDetail,
  type ReplyRequest,
} from '../../shared/console-api.ts'
import { LANGUAGE_NAME } from '../../shared/language.ts'
import { callApi, go, okAnswer, type ApiResult } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'
import { Delivery } from './Delivery.tsx'
import { CounterLine, Negotiation } from './Negotiation.tsx'
import { DealFacts, DealSteps } from './DealSteps.tsx'

function offerLine(detail: InquiryDetail): string {
  const parts = [detail.offer ? `Angebot ${detail.offer.formatted}` : 'Kein Angebot']
  if (detail.price) parts.push(`Preis ${detail.price}`)
  if (detail.minimum) parts.push(`Mindestangebot ${detail.minimum}`)
  return parts.join(' · ')
}

export function InquiryPage({ initial }: { initial: InquiryDetail }) {
  const [detail, setDetail] = useState(initial)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [reply, setReply] = useState('')
  const [confirming, setConfirming] = useState(false)
  const base = `/api/inquiries/${detail.id}`

  async function run(call: () => Promise<{ status: 'success' | 'error'; error?: string } & object>, done?: string) {
    setBusy(true)
    setError(null)
    setNotice(null)
    const result = await call()
    setBusy(false)
    if (result.status === 'error') setError(result.error ?? null)
    else if (done) setNotice(done)
    return result.status === 'success'
  }

  const act = (action: InquiryAction) =>
    run(async () => {
      const result = await callApi('POST', `${base}/action`, inquiryDetailSchema, { action })
      if (result.status === 'success') setDetail(result.data)
      return result
    })

  const step = (call: () => Promise<ApiResult<InquiryDetail>>, done: string) =>
    run(async () => {
      const result = await call()
      if (result.status === 'success') setDetail(result.data)
      return result
    }, done)

  async function sendReply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const body: ReplyRequest = { body: reply }
    await run(async () => {
      const result = await callApi('POST', `${base}/reply`, inquiryDetailSchema, body)
      if (result.status === 'success') {
        setDetail(result.data)
        setReply('')
      }
      return result
    }, 'Antwort gespeichert; sie wird gesendet.')
  }

  async function erase() {
    await run(async () => {
      const result = await callApi('DELETE', base, okAnswer)
      if (result.status === 'success') go(CONSOLE_PATHS.inbox)
      return result
    })
  }

  const archived = detail.status === 'archived'
  const spam = detail.status === 'spam'

  return (
    <article className="inquiry">
      <p className="back">
        <a href={CONSOLE_PATHS.inbox}>← Posteingang</a>
      </p>
      <h1>
        Anfrage zu <span className="domain-name">{detail.domain}</span>
      </h1>
      <dl className="facts">
        <dt>Name</dt>
        <dd>
          <bdi>{detail.name}</bdi>
        </dd>
        <dt>E-Mail</dt>
        <dd>
          <bdi>{detail.email}</bdi>
        </dd>
        <dt>Domain</dt>
        <dd>{detail.domain}</dd>
        <dt>Sprache</dt>
        <dd>{LANGUAGE_NAME[detail.language]}</dd>
        <dt>Eingang</dt>
        <dd>
          <time dateTime={new Date(detail.createdAt).toISOString()}>{formatTime(detail.createdAt)}</time>
        </dd>
        <dt>Status</dt>
        <dd>
          <span className={`badge status-${detail.status}`}>{STATUS_LABEL[detail.status]}</span>
          {detail.spamReason && <span className="muted"> · Spam-Grund: {detail.spamReason}</span>}
        </dd>
        {detail.counter && (
          <>
            <dt>Gegenangebot</dt>
            <dd>
              <CounterLine counter={detail.counter} />
            </dd>
          </>
        )}
        <dt>Angebot</dt>
        <dd>
          {offerLine(detail)}
          {detail.belowMinimum && <span className="badge below-minimum">unter dem Mindestangebot</span>}
        </dd>
        <dt>Mail an dich</dt>
        <dd>
          <Delivery mail={detail.ownerMail} />
        </dd>
      </dl>

      <h2>Nachricht</h2>
      <div className="message">
        <bdi>{detail.message}</bdi>
      </div>

      <div className="actions" role="group" aria-label="Aktionen">
        <button type="button" className="button secondary" disabled={busy} onClick={() => act(archived ? 'unarchive' : 'archive')}>
          {archived ? 'Wiederherstellen' : 'Archivieren'}
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={() => act(spam ? 'not-spam' : 'spam')}>
          {spam ? 'Kein Spam' : 'Als Spam markieren'}
        </button>
        <button type="button" className="button danger" disabled={busy} onClick={() => setConfirming(true)}>
          Löschen
        </button>
      </div>
      {confirming && (
        <ConfirmErase id="confirm-delete" question="Anfrage endgültig löschen?" busy={busy} onConfirm={erase} onCancel={() => setConfirming(false)}>
          Die Anfrage, ihre Antworten und ihre Mails werden gelöscht. Das lässt sich nicht rückgängig machen.
        </ConfirmErase>
      )}
      <Negotiation detail={detail} busy={busy} run={step} />
      {detail.deal && (
        <section aria-labelledby="deal-heading" className="deal">
          <h2 id="deal-heading">Verkauf</h2>
          <DealFacts deal={detail.deal} />
          <DealSteps deal={detail.deal} onChange={(deal) => setDetail({ ...detail, deal })} />
        </section>
      )}
      {error && <ErrorText>{error}</ErrorText>}
      {notice && (
        <p className="notice-ok" role="status">
          {notice}
        </p>
      )}

      <section aria-labelledby="replies-heading">
        <h2 id="replies-heading">Antworten</h2>
        {detail.replies.length === 0 ? (
          <p className="muted">Noch keine Antwort.</p>
        ) : (
          <ol className="replies">
            {detail.replies.map((item) => (
              <li key={item.id} className="reply">
                <p className="reply-meta">
                  <span className={`badge reply-${item.kind}`}>{REPLY_KIND_LABEL[item.kind]}</span>
                  {item.amount && <> {item.amount}</>} · <time dateTime={new Date(item.createdAt).toISOString()}>{formatTime(item.createdAt)}</time> ·{' '}
                  <Delivery mail={item.mail} />
                </p>
                <div className="message">{item.body}</div>
              </li>
            ))}
          </ol>
        )}
        <form className="reply-form" onSubmit={sendReply}>
          <div className="field">
            <label htmlFor="reply">Antwort</label>
            <textarea id="reply" name="body" rows={8} required maxLength={REPLY_MAX} value={reply} onChange={(event) => setReply(event.target.value)} />
          </div>
          <button type="submit" className="button" disabled={busy || !reply.trim()}>
            Senden
          </button>
        </form>
      </section>
    </article>
  )
}
