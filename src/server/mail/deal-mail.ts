// The mails of a negotiation to the visitor: a counter-offer, an acceptance, a refusal. Their text comes from the
// owner's template for the step (or the default below), filled in once when the owner acts and stored as the
// reply's body; the outbox only wraps it (subject, threading, the visitor's quoted message).
import type { SendMailOptions } from 'nodemailer'
import { DEAL_TEMPLATE_KINDS, TEMPLATE_BASES, type DealTemplateKind } from '../../shared/console-api.ts'
import { isLanguage, LANGUAGE_NAME, LOCALE, type Language } from '../../shared/language.ts'
import type { DealKind, StoredInquiry } from '../store/types.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import { composeReplyMail, headerSafe, type MailAddresses } from './compose.ts'
import { lazy } from '../../shared/lazy.ts'
import { BUYER_WORDS, isAddedLanguage } from './buyer-words.ts'
import type { AddedLanguage, TemplateBase } from './buyer-words-types.ts'

/** Every template the owner may edit ("Vorlagen"), in the order the console shows them. */
export const TEMPLATE_KINDS = DEAL_TEMPLATE_KINDS

const ADDED_LANGUAGES = Object.keys(BUYER_WORDS) as AddedLanguage[]

/** One entry per template of the languages decision 048 added, made from each base's entry. */
const forAddedLanguages = <T>(value: (base: TemplateBase, language: AddedLanguage) => T) =>
  Object.fromEntries(ADDED_LANGUAGES.flatMap((language) => TEMPLATE_BASES.map((base) => [`${base}-${language}`, value(base, language)]))) as Record<
    `${TemplateBase}-${AddedLanguage}`,
    T
  >

export const DEFAULT_TEMPLATES: Record<DealTemplateKind, string> = {
  ...forAddedLanguages((base, language) => BUYER_WORDS[language].templates[base]),
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
  'counter-en': `Hello,

thank you for your interest in {domain}.

I can offer you the domain for {betrag}. This offer is valid until {frist}.

{notiz}

If you agree, just reply to this email.

Kind regards`,
  'accept-en': `Hello,

thank you for your offer: I accept it and sell you {domain}.
Agreed amount: {betrag}

{notiz}

Everything else (payment, the transfer of the domain) is on your personal purchase page:
{link}

If you have any questions, just reply to this email.

Kind regards`,
  'decline-en': `Hello,

thank you for your interest in {domain}. Unfortunately I cannot accept your offer.

{notiz}

Kind regards`,
  'checkout-accept-en': `Hello,

thank you for your purchase: I confirm it and sell you {domain} at the fixed price of {betrag}.

{notiz}

Everything else (payment, the transfer of the domain) is on your personal purchase page:
{link}

If you have any questions, just reply to this email.

Kind regards`,
  'checkout-decline-en': `Hello,

thank you for your interest in {domain}. Unfortunately I cannot confirm your purchase.

{notiz}

Kind regards`,
  sold: `Guten Tag,

vielen Dank für Ihr Interesse an {domain}. Die Domain ist inzwischen verkauft; Ihre Anfrage kann ich deshalb leider nicht mehr berücksichtigen.

Mit freundlichen Grüßen`,
  'sold-en': `Hello,

thank you for your interest in {domain}. The domain has been sold in the meantime, so unfortunately I can no longer consider your inquiry.

Kind regards`,
}

const BASE_PLACEHOLDERS: Record<TemplateBase, readonly string[]> = {
  counter: ['domain', 'betrag', 'frist', 'notiz'],
  accept: ['domain', 'betrag', 'notiz', 'link'],
  decline: ['domain', 'notiz'],
  'checkout-accept': ['domain', 'betrag', 'notiz', 'link'],
  'checkout-decline': ['domain', 'notiz'],
  sold: ['domain'],
}

