// The owner's console: what its pages and its JSON API exchange. Shared by the server (src/server/admin) and the
// console's React code (src/console); nothing here may import server code.
import type { ImportPageData } from './import-api.ts'
import type { AuditPage } from './audit-api.ts'
import type { DomainsPageData } from './domains-api.ts'
import { LANGUAGES, type Language } from './language.ts'
import type { VisitorStats } from './stats-api.ts'
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
/** A deal's states (docs/deals.md): awaiting_payment → paid → transferred → completed, or cancelled. */
export type DealState = 'awaiting_payment' | 'paid' | 'transferred' | 'completed' | 'cancelled'
export const DEAL_STATES: readonly DealState[] = ['awaiting_payment', 'paid', 'transferred', 'completed', 'cancelled']
export const DEAL_STATE_LABEL: Record<DealState, string> = {
  awaiting_payment: 'Wartet auf Zahlung',
  paid: 'Bezahlt',
  transferred: 'Übertragen',
  completed: 'Abgeschlossen',
  cancelled: 'Abgebrochen',
}
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

export interface InboxRow {
  id: number
  /** As shown (Unicode), and as stored (ASCII). */
  domain: string
  domainAscii: string
  name: string
  email: string
  /** The message's first line, cut to 200 characters. */
  firstLine: string
  /** Formatted in the domain's currency ("1.500 €"), or null. */
  offer: string | null
  createdAt: number
  status: InquiryStatus
  /** The owner's mail about this inquiry; null when none was queued (spam, offers below the minimum). */
  mail: MailState | null
}

export interface InboxPage {
  items: InboxRow[]
  /** Cursor of the next (older) page, or null on the last page. */
  next: string | null
  /** Every domain with at least one inquiry, ASCII and as shown, for the domain filter. */
  domains: { ascii: string; display: string }[]
}

export interface MailDelivery {
  status: MailState
  attempts: number
  lastError: string | null
  messageId: string
}

interface ReplyView {
  id: number
  kind: ReplyKind
  /** A counter-offer's or an acceptance's amount, formatted in the inquiry's currency. */
  amount: string | null
  body: string
  createdAt: number
  mail: MailDelivery | null
}

export interface InquiryDetail {
  /** The inquiry's open deal (docs/deals.md), or null. */
  deal: DealSummary | null
  id: number
  domain: string
  domainAscii: string
  name: string
  email: string
  /** The whole message, as the visitor typed it: shown as text, never as HTML. */
  message: string
  /** The language of the page the visitor wrote from. */
  language: Language
  createdAt: number
  status: InquiryStatus
  /** Why it was recognised as spam (decoy-filled, too-fast, owner …), or null. */
  spamReason: string | null
  offer: { amount: number; currency: string; formatted: string } | null
  belowMinimum: boolean
  /** From the domains file as it is now, formatted; null when not set. */
  price: string | null
  minimum: string | null
  ownerMail: MailDelivery | null
  replies: ReplyView[]
  /** The currency of the negotiation: the offer's, else the domain's. */
  currency: string
  /** The last counter-offer; `expired` also when its time passed before the hourly job marked it. */
  counter: { amount: number; formatted: string; expiresAt: number; expired: boolean } | null
  /** A counter-offer's default validity (COUNTER_OFFER_DAYS). */
  counterDays: number
  /** The instalment plan offered with the counter-offer or chosen at the checkout (decision 042), or null. */
  plan?: { rates: number; downPayment: string; transfer: 'after-last' | 'at-once' } | null
  /**
   * Set for a purchase at the fixed price (decision 035): the buyer's invoice address as typed (text, never HTML).
   * "Bestätigen" is the acceptance step (the offer is the price), "Ablehnen" the refusal.
   */
  checkout: { company: string | null; street: string; postcode: string; city: string; country: string; vatId: string | null } | null
}

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

export interface DealTemplateView {
  kind: DealTemplateKind
  /** Gegenangebot, Annahme, Ablehnung, … */
  label: string
  /** The language the mail is written in: the buyer's. */
  language: Language
  /** The template in force: the owner's, or the default. */
  text: string
  isDefault: boolean
  defaultText: string
  placeholders: string[]
}

/** GET /api/templates; POST /api/templates/:kind with { text } saves one, DELETE goes back to the default. */
export interface TemplatesPage {
  templates: DealTemplateView[]
}

/** POST /api/inquiries/:id/reply */
export interface ReplyRequest {
  body: string
}
export const REPLY_MAX = 20_000

/** POST /api/inquiries/:id/action with { action } */
export type InquiryAction = 'archive' | 'unarchive' | 'spam' | 'not-spam'

