// What the owner hands a person who asks what is stored about them (GDPR Art. 15), and what an erasure removed:
// the same JSON from the CLI and the console. Times are ISO 8601 (UTC); domains as shown and as stored.
import { notifyHost } from '../lib/notify-targets.ts'
import { displayHost } from '../sites/host.ts'
import type { PersonInquiry } from '../store/types.ts'
import type { AccessReport, ErasedReport } from '../../shared/privacy-api.ts'
import type { ErasedPerson } from './erase.ts'
import { formatInvoiceNumber } from '../invoice/document.ts'

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString())

/** An address as a person writes it: one @, no space, no control character; at most 320 characters. */
export const looksLikeAddress = (value: string) => value.length <= 320 && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(value)

/**
 * The deal page's link in a stored mail, cut to its path: the link opens the page and reveals the transfer code to
 * whoever has the buyer's address, so a report that is handed on or leaked must not carry it (docs/privacy.md).
 */
const withoutDealLinks = (text: string) => text.replace(/\/kauf\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?/g, '/kauf/[…]')

export function accessReport(email: string, data: PersonInquiry[], now = Date.now()): AccessReport {
  return {
    email,
    createdAt: iso(now),
    inquiries: data.map(({ inquiry, replies, deals, mails, audit }) => ({
      id: inquiry.id,
      domain: displayHost(inquiry.domain),
      domainAscii: inquiry.domain,
      createdAt: iso(inquiry.createdAt),
      name: inquiry.name,
      email: inquiry.email,
      message: inquiry.message,
      language: inquiry.language,
      offer: inquiry.offer,
      belowMinimum: inquiry.belowMinimum,
      ...(inquiry.checkout && { checkout: inquiry.checkout }),
      ...(inquiry.invoiceAddress && { invoiceAddress: inquiry.invoiceAddress }),
      counterOffer: inquiry.counter ? { amount: inquiry.counter.amount, expiresAt: iso(inquiry.counter.expiresAt) } : null,
      status: inquiry.status,
      spamReason: inquiry.spamReason,
      replies: replies.map((reply) => ({
        id: reply.id,
        kind: reply.kind,
        createdAt: iso(reply.createdAt),
        body: withoutDealLinks(reply.body),
        amount: reply.amount,
        replyTo: reply.replyTo,
      })),
      deals: deals.map((deal) => ({
        id: deal.id,
        domain: displayHost(deal.domain),
        reference: deal.reference,
        status: deal.status,
        amount: { minor: deal.amount, currency: deal.currency },
        createdAt: iso(deal.createdAt),
        paymentDueAt: iso(deal.paymentDueAt),
        paidAt: iso(deal.paidAt),
        transferDueAt: iso(deal.transferDueAt),
        transferredAt: iso(deal.transferredAt),
        completedAt: iso(deal.completedAt),
        cancelledAt: iso(deal.cancelledAt),
        cancelledBy: deal.cancelledBy,
        cancelReason: deal.cancelReason,
        transferNote: deal.transferNote,
        rates: deal.rates.map((rate) => ({
          number: rate.number,
          dueAt: iso(rate.dueAt),
          amount: { minor: rate.amount, currency: deal.currency },
          paidAt: iso(rate.paidAt),
          reference: rate.reference,
        })),
        invoices: deal.invoices.map((invoice) => ({ number: formatInvoiceNumber(invoice.number), kind: invoice.kind, issuedAt: iso(invoice.issuedAt) })),
      })),
      mails: mails.map((mail) => ({
        id: mail.id,
        kind: mail.webhookUrl !== null ? ('webhook' as const) : mail.replyId !== null ? ('reply' as const) : ('inquiry' as const),
        replyId: mail.replyId,
        // A notification by its receiver's host only: the rest of its address may hold a token (decision 019).
        to:
          mail.webhookUrl !== null
            ? `Webhook an ${notifyHost(mail.webhookUrl)}`
            : mail.replyId !== null
              ? (mail.mailTo ?? inquiry.email)
              : (mail.mailTo ?? 'MAIL_TO'),
        messageId: mail.messageId,
        status: mail.status,
        attempts: mail.attempts,
        lastError: mail.lastError,
        createdAt: iso(mail.createdAt),
        sentAt: iso(mail.sentAt),
        failedAt: iso(mail.failedAt),
      })),
      audit: audit.map((entry) => ({ at: iso(entry.at), action: entry.action, outcome: entry.outcome, dealId: entry.dealId, actor: entry.actor })),
    })),
  }
}

export function erasedReport(erased: ErasedPerson): ErasedReport {
  return {
    inquiries: erased.inquiries.map(({ id, domain }) => ({ id, domain: displayHost(domain) })),
    domains: [...new Set(erased.inquiries.map(({ domain }) => displayHost(domain)))],
    replies: erased.replyIds,
    outboxRows: erased.outboxRows,
    mailFiles: erased.files,
    auditRows: erased.auditRows,
    keptInvoices: erased.keptInvoices.map(formatInvoiceNumber),
  }
}
