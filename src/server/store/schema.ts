// The tables as the query layer sees them, the same in both databases (PostgreSQL's BIGINT columns are read as
// numbers: see postgres.ts). Generated columns are `Generated`, so inserts need not name them.
import type { Generated } from 'kysely'
import type { AuditAction, AuditOutcome } from '../../shared/audit-api.ts'
import type { Language } from '../../shared/language.ts'
import type { ExpiryState, PointingState, RecordsState } from '../../shared/domain-checks.ts'
import type { DealState } from '../../shared/deal-api.ts'
import type { DealEvent, InquiryStatus, OutboxStatus, ReplyKind } from './inquiry-types.ts'

/**
 * What a counter counts:
 * - visit: a GET of the page by a browser that was no repeat (key '');
 * - visitor: unique visitors of a day that is over (key ''); today's come from the hashes;
 * - filtered: requests that were no visit, by reason ('bot', 'head', 'prefetch', 'headers', 'repeat');
 * - source: visits by where they came from ('direct', 'search:google', 'market:sedo', 'social:x', 'site:host',
 *   'ref:value');
 * - language: visits by the browser's first language ('de', 'en', … or 'other');
 * - form: visitors who turned to the form (their browser fetched the form's script).
 */
export type VisitMetric = 'visit' | 'visitor' | 'filtered' | 'source' | 'language' | 'form'

/** What a domain notice tells (decision 047); here, where its column is, since the table modules import this file. */
export type DomainNoticeEvent = 'unreachable' | 'expiring'