/** The placeholders each template may use; the ones it must use, so that no mail leaves without its point. */
export const PLACEHOLDERS: Record<DealTemplateKind, readonly string[]> = {
  ...forAddedLanguages((base) => BASE_PLACEHOLDERS[base]),
  counter: ['domain', 'betrag', 'frist', 'notiz'],
  accept: ['domain', 'betrag', 'notiz', 'link'],
  decline: ['domain', 'notiz'],
  'counter-en': ['domain', 'betrag', 'frist', 'notiz'],
  'accept-en': ['domain', 'betrag', 'notiz', 'link'],
  'decline-en': ['domain', 'notiz'],
  'checkout-accept-en': ['domain', 'betrag', 'notiz', 'link'],
  'checkout-decline-en': ['domain', 'notiz'],
  sold: ['domain'],
  'sold-en': ['domain'],
}
const REQUIRED: Partial<Record<DealTemplateKind, readonly string[]>> = {
  counter: ['betrag', 'frist'],
  'counter-en': ['betrag', 'frist'],
  ...Object.fromEntries(ADDED_LANGUAGES.map((language) => [`counter-${language}`, ['betrag', 'frist']])),
}

const BASE_LABEL: Record<TemplateBase, string> = {
  counter: 'Gegenangebot',
  accept: 'Annahme',
  decline: 'Ablehnung',
  'checkout-accept': 'Bestätigung eines Kaufs',
  'checkout-decline': 'Absage eines Kaufs',
  sold: 'Bereits verkauft',
}

export const DEAL_LABEL: Record<DealTemplateKind, string> = {
  ...forAddedLanguages((base, language) => `${BASE_LABEL[base]} (${LANGUAGE_NAME[language].toLowerCase()})`),
  counter: 'Gegenangebot',
  accept: 'Annahme',
  decline: 'Ablehnung',
  'counter-en': 'Gegenangebot (englisch)',
  'accept-en': 'Annahme (englisch)',
  'decline-en': 'Ablehnung (englisch)',
  'checkout-accept-en': 'Bestätigung eines Kaufs (englisch)',
  'checkout-decline-en': 'Absage eines Kaufs (englisch)',
  sold: 'Bereits verkauft',
  'sold-en': 'Bereits verkauft (englisch)',
}

/** The language a template is written in: the buyer's it is used for. */
export function templateLanguage(kind: DealTemplateKind): Language {
  const suffix = kind.slice(kind.lastIndexOf('-') + 1)
  return isLanguage(suffix) ? suffix : 'de'
}

/**
 * The template of a negotiation step for this inquiry, in the buyer's language: a checkout of a buyer who did not
 * write in German has its own confirmation and refusal (it speaks of a purchase, not an offer), an offer the
 * negotiation's of that language.
 */
export function templateFor(kind: DealKind, inquiry: Pick<StoredInquiry, 'language' | 'checkout'>): DealTemplateKind {
  const { language } = inquiry
  if (language === 'de') return kind
  if (inquiry.checkout && kind !== 'counter') return `checkout-${kind}-${language}`
  return `${kind}-${language}`
}

/** "Bereits verkauft" in the inquirer's language. */
export const soldTemplateFor = (language: Language): DealTemplateKind => (language === 'de' ? 'sold' : `sold-${language}`)

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
  const missing = (REQUIRED[kind] ?? []).filter((name) => !used.includes(name))
  if (missing.length > 0) return `Die Vorlage „${DEAL_LABEL[kind]}“ braucht ${list(missing)}.`
  return null
}

