// The mails of a negotiation to the visitor: a counter-offer, an acceptance, a refusal. Their text comes from the
// owner's template for the step (or the default below), filled in once when the owner acts and stored as the
// reply's body; the outbox only wraps it (subject, threading, the visitor's quoted message).
import type { SendMailOptions } from 'nodemailer'
import { DEAL_TEMPLATE_KINDS, type DealTemplateKind } from '../../shared/console-api.ts'
import { isLanguage, LANGUAGE_NAME, LOCALE, type Language } from '../../shared/language.ts'
import type { DealKind, StoredInquiry } from '../store/types.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import { headerSafe, type MailAddresses } from './compose.ts'
import { BUYER_WORDS } from './buyer-words.ts'
import type { CheckoutBase, TemplateBase } from './buyer-words-types.ts'

/** Every template the owner may edit ("Vorlagen"), in the order the console shows them. */
export const TEMPLATE_KINDS = DEAL_TEMPLATE_KINDS

/** The language a template is written in: the buyer's it is used for. */
export function templateLanguage(kind: DealTemplateKind): Language {
  const suffix = kind.slice(kind.lastIndexOf('-') + 1)
  return isLanguage(suffix) ? suffix : 'de'
}

/** What a template is for, whatever its language: German's templates, the first, carry no language in their name. */
const templateBase = (kind: DealTemplateKind): TemplateBase => {
  const suffix = `-${templateLanguage(kind)}`
  return (kind.endsWith(suffix) ? kind.slice(0, -suffix.length) : kind) as TemplateBase
}

/** The template of each step in each language; a language without a checkout's own (German) has none for it. */
const TEMPLATE_OF = {} as Record<Language, Partial<Record<TemplateBase, DealTemplateKind>>>
for (const kind of TEMPLATE_KINDS) (TEMPLATE_OF[templateLanguage(kind)] ??= {})[templateBase(kind)] = kind

/** One entry per template, made from what it is for and its language. */
const perTemplate = <T>(value: (base: TemplateBase, language: Language, kind: DealTemplateKind) => T) =>
  Object.fromEntries(TEMPLATE_KINDS.map((kind) => [kind, value(templateBase(kind), templateLanguage(kind), kind)])) as Record<DealTemplateKind, T>

export const DEFAULT_TEMPLATES: Record<DealTemplateKind, string> = perTemplate((base, language, kind) => {
  const text = BUYER_WORDS[language].templates[base]
  if (text === undefined) throw new Error(`no default text for the template ${kind}`)
  return text
})

const BASE_PLACEHOLDERS: Record<TemplateBase, readonly string[]> = {
  counter: ['domain', 'betrag', 'frist', 'notiz'],
  accept: ['domain', 'betrag', 'notiz', 'link'],
  decline: ['domain', 'notiz'],
  'checkout-accept': ['domain', 'betrag', 'notiz', 'link'],
  'checkout-decline': ['domain', 'notiz'],
  sold: ['domain'],
}

/** The placeholders each template may use; the ones it must use, so that no mail leaves without its point. */
export const PLACEHOLDERS: Record<DealTemplateKind, readonly string[]> = perTemplate((base) => BASE_PLACEHOLDERS[base])
const REQUIRED: Partial<Record<TemplateBase, readonly string[]>> = { counter: ['betrag', 'frist'] }

const BASE_LABEL: Record<TemplateBase, string> = {
  counter: 'Gegenangebot',
  accept: 'Annahme',
  decline: 'Ablehnung',
  'checkout-accept': 'Bestätigung eines Kaufs',
  'checkout-decline': 'Absage eines Kaufs',
  sold: 'Bereits verkauft',
}

/** The console's names of the templates: German's as they always were, the others with their language. */
export const DEAL_LABEL: Record<DealTemplateKind, string> = perTemplate((base, language, kind) =>
  kind === base ? BASE_LABEL[base] : `${BASE_LABEL[base]} (${LANGUAGE_NAME[language].toLowerCase()})`,
)

/**
 * The template of a negotiation step for this inquiry, in the buyer's language: a checkout has its own confirmation
 * and refusal (it speaks of a purchase, not an offer) where the language has them, an offer the negotiation's.
 */
export function templateFor(kind: DealKind, inquiry: Pick<StoredInquiry, 'language' | 'checkout'>): DealTemplateKind {
  const templates = TEMPLATE_OF[inquiry.language]
  return (inquiry.checkout && kind !== 'counter' && templates[`checkout-${kind}`]) || templates[kind]!
}

/** "Bereits verkauft" in the inquirer's language. */
export const soldTemplateFor = (language: Language): DealTemplateKind => TEMPLATE_OF[language].sold!

export const TEMPLATE_MAX = 5000

/** Anything between braces, without spaces or braces in it, is read as a placeholder. */
const PLACEHOLDER = /\{([^{}\s]*)\}/g

const list = (names: readonly string[]) => names.map((name) => `{${name}}`).join(', ')