export interface OutboxRow {
  /**
   * The outbox entry's id (POST /api/outbox/:id/resend; a DNS update's: /api/outbox/dns/:id/resend; a daily check's
   * notification's: /api/outbox/domain-notices/:id/resend).
   */
  id: number
  /** Null for a DNS update, which belongs to no inquiry. */
  inquiryId: number | null
  /** A DNS update's: its zone. */
  domain: string
  /** The owner's mail about an inquiry, a reply to the visitor, a notification (webhook or preset), or an update of
   * the _for-sale records in the owner's DNS (decision 045), or a daily check's notification (domain.*, decision 047). */
  kind: 'inquiry' | 'reply' | 'webhook' | 'dns' | 'domain-notice'
  /** A notification's host (never its path, which may hold a token); a DNS update's server; null for mail. */
  target: string | null
  /** A daily check's notification: its event (domain.unreachable, domain.expiring). */
  event?: string
  status: MailState
  attempts: number
  lastError: string | null
  createdAt: number
  nextAttemptAt: number
}

export interface OutboxPage {
  /** Pending and failed mail, oldest first: one page of it; the first page also has every waiting DNS update. */
  items: OutboxRow[]
  /** The cursor of the next page (GET /api/outbox?cursor=…), null on the last. */
  next: string | null
}

export const OVERVIEW_DAYS = [7, 30, 90, 365] as const
export type OverviewDays = (typeof OVERVIEW_DAYS)[number]

export interface OfferAmount {
  /** Whole units of the currency, as offers are made and stored: an integer. */
  amount: number
  currency: string
}

export interface OverviewDomain {
  domain: string
  domainAscii: string
  views: number
  inquiries: number
  spam: number
  /** Formatted in the domain's currency; null without offers. */
  highestOffer: string | null
  medianOffer: string | null
  /** The same as stored, with the currency, for sorting: amounts of different currencies never compare. */
  highestAmount: OfferAmount | null
  medianAmount: OfferAmount | null
  /** One entry per day of the range (UTC days, oldest first), zeros included. */
  daily: { day: string; views: number; inquiries: number }[]
}

export interface Overview {
  days: OverviewDays
  domains: OverviewDomain[]
  /** Visitors, sources and the path to a deal (decision 049). */
  visits: VisitorStats
}

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

/** A deal as the console shows it (docs/deals.md): never its transfer code. */
export interface DealSummary {
  id: number
  inquiryId: number
  /** As people read it. */
  domain: string
  status: DealState
  statusLabel: string
  amount: string
  reference: string
  buyer: { name: string; email: string; language: string }
  createdAt: number
  /** The deadline of the step it waits for (payment, transfer, completing by itself), or null when it is over. */
  nextDeadline: number | null
  nextDeadlineLabel: string | null
  overdue: boolean
  hasTransferCode: boolean
  transferNote: string | null
  cancelReason: string | null
  cancelledBy: 'owner' | 'buyer' | null
  /** The buyer's page, when this server can open its link (the deal key). */
  pageUrl: string | null
  /** The owner's choice with "Übertragen": tell the other inquirers when it completes (decision 037); null: not chosen. */
  notifyOthers: boolean | null
  /** In the answer to a completing step: how many other inquirers were told "bereits verkauft". */
  soldNotices?: number
  /** An instalment plan (decision 042): when the name moves, and each payment as the owner reads it. */
  plan?: {
    transfer: 'after-last' | 'at-once'
    rates: {
      number: number
      label: string
      amount: string
      dueAt: number
      reference: string
      paidAt: number | null
      paidBy: 'owner' | 'bank' | null
      overdue: boolean
      waitedAt: number | null
    }[]
  }
}

/** GET /verkaeufe: every deal, the next deadline first. */
export interface SalesPage {
  deals: DealSummary[]
  /** Each deal's invoices by the deal's id, while invoices are on (decision 038). */
  invoices?: Record<number, DealInvoices>
}

/** An issued invoice or Stornorechnung, as the console lists it. */
interface InvoiceEntry {
  id: number
  number: number
  /** `advance`: an Anzahlungsrechnung of an instalment plan (decision 046). */
  kind: 'invoice' | 'advance' | 'cancellation'
  /** The rate an Anzahlungsrechnung (or its Stornorechnung) is for, 0 the down payment; null otherwise. */
  advanceRate: number | null
  dealId: number | null
  issuedAt: number
  eInvoice: boolean
  sha256: string | null
}

/** GET /api/deals/:id/invoices: a deal's invoices, and whether the owner may issue the missing one now. */
export interface DealInvoices {
  invoices: InvoiceEntry[]
  /** Paid (or further), invoices on, no invoice yet, the buyer's address known: "Rechnung ausstellen". */
  canIssue: boolean
  /** Paid with no invoice because the buyer of a negotiated deal has not given an address yet. */
  missingAddress: boolean
}
