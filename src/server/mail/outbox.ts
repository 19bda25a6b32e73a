// The outbox worker: mail is never sent inside a request. It is stored with the inquiry and sent from here,
// retried with backoff on temporary failures, until it is delivered or clearly undeliverable.
import type { FastifyBaseLogger } from 'fastify'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import { dealNoticeOf, type DealNotice } from '../notify/message.ts'
import { sendNotification } from '../notify/send.ts'
import { notifyHost } from '../lib/notify-targets.ts'
import { InvoiceHashMismatchError, type OutboxItem, type Store } from '../store/types.ts'
import { composeInquiryMail, composeReplyMail, type MailAddresses } from './compose.ts'
import { composeConfirmMail } from './confirm-mail.ts'
import { composeDealMail, composeSoldNotice } from './deal-mail.ts'
import { composeDealStepMail } from './deal-step-mail.ts'
import { invoiceAttachments } from '../invoice/files.ts'
import type { MailTransport } from './transport.ts'
import { createLeasedQueue, RETRY, retryDelay, type Attempt, type LeasedQueue, type Outcome } from '../queue/leased-queue.ts'

// The backoff is the queue's (decision 057); named here too, where it was first.
export { RETRY, retryDelay }

/** SMTP 5xx replies are permanent: the server will not take this mail however often we try. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number })?.responseCode
  return typeof code === 'number' && code >= 500 && code < 600
}

const describe = (error: unknown) => {
  const e = error as { responseCode?: number; code?: string; message?: string }
  return [e?.responseCode, e?.code, e?.message].filter(Boolean).join(' ').slice(0, 500) || String(error)
}

/** A deal's notification whose deal was forgotten with its inquiry: marked failed, nothing to log. */
const DEAL_GONE = 'the deal no longer exists'

/** The longest a notification's request may take (less when the lease is shorter). */
const NOTIFY_TIMEOUT_MS = 10_000

export interface NotifyOptions {
  /** Signs every notification; without it none is sent (config.ts requires it with NOTIFY_URLS). */
  secret: string | undefined
  /** Name, e-mail and message go along (NOTIFY_PERSONAL). */
  personal: boolean
  /** Where the console is (ADMIN_URL, or its own address), or null without one. */
  consoleUrl(): string | null
}

export type OutboxWorker = LeasedQueue

