// The owner's console: what its pages and its JSON API exchange. Shared by the server (src/server/admin) and the
// console's React code (src/console); nothing here may import server code.
// The JSON answers are zod schemas (zod/mini, for the console's bundle), each with its type as z.infer: the route
// declares one as its response schema and the console's fetch parses the answer with the same (decision 059).
import * as z from 'zod/mini'
import { dealSummarySchema, planTransfer, type SalesPage } from './deal-api.ts'
import type { ImportPageData } from './import-api.ts'
import type { AuditPage } from './audit-api.ts'
import type { DomainsPageData } from './domains-api.ts'
import { LANGUAGES, type Language } from './language.ts'
import { visitorStatsSchema } from './stats-api.ts'
import type { BankStatementPageData } from './payments-api.ts'
import type { SecurityPageData, SessionsPageData } from './sign-in-api.ts'

export type InquiryStatus = 'new' | 'unconfirmed' | 'answered' | 'countered' | 'expired' | 'accepted' | 'declined' | 'archived' | 'spam'
export const INQUIRY_STATUSES: readonly InquiryStatus[] = ['new', 'unconfirmed', 'answered', 'countered', 'expired', 'accepted', 'declined', 'archived', 'spam']
export const STATUS_LABEL: Record<InquiryStatus, string> = {
  new: 'Neu',
  unconfirmed: 'Unbestätigt',
  answered: 'Beantwortet',
  countered: 'Gegenangebot',
  expired: 'Gegenangebot abgelaufen',
  accepted: 'Angenommen',
  declined: 'Abgelehnt',
  archived: 'Archiviert',
  spam: 'Spam',
}
/** What a mail to the visitor is: the owner's own words, a step of the negotiation, or a confirmation of the inquiry. */
export type ReplyKind = 'reply' | 'counter' | 'accept' | 'decline' | 'notice' | 'verify' | 'sold-notice' | DealMailKind
/** The mails of a deal after its acceptance (docs/deals.md). */
export type DealMailKind = 'deal-paid' | 'deal-transferred' | 'deal-completed' | 'deal-cancelled' | DealReminderKind
/** The deadlines' mails (decision 036): the buyer reminded of the payment; the owner told it is overdue, and reminded of the transfer. */
type DealReminderKind = 'deal-payment-reminder' | 'deal-overdue' | 'deal-transfer-reminder'
export const REPLY_KIND_LABEL: Record<ReplyKind, string> = {
  reply: 'Antwort',
  counter: 'Gegenangebot',
  accept: 'Annahme',
  decline: 'Ablehnung',
  notice: 'Eingangsbestätigung',
  verify: 'Bestätigungslink',
  'deal-paid': 'Zahlung erhalten',
  'deal-transferred': 'Übertragung',
  'deal-completed': 'Abgeschlossen',
  'deal-cancelled': 'Kauf abgebrochen',
  'deal-payment-reminder': 'Zahlungserinnerung',
  'deal-overdue': 'Zahlungsfrist verstrichen (an Sie)',
  'deal-transfer-reminder': 'Erinnerung Übertragung (an Sie)',
  'sold-notice': 'Bereits verkauft (informiert)',
}

export type MailState = 'pending' | 'sent' | 'failed'
const mailState = z.enum(['pending', 'sent', 'failed'])
export const MAIL_LABEL: Record<MailState, string> = { pending: 'wird gesendet', sent: 'zugestellt', failed: 'fehlgeschlagen' }

/** Every state-changing request carries this header: a browser sends no custom header cross-site without CORS. */
export const CONSOLE_HEADER = 'x-domain-lander-console'

/** The inbox filters, as query parameters of GET /api/inbox, /api/export and the page "/". */
export interface InboxQuery {
  /** ASCII (punycode) domain. */
  domain?: string
  status?: InquiryStatus
  /** Days as YYYY-MM-DD (Europe/Berlin), both inclusive. */
  since?: string
  until?: string
  /** Free text over name, e-mail and message: every word must occur, as a word or the start of one. */
  q?: string
  /** Opaque: the `next` of the previous page. */
  cursor?: string
}