/** Why the owner's template cannot be used, in German, or null when it can. */
export function templateProblem(kind: DealTemplateKind, text: string): string | null {
  if (text.trim() === '') return 'Die Vorlage ist leer.'
  if (text.length > TEMPLATE_MAX) return `Die Vorlage ist zu lang (höchstens ${TEMPLATE_MAX} Zeichen).`
  const used = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)
  const unknown = [...new Set(used.filter((name) => !PLACEHOLDERS[kind].includes(name)))]
  if (unknown.length > 0) {
    return `Unbekannter Platzhalter ${list(unknown)} in der Vorlage „${DEAL_LABEL[kind]}“. Erlaubt sind: ${list(PLACEHOLDERS[kind])}.`
  }
  const missing = (REQUIRED[templateBase(kind)] ?? []).filter((name) => !used.includes(name))
  if (missing.length > 0) return `Die Vorlage „${DEAL_LABEL[kind]}“ braucht ${list(missing)}.`
  return null
}

// One format per language, made the first time a mail or page of that language writes a date.
const localTimes = new Map<Language, Intl.DateTimeFormat>()
function localTime(language: Language): Intl.DateTimeFormat {
  let format = localTimes.get(language)
  if (!format) {
    const locale = BUYER_WORDS[language].timeLocale ?? LOCALE[language]
    format = new Intl.DateTimeFormat(locale, { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' })
    localTimes.set(language, format)
  }
  return format
}

/**
 * A date and time in Berlin as a buyer of the language reads it, the time zone said where it is not theirs: "8.
 * November 2026 um 13:00 Uhr", "8 November 2026 at 13:00 (Berlin time)".
 */
export const formatBuyerDeadline = (ms: number, language: Language): string => BUYER_WORDS[language].berlinTime(localTime(language).format(new Date(ms)))

/** A date as the owner reads it (the console, the CLI, the digest) and a German buyer: "8. November 2026 um 13:00 Uhr". */
export const formatDeadline = (ms: number) => formatBuyerDeadline(ms, 'de')

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
export function renderDealText(kind: DealTemplateKind, template: string, values: DealValues): string {
  const language = templateLanguage(kind)
  const filled: Record<string, string> = {
    domain: displayHost(values.domain),
    betrag: values.amount === null ? BUYER_WORDS[language].asAgreed : formatPrice(values.amount, values.currency, language),
    frist: values.expiresAt === undefined ? '' : formatBuyerDeadline(values.expiresAt, language),
    notiz: cleanNote(values.note),
    link: values.link ?? '',
  }
  // Without a deal (an acceptance without any amount) there is no page to point to: the paragraph that would name it
  // is left out rather than sent with nothing after its colon.
  const source = values.link
    ? template
    : template
        .replace(/\r\n?/g, '\n')
        .split(/\n{2,}/)
        .filter((paragraph) => !paragraph.includes('{link}'))
        .join('\n\n')
  const text = source.replace(/\r\n?/g, '\n').replace(PLACEHOLDER, (whole, name: string) => (PLACEHOLDERS[kind].includes(name) ? filled[name]! : whole))
  // An empty note leaves an empty paragraph behind.
  return text.replace(/\n{3,}/g, '\n\n').trim()
}

type ReplySubject = DealKind | CheckoutBase | 'sold-notice'

/**
 * A reply in the buyer's language, threaded under the owner's mail about the inquiry; `quote`: the buyer's own words
 * below it (not a checkout's summary).
 */
function buyerReply(
  inquiry: StoredInquiry,
  reply: { body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
  subject: ReplySubject,
  quote: boolean,
): SendMailOptions {
  const { language } = inquiry
  const words = BUYER_WORDS[language]
  const domain = displayHost(inquiry.domain)
  const quoted = inquiry.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n')
  const date = words.quoteTime?.(inquiry.createdAt) ?? formatBuyerDeadline(inquiry.createdAt, language)
  return {
    from: addresses.from,
    to: headerSafe(addresses.visitor),
    replyTo: headerSafe(reply.replyTo ?? addresses.to),
    subject: `${words.replyPrefix(domain)}: ${words.subjects[subject]!}`,
    messageId,
    inReplyTo: reply.inquiryMessageId,
    references: [reply.inquiryMessageId],
    text: quote ? [reply.body, '', words.quoteLine(date, domain), quoted].join('\n') : reply.body,
  }
}

/** The mail of a negotiation step, threaded under the owner's mail about the inquiry like any reply. */
export function composeDealMail(
  inquiry: StoredInquiry,
  reply: { kind: DealKind; body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  // A checkout's message is our German summary, not the buyer's words: not quoted where the language has a checkout's
  // own mails. German never had them, and quotes it as it always did.
  const purchase = inquiry.checkout && reply.kind !== 'counter' ? (`checkout-${reply.kind}` as const) : null
  if (purchase && BUYER_WORDS[inquiry.language].subjects[purchase] !== undefined) return buyerReply(inquiry, reply, messageId, addresses, purchase, false)
  return buyerReply(inquiry, reply, messageId, addresses, reply.kind, true)
}

/** "Bereits verkauft" to another inquirer of a sold name (decision 037), in their language, their message quoted. */
export function composeSoldNotice(
  inquiry: StoredInquiry,
  reply: { body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  return buyerReply(inquiry, reply, messageId, addresses, 'sold-notice', true)
}
