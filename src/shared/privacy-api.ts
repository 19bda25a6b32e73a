// The console's page "Datenschutz": what its API answers (POST /api/privacy/access and /api/privacy/erase, each with
// { email }). Shared by the server and the console's React code; nothing here may import server code.
import * as z from 'zod/mini'
import { LANGUAGES } from './language.ts'

export const PRIVACY_PATH = '/datenschutz'

export interface PrivacyRequest {
  email: string
}

const when = z.nullable(z.string())
const minorAmount = z.object({ minor: z.number(), currency: z.string() })

/** Everything stored about one address (GDPR Art. 15): the JSON the owner downloads and hands over. */
export const accessReportSchema = z.object({
  email: z.string(),
  /** ISO 8601 times, UTC. */
  createdAt: when,
  inquiries: z.array(
    z.object({
      id: z.number(),
      domain: z.string(),
      domainAscii: z.string(),
      createdAt: when,
      name: z.string(),
      email: z.string(),
      message: z.string(),
      /** The language of the page the inquiry was written on (de, en). */
      language: z.enum(LANGUAGES),
      offer: z.nullable(z.object({ amount: z.number(), currency: z.string() })),
      belowMinimum: z.boolean(),
      counterOffer: z.nullable(z.object({ amount: z.number(), expiresAt: when })),
      status: z.string(),
      spamReason: z.nullable(z.string()),
      replies: z.array(
        z.object({ id: z.number(), kind: z.string(), createdAt: when, body: z.string(), amount: z.nullable(z.number()), replyTo: z.nullable(z.string()) }),
      ),
      /** The inquiry's deals: never the transfer code or the deal page's link. Amounts in minor units (cents). */
      deals: z.array(
        z.object({
          id: z.number(),
          domain: z.string(),
          reference: z.string(),
          status: z.string(),
          amount: minorAmount,
          createdAt: when,
          paymentDueAt: when,
          paidAt: when,
          transferDueAt: when,
          transferredAt: when,
          completedAt: when,
          cancelledAt: when,
          cancelledBy: z.nullable(z.string()),
          cancelReason: z.nullable(z.string()),
          transferNote: z.nullable(z.string()),
          /** An instalment plan's payments: due date, amount (minor units), when received, the payment reference. */
          rates: z.array(z.object({ number: z.number(), dueAt: when, amount: minorAmount, paidAt: when, reference: z.string() })),
          /** The deal's invoices ("RE-00042"), kind and date: kept 8 years even after an erasure (§147 AO, §14b UStG). */
          invoices: z.array(z.object({ number: z.string(), kind: z.enum(['invoice', 'advance', 'cancellation']), issuedAt: when })),
        }),
      ),
      mails: z.array(
        z.object({
          id: z.number(),
          kind: z.enum(['inquiry', 'reply', 'webhook']),
          replyId: z.nullable(z.number()),
          /** An address for mail ("MAIL_TO" for the server's), or "Webhook an <host>": never a notification's whole URL. */
          to: z.string(),
          messageId: z.string(),
          status: z.string(),
          attempts: z.number(),
          lastError: z.nullable(z.string()),
          createdAt: when,
          sentAt: when,
          failedAt: when,
        }),
      ),
      /** The audit trail's rows naming this inquiry or its deals (decision 043): what the owner did, when, by whom. */
      audit: z.array(z.object({ at: when, action: z.string(), outcome: z.string(), dealId: z.nullable(z.number()), actor: z.string() })),
    }),
  ),
})
export type AccessReport = z.infer<typeof accessReportSchema>

/** What an erasure (Art. 17) removed. */
export const erasedReportSchema = z.object({
  inquiries: z.array(z.object({ id: z.number(), domain: z.string() })),
  domains: z.array(z.string()),
  replies: z.array(z.number()),
  outboxRows: z.number(),
  mailFiles: z.number(),
  /** Rows of the audit trail that named them, kept without the link to them (decision 043). */
  auditRows: z.number(),
  /** Invoices of their deals that are kept (8 years after the year of issue by default, §147 AO, §14b UStG; GDPR Art. 17(3)(b)): "RE-00042". */
  keptInvoices: z.array(z.string()),
})
export type ErasedReport = z.infer<typeof erasedReportSchema>