const inquiryStatus = z.enum(INQUIRY_STATUSES)

const inboxRowSchema = z.object({
  id: z.number(),
  /** As shown (Unicode), and as stored (ASCII). */
  domain: z.string(),
  domainAscii: z.string(),
  name: z.string(),
  email: z.string(),
  /** The message's first line, cut to 200 characters. */
  firstLine: z.string(),
  /** Formatted in the domain's currency ("1.500 €"), or null. */
  offer: z.nullable(z.string()),
  createdAt: z.number(),
  status: inquiryStatus,
  /** The owner's mail about this inquiry; null when none was queued (spam, offers below the minimum). */
  mail: z.nullable(mailState),
})
export type InboxRow = z.infer<typeof inboxRowSchema>

export const inboxPageSchema = z.object({
  items: z.array(inboxRowSchema),
  /** Cursor of the next (older) page, or null on the last page. */
  next: z.nullable(z.string()),
  /** Every domain with at least one inquiry, ASCII and as shown, for the domain filter. */
  domains: z.array(z.object({ ascii: z.string(), display: z.string() })),
})
export type InboxPage = z.infer<typeof inboxPageSchema>

const mailDeliverySchema = z.object({ status: mailState, attempts: z.number(), lastError: z.nullable(z.string()), messageId: z.string() })
export type MailDelivery = z.infer<typeof mailDeliverySchema>

const replyViewSchema = z.object({
  id: z.number(),
  kind: z.enum(Object.keys(REPLY_KIND_LABEL) as [ReplyKind, ...ReplyKind[]]),
  /** A counter-offer's or an acceptance's amount, formatted in the inquiry's currency. */
  amount: z.nullable(z.string()),
  body: z.string(),
  createdAt: z.number(),
  mail: z.nullable(mailDeliverySchema),
})

export const inquiryDetailSchema = z.object({
  /** The inquiry's open deal (docs/deals.md), or null. */
  deal: z.nullable(dealSummarySchema),
  id: z.number(),
  domain: z.string(),
  domainAscii: z.string(),
  name: z.string(),
  email: z.string(),
  /** The whole message, as the visitor typed it: shown as text, never as HTML. */
  message: z.string(),
  /** The language of the page the visitor wrote from. */
  language: z.enum(LANGUAGES),
  createdAt: z.number(),
  status: inquiryStatus,
  /** Why it was recognised as spam (decoy-filled, too-fast, owner …), or null. */
  spamReason: z.nullable(z.string()),
  offer: z.nullable(z.object({ amount: z.number(), currency: z.string(), formatted: z.string() })),
  belowMinimum: z.boolean(),
  /** From the domains file as it is now, formatted; null when not set. */
  price: z.nullable(z.string()),
  minimum: z.nullable(z.string()),
  ownerMail: z.nullable(mailDeliverySchema),
  replies: z.array(replyViewSchema),
  /** The currency of the negotiation: the offer's, else the domain's. */
  currency: z.string(),
  /** The last counter-offer; `expired` also when its time passed before the hourly job marked it. */
  counter: z.nullable(z.object({ amount: z.number(), formatted: z.string(), expiresAt: z.number(), expired: z.boolean() })),
  /** A counter-offer's default validity (COUNTER_OFFER_DAYS). */
  counterDays: z.number(),
  /** The instalment plan offered with the counter-offer or chosen at the checkout (decision 042), or null. */
  plan: z.optional(z.nullable(z.object({ rates: z.number(), downPayment: z.string(), transfer: planTransfer }))),
  /**
   * Set for a purchase at the fixed price (decision 035): the buyer's invoice address as typed (text, never HTML).
   * "Bestätigen" is the acceptance step (the offer is the price), "Ablehnen" the refusal.
   */
  checkout: z.nullable(
    z.object({
      company: z.nullable(z.string()),
      street: z.string(),
      postcode: z.string(),
      city: z.string(),
      country: z.string(),
      vatId: z.nullable(z.string()),
    }),
  ),
})
export type InquiryDetail = z.infer<typeof inquiryDetailSchema>

