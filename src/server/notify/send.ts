// Delivers one notification: the request its preset (or the plain webhook) needs, signed, with a timeout, no
// redirect followed, the answer's body never read. The outbox worker decides from the result what comes next.
import { createHmac } from 'node:crypto'
import { headerText, markdownText, payloadOf, safeJson, slackText, textOf, titleOf, type Notice } from './message.ts'
import { parseTarget, type NotifyTarget } from '../lib/notify-targets.ts'

const SIGNATURE_HEADER = 'x-domain-lander-signature'
const DELIVERY_HEADER = 'x-domain-lander-delivery'

export type NotifyResult = { status: 'sent'; httpStatus: number } | { status: 'retry'; error: string } | { status: 'failed'; error: string }

/** "t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">", as Stripe signs its webhooks. */
export function signatureOf(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')
  return `t=${unixSeconds},v1=${mac}`
}

interface Request {
  method: 'POST' | 'PUT'
  url: string
  headers: Record<string, string>
  body: string
}

/** encodeURIComponent leaves !'()* as they are; a room id's "!" is encoded too, as the Matrix spec's examples do. */
const pathSegment = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

/**
 * What any notification is made of, whatever it is about: an inquiry or deal (message.ts), a listed name's check
 * (domain-notice.ts). `text` takes the preset's escaping for text that came from outside.
 */
export interface NoticeMessage {
  deliveryId: string
  link: string | null
  payload: unknown
  title: string
  text: (outsideText?: (text: string) => string) => string
}

const messageOf = (notice: Notice): NoticeMessage => ({
  deliveryId: notice.deliveryId,
  link: notice.link,
  payload: payloadOf(notice),
  title: titleOf(notice),
  text: (outsideText) => textOf(notice, outsideText),
})

/** The request for this target: its URL, method, headers and body. */
function requestFor(target: NotifyTarget, notice: NoticeMessage): Request {
  const { url } = target
  switch (target.preset) {
    case null:
      return { method: 'POST', url: url.href, headers: JSON_TYPE, body: safeJson(notice.payload) }
    case 'ntfy':
      return {
        method: 'POST',
        url: url.href,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(notice.title),
          tags: 'incoming_envelope',
          ...(notice.link && { click: notice.link }),
        },
        body: notice.text(),
      }
    case 'telegram': {
      const base = url.pathname.replace(/\/sendMessage\/?$|\/$/, '')
      return {
        method: 'POST',
        url: `${url.origin}${base}/sendMessage`,
        headers: JSON_TYPE,
        body: safeJson({ chat_id: url.searchParams.get('chat_id'), text: notice.text(), link_preview_options: { is_disabled: true } }),
      }
    }
    case 'matrix': {
      const segments = url.pathname.split('/').filter(Boolean)
      const room = decodeURIComponent(segments.pop()!)
      const prefix = segments.length ? `/${segments.join('/')}` : ''
      return {
        method: 'PUT',
        url: `${url.origin}${prefix}/_matrix/client/v3/rooms/${pathSegment(room)}/send/m.room.message/${pathSegment(notice.deliveryId)}`,
        headers: { ...JSON_TYPE, authorization: `Bearer ${url.searchParams.get('access_token')}` },
        body: safeJson({ msgtype: 'm.text', body: notice.text() }),
      }
    }
    case 'slack':
      return { method: 'POST', url: url.href, headers: JSON_TYPE, body: safeJson({ text: notice.text(slackText) }) }
    case 'mattermost':
      return { method: 'POST', url: url.href, headers: JSON_TYPE, body: safeJson({ text: notice.text(markdownText) }) }
  }
}

/** 408 and 429 say "later", as 5xx do; any other 4xx (and a redirect) will not change by asking again. */
function resultOf(status: number, statusText: string): NotifyResult {
  if (status >= 200 && status < 300) return { status: 'sent', httpStatus: status }
  const text = `HTTP ${status}${statusText ? ` ${statusText.replace(/[^\x20-\x7e]/g, '').slice(0, 60)}` : ''}`
  if (status === 408 || status === 429 || status >= 500) return { status: 'retry', error: text }
  if (status >= 300 && status < 400) return { status: 'failed', error: `${text}: redirects are not followed; use the address it points to` }
  return { status: 'failed', error: text }
}

/** What went wrong on the way, without the URL (its path or query may hold a token). */
function networkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; cause?: { code?: string; name?: string } }
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
  const code = e?.cause?.code ?? e?.cause?.name
  return code ? `network error: ${code}` : 'network error'
}

export interface SendOptions {
  secret: string | undefined
  timeoutMs: number
  now: number
}

export const sendNotification = (entry: string, notice: Notice, options: SendOptions) => sendMessage(entry, messageOf(notice), options)

export async function sendMessage(entry: string, notice: NoticeMessage, { secret, timeoutMs, now }: SendOptions): Promise<NotifyResult> {
  const parsed = parseTarget(entry)
  if (!parsed.ok) return { status: 'failed', error: `not a valid notification address: ${parsed.error}` }
  if (!secret) return { status: 'failed', error: 'NOTIFY_SECRET is not set: notifications are not sent unsigned' }
  const request = requestFor(parsed.target, notice)
  let response: Response
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: {
        'user-agent': 'domain-lander',
        ...request.headers,
        [DELIVERY_HEADER]: notice.deliveryId,
        [SIGNATURE_HEADER]: signatureOf(secret, request.body, Math.floor(now / 1000)),
      },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    return { status: 'retry', error: networkError(error, timeoutMs) }
  }
  // Only the status counts: the body is never read, however large.
  await response.body?.cancel().catch(() => {})
  return resultOf(response.status, response.statusText)
}