export interface Database {
  inquiries: {
    id: Generated<number>
    token: string
    content_hash: string
    domain: string
    name: string
    email: string
    message: string
    /** The language of the page the buyer wrote from ('de' for every inquiry from before English pages). */
    language: Language
    spam_reason: string | null
    offer_amount: number | null
    offer_currency: string | null
    /** 0 or 1: SQLite has no boolean. */
    below_minimum: number
    created_at: number
    status: Generated<InquiryStatus>
    /** The owner's counter-offer, in the inquiry's currency, and until when it stands (status 'countered'). */
    counter_amount: number | null
    counter_expires_at: number | null
    /** The instalment plan offered with the counter-offer or chosen at the checkout (decision 042); null for none. */
    plan_rates: number | null
    plan_down_payment: number | null
    plan_transfer: 'after-last' | 'at-once' | null
    /** 'checkout': a purchase at the fixed price (decision 035), with the buyer's address in the buyer_* columns. */
    kind: Generated<'inquiry' | 'checkout'>
    buyer_company: string | null
    buyer_street: string | null
    buyer_postcode: string | null
    buyer_city: string | null
    /** ISO 3166-1 alpha-2. */
    buyer_country: string | null
    buyer_vat_id: string | null
    /** The name on the invoice, given with the address on a negotiated deal's page; null: the inquiry's name. */
    buyer_name: string | null
  }
  outbox: {
    id: Generated<number>
    inquiry_id: number
    /** The reply this mail carries to the visitor; null for the mail about the inquiry to the owner. */
    reply_id: number | null
    message_id: string
    status: OutboxStatus
    attempts: Generated<number>
    next_attempt_at: number
    last_error: string | null
    created_at: number
    sent_at: number | null
    failed_at: number | null
    mail_to: string | null
    resends: Generated<number>
    lease_owner: string | null
    lease_until: number | null
    /** Set for a webhook (a JSON POST about the inquiry to this address); null for a mail. */
    webhook_url: Generated<string | null>
    /** A deal's webhook (deal.*, decision 036): the deal and the event; null for an inquiry's rows. */
    deal_id: Generated<number | null>
    deal_event: Generated<DealEvent | null>
    /** The rate a deal's event is about (deal.overdue of an instalment, decision 042); 0 for the deal's own events. */
    deal_rate: Generated<number>
  }
  /** SQLite only: the FTS5 index of name, e-mail and message (PostgreSQL keeps it in inquiries.search). */
  inquiries_fts: { rowid: number }
  replies: {
    id: Generated<number>
    inquiry_id: number
    body: string
    reply_to: string | null
    created_at: number
    /** What the mail to the visitor is: the owner's own words, a step of the negotiation, or a confirmation. */
    kind: Generated<ReplyKind>
    /** A counter-offer's amount. */
    amount: number | null
  }
  /** A sale after the owner accepted an offer (docs/deals.md). Amounts in minor units (cents). */
  deals: {
    id: Generated<number>
    /** SHA-256 (hex) of the random id in the deal page's link: the link itself is never stored. */
    link_hash: string
    /** The link's token sealed with the deal key (deal/seal.ts), for the links in later mails. */
    link_sealed: string
    inquiry_id: number
    domain: string
    status: DealState
    amount: number
    currency: string
    reference: string
    created_at: number
    payment_due_at: number
    transfer_days: number
    paid_at: number | null
    transfer_due_at: number | null
    transferred_at: number | null
    completes_at: number | null
    completed_at: number | null
    cancelled_at: number | null
    cancelled_by: 'owner' | 'buyer' | null
    cancel_reason: string | null
    /** AES-256-GCM, sealed with the deal key (deal/transfer-code.ts); never the code itself. */
    transfer_code: string | null
    transfer_note: string | null
    /** When each deadline's reminder was queued (decision 036): null until then, so that each goes out once. */
    payment_reminded_at: number | null
    payment_overdue_at: number | null
    transfer_reminded_at: number | null
    /** 0 or 1: the owner's choice with "Übertragen" to tell the other inquirers when it completes by itself (decision 037). */
    notify_others: number | null
    /** An instalment plan's choice of when the name moves (decision 042); null for a deal paid at once. */
    plan_transfer: 'after-last' | 'at-once' | null
  }
  /** An instalment plan's payments (decision 042): number 0 the down payment, 1 … 60 the monthly rates. */
  deal_rates: {
    id: Generated<number>
    deal_id: number
    number: number
    amount: number
    due_at: number
    reference: string
    paid_at: number | null
    paid_by: 'owner' | 'bank' | null
    /** When the buyer was reminded before the due date, told it is overdue, and the owner decided to wait. */
    reminded_at: number | null
    overdue_at: number | null
    waited_at: number | null
  }
  /** Bookings of bank statements applied to deals (decision 040), once each by bank_key. */
  bank_payments: {
    id: Generated<number>
    bank_key: string
    deal_id: number | null
    reference: string
    account: string
    bank_ref: string | null
    booked_on: string | null
    /** Minor units; a return is negative. */
    amount: number
    currency: string
    kind: 'payment' | 'return'
    created_at: number
  }
  sessions: {
    id_hash: string
    created_at: number
    last_seen_at: number
    /** A short summary of the browser ("Chrome auf Linux"), never the whole User-Agent (decision 041). */
    user_agent: string | null
    /** The client's address in part (203.0.x.x): enough to recognise a place, not a person. */
    address: string | null
    /** How it signed in: password, password+totp, password+recovery, passkey. */
    method: string | null
  }
  /** The owner's passkeys (decision 041): public keys only, with the signature counter last seen. */
  passkeys: {
    id: Generated<number>
    /** base64url */
    credential_id: string
    /** COSE public key, base64url. */
    public_key: string
    counter: number
    /** JSON array of the authenticator's transports. */
    transports: string
    name: string
    created_at: number
    last_used_at: number | null
  }
  /** WebAuthn challenges handed out and not yet used: each is taken (deleted) by the one response that answers it. */
  webauthn_challenges: { challenge: string; purpose: 'register' | 'sign-in'; session_hash: string | null; expires_at: number }
  /** The TOTP second factor: one row at most; confirmed_at null while being set up. */
  totp: { owner: number; secret: string; confirmed_at: number | null; last_step: number; created_at: number }
  /** SHA-256 of each one-time recovery code. */
  recovery_codes: { code_hash: string; used_at: number | null }
  /** The last invoice number given (decision 038): one row, updated in the transaction that inserts the invoice. */
  invoice_numbers: { seller: string; last: number }
  /** Invoices and Stornorechnungen (docs/deals.md): frozen data, the PDF and its SHA-256 once drawn. */
  invoices: {
    id: Generated<number>
    number: number
    kind: 'invoice' | 'cancellation'
    deal_id: number | null
    cancels_id: number | null
    /** An Anzahlungsrechnung's rate (0 the down payment; decision 046); null for the invoice over the whole price. */
    advance_rate: number | null
    /** The mail the PDF goes with (the "Zahlung erhalten" or the cancellation's). */
    reply_id: number | null
    issued_at: number
    /** The invoice's data as issued (invoice/document.ts InvoiceData), JSON. */
    data: string
    /** 1: a Factur-X E-Rechnung (a business buyer). */
    e_invoice: number
    pdf: Uint8Array | null
    sha256: string | null
  }
  /** The audit trail (decision 043): who changed what, on which inquiry, deal or domain, with what outcome. */
  audit_log: {
    id: Generated<number>
    at: number
    /** "CLI", "session:" and a short id derived from the session's, or "anonym" (a failed sign-in). */
    actor: string
    action: AuditAction
    outcome: AuditOutcome
    inquiry_id: number | null
    deal_id: number | null
    /** ASCII (punycode), as stored elsewhere. */
    domain: string | null
    /** Short and never secret: a count, a method, an address in part. */
    detail: string | null
  }
  /** Edits of the domains file, numbered without gaps (decision 044): JSON of the edits as made. */
  domain_edits: { version: number; edits: string; created_at: number }
  meta: { key: string; value: string }
  page_views: { domain: string; day: string; views: number }
  /** Visitor statistics per name and Berlin day (decision 049). */
  visit_counts: { domain: string; day: string; metric: VisitMetric; key: string; count: number }
  /** The day's visitor hashes, erased when the day is over. */
  visitor_hashes: { domain: string; day: string; hash: string }
  /** The random salt of a Berlin day, erased when the day is over. */
  visit_salts: { day: string; salt: string }
  tls_names: { wildcard: string; name: string; day: string }
  /** RFC 2136 updates of a zone's _for-sale records (decision 045): an outbox of their own. */
  dns_updates: {
    id: Generated<number>
    zone: string
    /** The zone's names and their records as JSON (DnsNameRecords[]); a name with none has its records deleted. */
    names: string
    status: OutboxStatus
    attempts: Generated<number>
    next_attempt_at: number
    last_error: string | null
    created_at: number
    sent_at: number | null
    failed_at: number | null
    lease_owner: string | null
    lease_until: number | null
  }
  /** The names whose _for-sale records the server has published, by zone. */
  dns_names: { domain: string; zone: string }
  /** The last check of each listed name (decision 047), and what the owner was last told about it. */
  domain_checks: {
    domain: string
    checked_at: number
    pointing: PointingState
    pointing_detail: string
    records: RecordsState
    records_detail: string
    expiry: ExpiryState
    expires_at: number | null
    expiry_detail: string
    rdap_checked_at: number | null
    /** The state the last domain.unreachable (or its end) was about; null before any. */
    told_pointing: 'here' | 'elsewhere' | null
    /** The expiry date the last domain.expiring was about. */
    told_expires_at: number | null
  }
  /** domain.unreachable and domain.expiring, one row per address: an outbox of their own. */
  domain_notices: {
    id: Generated<number>
    domain: string
    event: DomainNoticeEvent
    /** JSON of DomainNoticeFacts: what the notification says. */
    facts: string
    webhook_url: string
    status: OutboxStatus
    attempts: Generated<number>
    next_attempt_at: number
    last_error: string | null
    created_at: number
    sent_at: number | null
    failed_at: number | null
    lease_owner: string | null
    lease_until: number | null
  }
}