/** POST /api/inquiries/:id/counter: the amount as the owner types it ("4.900"), in the inquiry's currency. */
/** An instalment plan as the console sends it (decision 042): 2–60 rates, a down payment in whole units, or none. */
export interface PlanOffer {
  rates: number
  downPayment?: string
  transfer?: 'after-last' | 'at-once'
}

export interface CounterRequest {
  amount: string
  days?: number
  note?: string
  plan?: PlanOffer
}

/**
 * POST /api/inquiries/:id/accept and /decline; accepting after a counter-offer ran out needs confirmExpired. `plan` on
 * accept: the instalment plan (null: paid at once, whatever was offered before).
 */
export interface DealNoteRequest {
  note?: string
  confirmExpired?: boolean
  plan?: PlanOffer | null
}
export const NOTE_MAX = 5000

/** What a template of a buyer's language other than German is for: a checkout's confirmation and refusal speak of a purchase. */
const TEMPLATE_BASES = ['counter', 'accept', 'decline', 'checkout-accept', 'checkout-decline', 'sold'] as const

/**
 * The owner's mail templates: the negotiation's (German, decision 025), a checkout's confirmation and refusal to a
 * buyer of another language (a German one gets Annahme and Ablehnung), and "bereits verkauft" (decision 037); in
 * each language a page speaks (decision 048).
 */
export type DealTemplateKind = 'counter' | 'accept' | 'decline' | 'sold' | `${(typeof TEMPLATE_BASES)[number]}-${Exclude<Language, 'de'>}`

/** Every template, in the order the console shows them: German and English as before, then language by language. */
export const DEAL_TEMPLATE_KINDS: readonly DealTemplateKind[] = [
  'counter',
  'accept',
  'decline',
  'counter-en',
  'accept-en',
  'decline-en',
  'checkout-accept-en',
  'checkout-decline-en',
  'sold',
  'sold-en',
  ...LANGUAGES.filter((language) => language !== 'de' && language !== 'en').flatMap((language) =>
    TEMPLATE_BASES.map((base): DealTemplateKind => `${base}-${language as Exclude<Language, 'de'>}`),
  ),
]

const dealTemplateViewSchema = z.object({
  kind: z.enum(DEAL_TEMPLATE_KINDS),
  /** Gegenangebot, Annahme, Ablehnung, … */
  label: z.string(),
  /** The language the mail is written in: the buyer's. */
  language: z.enum(LANGUAGES),
  /** The template in force: the owner's, or the default. */
  text: z.string(),
  isDefault: z.boolean(),
  defaultText: z.string(),
  placeholders: z.array(z.string()),
})
export type DealTemplateView = z.infer<typeof dealTemplateViewSchema>

/** GET /api/templates; POST /api/templates/:kind with { text } saves one, DELETE goes back to the default. */
export const templatesPageSchema = z.object({ templates: z.array(dealTemplateViewSchema) })
export type TemplatesPage = z.infer<typeof templatesPageSchema>

/** POST /api/inquiries/:id/reply */
export interface ReplyRequest {
  body: string
}
export const REPLY_MAX = 20_000

/** POST /api/inquiries/:id/action with { action } */
export type InquiryAction = 'archive' | 'unarchive' | 'spam' | 'not-spam'

const outboxRowSchema = z.object({
  /**
   * The outbox entry's id (POST /api/outbox/:id/resend; a DNS update's: /api/outbox/dns/:id/resend; a daily check's
   * notification's: /api/outbox/domain-notices/:id/resend).
   */
  id: z.number(),
  /** Null for a DNS update, which belongs to no inquiry. */
  inquiryId: z.nullable(z.number()),
  /** A DNS update's: its zone. */
  domain: z.string(),
  /** The owner's mail about an inquiry, a reply to the visitor, a notification (webhook or preset), or an update of
   * the _for-sale records in the owner's DNS (decision 045), or a daily check's notification (domain.*, decision 047). */
  kind: z.enum(['inquiry', 'reply', 'webhook', 'dns', 'domain-notice']),
  /** A notification's host (never its path, which may hold a token); a DNS update's server; null for mail. */
  target: z.nullable(z.string()),
  /** A daily check's notification: its event (domain.unreachable, domain.expiring). */
  event: z.optional(z.string()),
  status: mailState,
  attempts: z.number(),
  lastError: z.nullable(z.string()),
  createdAt: z.number(),
  nextAttemptAt: z.number(),
})
export type OutboxRow = z.infer<typeof outboxRowSchema>