const berlinDeadline = lazy(() => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' }))

/** "8. November 2026 um 13:00 Uhr": the end of a counter-offer as the visitor reads it. */
export const formatDeadline = (ms: number) => `${berlinDeadline().format(new Date(ms))} Uhr`

const englishTime = lazy(() => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' }))

/** "8 November 2026 at 13:00 (Berlin time)": as the deal's English mails write a date. */
const formatEnglishDeadline = (ms: number) => `${englishTime().format(new Date(ms))} (Berlin time)`

// One format per language, made the first time a mail or page of that language writes a date.
const localTimes = new Map<AddedLanguage, Intl.DateTimeFormat>()
function localTime(language: AddedLanguage): Intl.DateTimeFormat {
  let format = localTimes.get(language)
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE[language], { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' })
    localTimes.set(language, format)
  }
  return format
}

/** A date and time in Berlin as a buyer of the language reads it, the time zone said where it is not theirs. */
export function formatBuyerDeadline(ms: number, language: Language): string {
  if (language === 'de') return formatDeadline(ms)
  if (language === 'en') return formatEnglishDeadline(ms)
  return BUYER_WORDS[language].berlinTime(localTime(language).format(new Date(ms)))
}

const AS_AGREED: Record<'de' | 'en', string> = { de: 'wie besprochen', en: 'as agreed' }

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
    betrag:
      values.amount === null
        ? isAddedLanguage(language)
          ? BUYER_WORDS[language].asAgreed
          : AS_AGREED[language]
        : formatPrice(values.amount, values.currency, language),
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

const SUBJECT: Record<DealKind, string> = { counter: 'Gegenangebot', accept: 'Angebot angenommen', decline: 'Absage' }
const ENGLISH_SUBJECT: Record<'counter' | 'accept' | 'decline' | 'checkout-accept' | 'checkout-decline' | 'sold-notice', string> = {
  counter: 'Counter-offer',
  accept: 'Offer accepted',
  decline: 'Offer declined',
  'checkout-accept': 'Purchase confirmed',
  'checkout-decline': 'Purchase declined',
  'sold-notice': 'Already sold',
}

type ReplySubject = keyof typeof ENGLISH_SUBJECT

/** The subject and the line above the quote of a reply in a language other than German. */
function replyWords(language: Exclude<Language, 'de'>, domain: string, subject: ReplySubject, createdAt: number) {
  if (language === 'en')
    return {
      subject: `Re: Inquiry about ${domain}: ${ENGLISH_SUBJECT[subject]}`,
      quoteLine: `On ${englishTime().format(new Date(createdAt))} (Berlin time) you wrote about ${domain}:`,
    }
  const words = BUYER_WORDS[language]
  return { subject: `${words.replyPrefix(domain)}: ${words.subjects[subject]}`, quoteLine: words.quoteLine(formatBuyerDeadline(createdAt, language), domain) }
}

/**
 * A reply in the buyer's language other than German, threaded like the German one; `quote`: the buyer's own words
 * below it (not a checkout's summary).
 */
function foreignReply(
  inquiry: StoredInquiry,
  reply: { body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
  language: Exclude<Language, 'de'>,
  subject: ReplySubject,
  quote: boolean,
): SendMailOptions {
  const domain = displayHost(inquiry.domain)
  const quoted = inquiry.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n')
  const words = replyWords(language, domain, subject, inquiry.createdAt)
  return {
    from: addresses.from,
    to: headerSafe(addresses.visitor),
    replyTo: headerSafe(reply.replyTo ?? addresses.to),
    subject: words.subject,
    messageId,
    inReplyTo: reply.inquiryMessageId,
    references: [reply.inquiryMessageId],
    text: quote ? [reply.body, '', words.quoteLine, quoted].join('\n') : reply.body,
  }
}

/** The mail of a negotiation step, threaded under the owner's mail about the inquiry like any reply. */
export function composeDealMail(
  inquiry: StoredInquiry,
  reply: { kind: DealKind; body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  const { language } = inquiry
  if (language === 'en' || isAddedLanguage(language)) {
    // A checkout's message is our German summary, not the buyer's words: it is not quoted.
    if (inquiry.checkout && reply.kind !== 'counter') return foreignReply(inquiry, reply, messageId, addresses, language, `checkout-${reply.kind}`, false)
    return foreignReply(inquiry, reply, messageId, addresses, language, reply.kind, true)
  }
  const mail = composeReplyMail(inquiry, reply, messageId, addresses)
  return { ...mail, subject: `${mail.subject as string}: ${SUBJECT[reply.kind]}` }
}

/** "Bereits verkauft" to another inquirer of a sold name (decision 037), in their language, their message quoted. */
export function composeSoldNotice(
  inquiry: StoredInquiry,
  reply: { body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  if (inquiry.language === 'en' || isAddedLanguage(inquiry.language))
    return foreignReply(inquiry, reply, messageId, addresses, inquiry.language, 'sold-notice', true)
  const mail = composeReplyMail(inquiry, reply, messageId, addresses)
  return { ...mail, subject: `${mail.subject as string}: Bereits verkauft` }
}
