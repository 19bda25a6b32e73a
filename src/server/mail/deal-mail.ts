// The mails of a negotiation to the visitor: a counter-offer, an acceptance, a refusal. Their text comes from the
// owner's template for the step (or the default below), filled in once when the owner acts and stored as the
// reply's body; the outbox only wraps it (subject, threading, the visitor's quoted message).
import type { SendMailOptions } from 'nodemailer'
import type { DealKind, StoredInquiry } from '../store/types.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import { composeReplyMail, type MailAddresses } from './compose.ts'

export const DEAL_KINDS: readonly DealKind[] = ['counter', 'accept', 'decline']

export const DEFAULT_TEMPLATES: Record<DealKind, string> = {
  counter: `Guten Tag,

vielen Dank für Ihr Interesse an {domain}.

Ich biete Ihnen die Domain für {betrag} an. Dieses Angebot gilt bis {frist}.

{notiz}

Wenn Sie einverstanden sind, antworten Sie einfach auf diese Mail.

Mit freundlichen Grüßen`,
  accept: `Guten Tag,

vielen Dank für Ihr Angebot: Ich nehme es an und verkaufe Ihnen {domain}.
Vereinbarter Betrag: {betrag}

{notiz}

Alles Weitere (Zahlung, Übertragung der Domain) finden Sie auf Ihrer persönlichen Kaufseite:
{link}

Bei Fragen antworten Sie einfach auf diese Mail.

Mit freundlichen Grüßen`,
  decline: `Guten Tag,

vielen Dank für Ihr Interesse an {domain}. Leider kann ich Ihr Angebot nicht annehmen.

{notiz}

Mit freundlichen Grüßen`,
}

/** The placeholders each template may use; the ones it must use, so that no mail leaves without its point. */
export const PLACEHOLDERS: Record<DealKind, readonly string[]> = {
  counter: ['domain', 'betrag', 'frist', 'notiz'],
  accept: ['domain', 'betrag', 'notiz', 'link'],
  decline: ['domain', 'notiz'],
}
const REQUIRED: Record<DealKind, readonly string[]> = { counter: ['betrag', 'frist'], accept: [], decline: [] }

export const DEAL_LABEL: Record<DealKind, string> = { counter: 'Gegenangebot', accept: 'Annahme', decline: 'Ablehnung' }

export const TEMPLATE_MAX = 5000

/** Anything between braces, without spaces or braces in it, is read as a placeholder. */
const PLACEHOLDER = /\{([^{}\s]*)\}/g

const list = (names: readonly string[]) => names.map((name) => `{${name}}`).join(', ')

/** Why the owner's template cannot be used, in German, or null when it can. */
export function templateProblem(kind: DealKind, text: string): string | null {
  if (text.trim() === '') return 'Die Vorlage ist leer.'
  if (text.length > TEMPLATE_MAX) return `Die Vorlage ist zu lang (höchstens ${TEMPLATE_MAX} Zeichen).`
  const used = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)
  const unknown = [...new Set(used.filter((name) => !PLACEHOLDERS[kind].includes(name)))]
  if (unknown.length > 0) {
    return `Unbekannter Platzhalter ${list(unknown)} in der Vorlage „${DEAL_LABEL[kind]}“. Erlaubt sind: ${list(PLACEHOLDERS[kind])}.`
  }
  const missing = REQUIRED[kind].filter((name) => !used.includes(name))
  if (missing.length > 0) return `Die Vorlage „${DEAL_LABEL[kind]}“ braucht ${list(missing)}.`
  return null
}

const berlinDeadline = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' })

/** "8. November 2026 um 13:00 Uhr": the end of a counter-offer as the visitor reads it. */
export const formatDeadline = (ms: number) => `${berlinDeadline.format(new Date(ms))} Uhr`

/**
 * Carriage returns and control characters (an escape sequence, a NUL) are taken out of the owner's note: the mail is
 * plain text, and what a terminal or a mail client would act on has no place in it. Line breaks and tabs stay.
 */
const cleanNote = (note: string) =>
  note
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, '')
    .trim()

export interface DealValues {
  /** ASCII form; shown in Unicode. */
  domain: string
  amount: number | null
  currency: string
  expiresAt?: number
  note: string
  /** The deal page (acceptance); empty when the acceptance made no deal. */
  link?: string
}

/** The mail's text: each placeholder filled in once (a note that contains "{betrag}" stays as it was typed). */
export function renderDealText(kind: DealKind, template: string, values: DealValues): string {
  const filled: Record<string, string> = {
    domain: displayHost(values.domain),
    betrag: values.amount === null ? 'wie besprochen' : formatPrice(values.amount, values.currency),
    frist: values.expiresAt === undefined ? '' : formatDeadline(values.expiresAt),
    notiz: cleanNote(values.note),
    link: values.link ?? '',
  }
  // Without a deal (an acceptance without any amount) there is no page to point to: the paragraph that would name it
  // is left out rather than sent with nothing after its colon.
  const source = values.link ? template : template.replace(/\r\n?/g, '\n').split(/\n{2,}/).filter((paragraph) => !paragraph.includes('{link}')).join('\n\n')
  const text = source.replace(/\r\n?/g, '\n').replace(PLACEHOLDER, (whole, name: string) => (PLACEHOLDERS[kind].includes(name) ? filled[name]! : whole))
  // An empty note leaves an empty paragraph behind.
  return text.replace(/\n{3,}/g, '\n\n').trim()
}

const SUBJECT: Record<DealKind, string> = { counter: 'Gegenangebot', accept: 'Angebot angenommen', decline: 'Absage' }

/** The mail of a negotiation step, threaded under the owner's mail about the inquiry like any reply. */
export function composeDealMail(
  inquiry: StoredInquiry,
  reply: { kind: DealKind; body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  const mail = composeReplyMail(inquiry, reply, messageId, addresses)
  return { ...mail, subject: `${mail.subject as string}: ${SUBJECT[reply.kind]}` }
}
