// What a notification says: the signed JSON payload of a plain webhook, and the short German text of each preset.
// Personal data (name, e-mail, message) only with NOTIFY_PERSONAL: a chat service keeps what it is sent.
import { escapeAngles } from '../../shared/html.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import type { InquiryStatus, StoredInquiry } from '../store/types.ts'

export interface Notice {
  /** The outbox row's id: the same on every attempt, so a receiver can drop a repeat. */
  deliveryId: string
  inquiry: StoredInquiry & { status: InquiryStatus }
  /** The inquiry in the console, or null when there is no console. */
  link: string | null
  personal: boolean
}

/** A chat message stays readable: a longer message is cut (the whole one is in the console). */
const TEXT_MESSAGE_MAX = 1500

/**
 * JSON with <, >, & and the two JavaScript line separators escaped as \u sequences: a receiver that pastes the
 * payload into HTML or a script gets the visitor's text as text. JSON.parse reads back the same string.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The plain webhook's body (docs/notifications.md, "The payload"). */
export function payloadOf({ deliveryId, inquiry, link, personal }: Notice) {
  return {
    event: 'inquiry.created',
    delivery: deliveryId,
    id: inquiry.id,
    domain: inquiry.domain,
    domainUnicode: displayHost(inquiry.domain),
    time: new Date(inquiry.createdAt).toISOString(),
    offer: inquiry.offer && { amount: inquiry.offer.amount, currency: inquiry.offer.currency },
    // A purchase at the fixed price (decision 035): the offer is the listed price, and the owner has to confirm it.
    ...(inquiry.checkout && { kind: 'checkout' as const }),
    belowMinimum: inquiry.belowMinimum,
    status: inquiry.status,
    console: link,
    ...(personal && { name: inquiry.name, email: inquiry.email, message: inquiry.message }),
  }
}

/** "Neue Anfrage zu münchen.de" */
export const titleOf = (notice: Notice) => `${notice.inquiry.checkout ? 'Neuer Kauf zum Festpreis' : 'Neue Anfrage'} zu ${displayHost(notice.inquiry.domain)}`

/**
 * The preset's message: "Neue Anfrage zu {domain}: {offer}", the visitor (only with NOTIFY_PERSONAL), the link.
 * `visitorText` makes what the visitor typed inert in the service's markup (Slack's <…>, Mattermost's Markdown).
 */
export function textOf(notice: Notice, visitorText: (text: string) => string = (text) => text): string {
  const { inquiry } = notice
  const offer = inquiry.offer
    ? `${formatPrice(inquiry.offer.amount, inquiry.offer.currency)}${inquiry.belowMinimum ? ' (unter dem Mindestangebot)' : ''}`
    : 'ohne Angebot'
  const lines = [`${titleOf(notice)}: ${offer}`]
  if (notice.personal) {
    const message = inquiry.message.length > TEXT_MESSAGE_MAX ? `${inquiry.message.slice(0, TEXT_MESSAGE_MAX)}…` : inquiry.message
    lines.push(`Von: ${visitorText(inquiry.name)} (${visitorText(inquiry.email)})`, '', visitorText(message))
  }
  if (notice.link) lines.push('', notice.link)
  return lines.join('\n')
}

/** Slack's own escaping: <, > and & make links and mentions (<!channel>), so a visitor's text gets none. */
export const slackText = escapeAngles

/** Markdown's punctuation and @-mentions escaped by a backslash: Mattermost shows them as typed. */
export const markdownText = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~@:&]/g, (char) => `\\${char}`)

/** An HTTP header carries Latin-1 at most: other text goes as an RFC 2047 encoded word, which ntfy decodes. */
export function headerText(text: string): string {
  const safe = text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
  return /^[\x20-\x7e]*$/.test(safe) ? safe : `=?UTF-8?B?${Buffer.from(safe, 'utf8').toString('base64')}?=`
}