export const outboxPageSchema = z.object({
  /** Pending and failed mail, oldest first: one page of it; the first page also has every waiting DNS update. */
  items: z.array(outboxRowSchema),
  /** The cursor of the next page (GET /api/outbox?cursor=…), null on the last. */
  next: z.nullable(z.string()),
})
export type OutboxPage = z.infer<typeof outboxPageSchema>

export const OVERVIEW_DAYS = [7, 30, 90, 365] as const
export type OverviewDays = (typeof OVERVIEW_DAYS)[number]

const offerAmountSchema = z.object({
  /** Whole units of the currency, as offers are made and stored: an integer. */
  amount: z.number(),
  currency: z.string(),
})
export type OfferAmount = z.infer<typeof offerAmountSchema>

const overviewDomainSchema = z.object({
  domain: z.string(),
  domainAscii: z.string(),
  views: z.number(),
  inquiries: z.number(),
  spam: z.number(),
  /** Formatted in the domain's currency; null without offers. */
  highestOffer: z.nullable(z.string()),
  medianOffer: z.nullable(z.string()),
  /** The same as stored, with the currency, for sorting: amounts of different currencies never compare. */
  highestAmount: z.nullable(offerAmountSchema),
  medianAmount: z.nullable(offerAmountSchema),
  /** One entry per day of the range (UTC days, oldest first), zeros included. */
  daily: z.array(z.object({ day: z.string(), views: z.number(), inquiries: z.number() })),
})
export type OverviewDomain = z.infer<typeof overviewDomainSchema>

export const overviewSchema = z.object({
  days: z.union(OVERVIEW_DAYS.map((days) => z.literal(days)) as [z.ZodMiniLiteral<OverviewDays>, ...z.ZodMiniLiteral<OverviewDays>[]]),
  domains: z.array(overviewDomainSchema),
  /** Visitors, sources and the path to a deal (decision 049). */
  visits: visitorStatsSchema,
})
export type Overview = z.infer<typeof overviewSchema>

/** POST /api/session */
export interface SignInRequest {
  password: string
  /** With the second factor on (decision 041): a code of the app, or a recovery code. */
  code?: string
}

/** What the server renders a console page with, and hands to the browser to hydrate with. */
export type ConsoleState =
  | { page: 'setup' }
  | { page: 'signin'; error?: string; passkey?: true }
  | { page: 'security'; data: SecurityPageData }
  | { page: 'sessions'; data: SessionsPageData }
  | { page: 'inbox'; query: InboxQuery; data: InboxPage }
  | { page: 'inquiry'; data: InquiryDetail }
  | { page: 'outbox'; data: OutboxPage }
  | { page: 'overview'; data: Overview }
  | { page: 'templates'; data: TemplatesPage }
  | { page: 'sales'; data: SalesPage }
  | { page: 'privacy' }
  | { page: 'import'; data: ImportPageData }
  | { page: 'domains'; data: DomainsPageData }
  | { page: 'bank-statement'; data: BankStatementPageData }
  | { page: 'audit'; data: AuditPage }
  | { page: 'not-found' }

/** Page paths of the console (the server answers them with HTML, the API with JSON). */
export const CONSOLE_PATHS = {
  inbox: '/',
  inquiry: (id: number) => `/anfragen/${id}`,
  outbox: '/postausgang',
  overview: '/uebersicht',
  templates: '/vorlagen',
  sales: '/verkaeufe',
  signin: '/anmelden',
} as const
