// The console's page "Datenschutz": what its API answers (POST /api/privacy/access and /api/privacy/erase, each with
// { email }). Shared by the server and the console's React code; nothing here may import server code.
import type { Language } from './language.ts'

export const PRIVACY_PATH = '/datenschutz'

export interface PrivacyRequest {
  email: string
}

/** Everything stored about one address (GDPR Art. 15): the JSON the owner downloads and hands over. */
export interface AccessReport {
  email: string
  /** ISO 8601 times, UTC. */
  createdAt: string | null
  inquiries: {
    id: number
    domain: string
    domainAscii: string
    createdAt: string | null
    name: string
    email: string
    message: string
    /** The language of the page the inquiry was written on (de, en). */
    language: Language
    offer: { amount: number; currency: string } | null
    belowMinimum: boolean
    counterOffer: { amount: number; expiresAt: string | null } | null
    status: string
    spamReason: string | null
    replies: { id: number; kind: string; createdAt: string | null; body: string; amount: number | null; replyTo: string | null }[]
    /** The inquiry's deals: never the transfer code or the deal page's link. Amounts in minor units (cents). */
    deals: {
      id: number
      domain: string
      reference: string
      status: string
      amount: { minor: number; currency: string }
      createdAt: string | null
      paymentDueAt: string | null
      paidAt: string | null
      transferDueAt: string | null
      transferredAt: string | null
      completedAt: string | null
      cancelledAt: string | null
      cancelledBy: string | null
      cancelReason: string | null
      transferNote: string | null
      /** An instalment plan's payments: due date, amount (minor units), when received, the payment reference. */
      rates: { number: number; dueAt: string | null; amount: { minor: number; currency: string }; paidAt: string | null; reference: string }[]
      /** The deal's invoices ("RE-00042"), kind and date: kept 8 years even after an erasure (§147 AO, §14b UStG). */
      invoices: { number: string; kind: 'invoice' | 'advance' | 'cancellation'; issuedAt: string | null }[]
    }[]
    mails: {
      id: number
      kind: 'inquiry' | 'reply' | 'webhook'
      replyId: number | null
      /** An address for mail ("MAIL_TO" for the server's), or "Webhook an <host>": never a notification's whole URL. */
      to: string
      messageId: string
      status: string
      attempts: number
      lastError: string | null
      createdAt: string | null
      sentAt: string | null
      failedAt: string | null
    }[]
    /** The audit trail's rows naming this inquiry or its deals (decision 043): what the owner did, when, by whom. */
    audit: { at: string | null; action: string; outcome: string; dealId: number | null; actor: string }[]
  }[]
}

/** What an erasure (Art. 17) removed. */
export interface ErasedReport {
  inquiries: { id: number; domain: string }[]
  domains: string[]
  replies: number[]
  outboxRows: number
  mailFiles: number
  /** Rows of the audit trail that named them, kept without the link to them (decision 043). */
  auditRows: number
  /** Invoices of their deals that are kept (8 years after the year of issue by default, §147 AO, §14b UStG; GDPR Art. 17(3)(b)): "RE-00042". */
  keptInvoices: string[]
}