export function createOutboxWorker(options: {
  /** The outbox's queue functions (store/tables/outbox.ts), the deals of notifications and the invoices of mails. */
  store: Pick<Store, 'queues' | 'getDeal' | 'replyInvoices' | 'getInvoice' | 'keepInvoicePdf'>
  transport: MailTransport
  addresses: MailAddresses
  log: FastifyBaseLogger
  /** Names this worker's leases in the store: unique per process (leaseOwnerOf). */
  owner: string
  /**
   * How long a claimed mail is this worker's alone (MAIL_LEASE_SECONDS): longer than the SMTP timeouts of one
   * attempt together.
   */
  leaseMs: number
  /** Signs the links of verify mails (the store's secret, or CONTACT_SECRET). */
  secret: string
  notify?: NotifyOptions
  now?: () => number
}): OutboxWorker {
  const { store, transport, addresses, log, leaseMs, secret } = options
  const notify = options.notify ?? { secret: undefined, personal: false, consoleUrl: () => null }
  const now = options.now ?? Date.now

  /** A mail to the visitor, by what it is. */
  function visitorMail(item: OutboxItem, reply: NonNullable<OutboxItem['reply']>) {
    const to = { ...addresses, visitor: item.mailTo ?? item.inquiry.email }
    switch (reply.kind) {
      case 'reply':
        return composeReplyMail(item.inquiry, reply, item.messageId, to)
      case 'counter':
      case 'accept':
      case 'decline':
        return composeDealMail(item.inquiry, { ...reply, kind: reply.kind }, item.messageId, to)
      case 'sold-notice':
        return composeSoldNotice(item.inquiry, reply, item.messageId, to)
      case 'notice':
      case 'verify':
        return composeConfirmMail(item.inquiry, { ...reply, kind: reply.kind }, item.messageId, { ...to, secret })
      case 'deal-paid':
      case 'deal-transferred':
      case 'deal-completed':
      case 'deal-cancelled':
      case 'deal-payment-reminder':
      case 'deal-overdue':
      case 'deal-transfer-reminder':
        return composeDealStepMail(item.inquiry, { ...reply, kind: reply.kind }, item.messageId, to)
    }
  }

  /** A notification (webhook or preset): POSTed, never mailed. */
  async function deliverNotification(item: OutboxItem, url: string): Promise<Attempt> {
    const consoleUrl = notify.consoleUrl()
    let deal: DealNotice | undefined
    if (item.deal) {
      // The deal as it is now: gone with its inquiry (forget) means nothing to tell.
      const stored = await store.getDeal(item.deal.id)
      if (!stored) return { status: 'failed', error: DEAL_GONE }
      deal = dealNoticeOf(stored, item.deal.event, item.createdAt, item.deal.rate)
    }
    const result = await sendNotification(
      url,
      {
        deliveryId: String(item.id),
        inquiry: item.inquiry,
        link: consoleUrl && `${consoleUrl}${CONSOLE_PATHS.inquiry(item.inquiry.id)}`,
        personal: notify.personal,
        ...(deal && { deal }),
      },
      { secret: notify.secret, timeoutMs: Math.min(NOTIFY_TIMEOUT_MS, leaseMs / 2), now: now() },
    )
    return result.status === 'sent' ? result : { status: result.status === 'failed' ? 'failed' : 'retry', error: result.error }
  }

  /** Logs name a notification's host only, never its path or payload. */
  function reportNotification(item: OutboxItem, url: string, outcome: Outcome) {
    const fields = { inquiry: item.inquiry.id, delivery: item.id, host: notifyHost(url), attempts: item.attempts + 1 }
    if (outcome.status === 'sent') log.info(fields, 'notification delivered')
    else if (outcome.status === 'failed') {
      if (outcome.error !== DEAL_GONE) log.error({ ...fields, reason: outcome.error }, 'NOTIFICATION FAILED: the receiver refused it; see Postausgang')
    } else if (outcome.status === 'gave-up') log.error({ ...fields, reason: outcome.error }, 'NOTIFICATION FAILED: gave up after 5 days of retries')
    else log.warn({ ...fields, retryInMs: outcome.retryInMs, reason: outcome.error }, 'notification not delivered, will retry')
  }

  async function deliver(item: OutboxItem): Promise<Attempt> {
    if (item.webhookUrl !== null) return deliverNotification(item, item.webhookUrl)
    const message = item.reply
      ? visitorMail(item, item.reply)
      : composeInquiryMail(item.inquiry, item.messageId, { ...addresses, to: item.mailTo ?? addresses.to })
    try {
      // The invoice goes with the mail of the step that issued it (decision 038), drawn now if it is not yet.
      if (item.reply?.kind === 'deal-paid' || item.reply?.kind === 'deal-cancelled') {
        const attachments = await invoiceAttachments(store, item.reply.id)
        if (attachments.length) message.attachments = attachments
      }
      await transport.send(message, item.reply ? `reply-${item.reply.id}.eml` : `inquiry-${item.inquiry.id}.eml`)
      return { status: 'sent' }
    } catch (error) {
      const reason = describe(error)
      // Not a mail server's hiccup: someone changed an issued invoice's bytes. The owner must hear it now, not in an hour.
      if (error instanceof InvoiceHashMismatchError)
        log.error(
          { inquiry: item.inquiry.id, reply: item.reply?.id, attempts: item.attempts + 1, reason },
          'MAIL HELD: an invoice it carries fails its hash; it is retried',
        )
      return { status: isPermanent(error) ? 'failed' : 'retry', error: reason }
    }
  }

  function report(item: OutboxItem, outcome: Outcome) {
    if (item.webhookUrl !== null) return reportNotification(item, item.webhookUrl, outcome)
    const attempts = item.attempts + 1
    if (outcome.status === 'sent') {
      log.info({ inquiry: item.inquiry.id, reply: item.reply?.id, attempts }, item.reply ? 'reply mailed' : 'inquiry mailed')
    } else if (outcome.status === 'failed') {
      log.error(
        { inquiry: item.inquiry.id, attempts, reason: outcome.error },
        'MAIL FAILED: the mail server rejected the inquiry permanently; it stays in the store',
      )
    } else if (outcome.status === 'gave-up') {
      log.error({ inquiry: item.inquiry.id, attempts, reason: outcome.error }, 'MAIL FAILED: gave up after 5 days of retries; the inquiry stays in the store')
    } else {
      const failingForMs = now() - item.createdAt
      if (failingForMs > RETRY.alarmAfterMs) {
        log.error(
          { inquiry: item.inquiry.id, attempts, failingForMinutes: Math.round(failingForMs / 60_000), reason: outcome.error },
          'MAIL FAILING for over an hour: check SMTP_URL and the mail server; the inquiry is kept and retried',
        )
      } else {
        log.warn({ inquiry: item.inquiry.id, attempts, retryInMs: outcome.retryInMs, reason: outcome.error }, 'mail not delivered, will retry')
      }
    }
  }

  const queue = createLeasedQueue<OutboxItem>(
    store.queues.outbox,
    // New mail is sent at once, also when it comes before the background work's delayed start: the process that
    // stored it sends it, rather than whichever process starts polling first.
    { name: 'outbox', deliver, report, kickStarts: true },
    options,
  )
  return {
    ...queue,
    async stop() {
      await queue.stop()
      transport.close()
    },
  }
}
