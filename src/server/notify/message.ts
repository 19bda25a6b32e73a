// What a notification says: the signed JSON payload of a plain webhook, and the short German text of each preset.
// Personal data (name, e-mail, message) only with NOTIFY_PERSONAL: a chat service keeps what it is sent.
import { escapeAngles } from '../../shared/html.ts'
import { formatMinor } from '../lib/money.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import type { DealEvent, DealState, InquiryStatus, StoredDeal, StoredInquiry } from '../store/types.ts'

export interface Notice {
  /** The outbox row's id: the same on every attempt, so a receiver can drop a repeat. */
  deliveryId: string
  inquiry: StoredInquiry & { status: InquiryStatus }
  /** The inquiry in the console, or null when there is no console. */
  link: string | null
  personal: boolean
  /** A deal's event (deal.*) instead of the new inquiry. */
  deal?: DealNotice
}

/**
 * What a deal's notification may tell: picked field by field from the stored deal, so that neither the transfer code
 * (sealed or not) nor the page's link token can reach a webhook, whatever the deal record holds.
 */
export interface DealNotice {
  event: DealEvent
  /** When the event happened (the outbox row's creation). */
  time: number
  id: number
  reference: string
  status: DealState
  /** Minor units (cents). */
  amount: number
  currency: string
  paymentDueAt: number
  transferDueAt: number | null
  completesAt: number | null
  buyer: { name: string; email: string }
  /** The instalment a rate's `deal.overdue` is about (decision 042). */
  rate?: { number: number; reference: string; amount: number; dueAt: number }
}

export function dealNoticeOf(deal: StoredDeal, event: DealEvent, time: number, rateNumber?: number): DealNotice {
  const rate = rateNumber === undefined ? undefined : deal.plan?.rates.find((r) => r.number === rateNumber)
  return {
    ...(rate && { rate: { number: rate.number, reference: rate.reference, amount: rate.amount, dueAt: rate.dueAt } }),
    event,
    time,
    id: deal.id,
    reference: deal.reference,
    status: deal.status,
    amount: deal.amount,
    currency: deal.currency,
    paymentDueAt: deal.paymentDueAt,
    transferDueAt: deal.transferDueAt,
    completesAt: deal.completesAt,
    buyer: { name: deal.buyer.name, email: deal.buyer.email },
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** The plain webhook's body of a deal's event (docs/notifications.md, "Deal events"). */
function dealPayloadOf({ deliveryId, inquiry, link, personal }: Notice, deal: DealNotice) {
  return {
    event: `deal.${deal.event}`,
    delivery: deliveryId,
    id: deal.id,
    inquiry: inquiry.id,
    domain: inquiry.domain,
    domainUnicode: displayHost(inquiry.domain),
    time: new Date(deal.time).toISOString(),
    reference: deal.reference,
    status: deal.status,
    amount: { minor: deal.amount, currency: deal.currency },
    paymentDueAt: iso(deal.paymentDueAt),
    transferDueAt: iso(deal.transferDueAt),
    completesAt: iso(deal.completesAt),
    console: link,
    ...(deal.rate && {
      rate: {
        number: deal.rate.number,
        reference: deal.rate.reference,
        amount: { minor: deal.rate.amount, currency: deal.currency },
        dueAt: iso(deal.rate.dueAt),
      },
    }),
    ...(personal && { name: deal.buyer.name, email: deal.buyer.email }),
  }
}

const DEAL_TITLE: Record<DealEvent, string> = {
  created: 'Neuer Verkauf',
  paid: 'Zahlung erhalten',
  transferred: 'Übertragen',
  completed: 'Verkauf abgeschlossen',
  overdue: 'Zahlungsfrist verstrichen',
  cancelled: 'Verkauf abgebrochen',
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
export function payloadOf(notice: Notice) {
  if (notice.deal) return dealPayloadOf(notice, notice.deal)
  const { deliveryId, inquiry, link, personal } = notice
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
export const titleOf = (notice: Notice) =>
  notice.deal
    ? `${DEAL_TITLE[notice.deal.event]}: ${displayHost(notice.inquiry.domain)}`
    : `${notice.inquiry.checkout ? 'Neuer Kauf zum Festpreis' : 'Neue Anfrage'} zu ${displayHost(notice.inquiry.domain)}`

/**
 * The preset's message: "Neue Anfrage zu {domain}: {offer}", the visitor (only with NOTIFY_PERSONAL), the link.
 * `visitorText` makes what the visitor typed inert in the service's markup (Slack's <…>, Mattermost's Markdown).
 */
export function textOf(notice: Notice, visitorText: (text: string) => string = (text) => text): string {
  const { inquiry } = notice
  if (notice.deal) {
    const { deal } = notice
    const lines = [
      deal.rate
        ? `${titleOf(notice)} (${deal.rate.number === 0 ? 'Anzahlung' : `Rate ${deal.rate.number}`}, ${deal.rate.reference}, ${formatMinor(deal.rate.amount, deal.currency)})`
        : `${titleOf(notice)} (${deal.reference}, ${formatMinor(deal.amount, deal.currency)})`,
    ]
    if (notice.personal) lines.push(`Käufer: ${visitorText(deal.buyer.name)} (${visitorText(deal.buyer.email)})`)
    if (notice.link) lines.push('', notice.link)
    return lines.join('\n')
  }
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
