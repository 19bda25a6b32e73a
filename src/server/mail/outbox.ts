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

export const RETRY = {
  firstDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  /** A mail that still fails this long after the inquiry arrived is given up and marked failed. */
  giveUpAfterMs: 5 * 24 * 60 * 60_000,
  /** Failing longer than this is an alarm: logged as an error, and /readyz answers 503. */
  alarmAfterMs: 60 * 60_000,
  /** Even with nothing due, look at the store this often (another process may have added mail). */
  pollMs: 5_000,
}

/** 2 s, 4 s, 8 s … doubling up to 15 min. */
export function retryDelay(failedAttempts: number): number {
  return Math.min(RETRY.maxDelayMs, RETRY.firstDelayMs * 2 ** Math.max(0, failedAttempts - 1))
}

/** SMTP 5xx replies are permanent: the server will not take this mail however often we try. */
export function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number })?.responseCode
  return typeof code === 'number' && code >= 500 && code < 600
}

const describe = (error: unknown) => {
  const e = error as { responseCode?: number; code?: string; message?: string }
  return [e?.responseCode, e?.code, e?.message].filter(Boolean).join(' ').slice(0, 500) || String(error)
}

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

export interface OutboxWorker {
  start(): void
  /** Something new is waiting: look now instead of at the next poll. */
  kick(): void
  /**
   * Sends what is due now, pass after pass, until a pass finds nothing (a failure is retried later, so it is not due
   * now): the poll's own passes, which tests call instead of waiting for the poll. Works before start() too.
   */
  drain(): Promise<void>
  /** Finishes the send in flight, then stops. */
  stop(): Promise<void>
}

export function createOutboxWorker(options: {
  store: Store
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
  const { store, transport, addresses, log, owner, leaseMs, secret } = options
  const notify = options.notify ?? { secret: undefined, personal: false, consoleUrl: () => null }
  const now = options.now ?? Date.now
  let running = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<void> | undefined
  let again = false

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

  /** A notification (webhook or preset): POSTed, never mailed. Logs name its host only, never its path or payload. */
  async function deliverNotification(item: OutboxItem, url: string) {
    const consoleUrl = notify.consoleUrl()
    let deal: DealNotice | undefined
    if (item.deal) {
      // The deal as it is now: gone with its inquiry (forget) means nothing to tell.
      const stored = await store.getDeal(item.deal.id)
      if (!stored) {
        await store.markFailed(item.id, 'the deal no longer exists', now())
        return
      }
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
    const fields = { inquiry: item.inquiry.id, delivery: item.id, host: notifyHost(url), attempts: item.attempts + 1 }
    if (result.status === 'sent') {
      await store.markSent(item.id, now())
      log.info(fields, 'notification delivered')
    } else if (result.status === 'failed') {
      await store.markFailed(item.id, result.error, now())
      log.error({ ...fields, reason: result.error }, 'NOTIFICATION FAILED: the receiver refused it; see Postausgang')
    } else if (now() - item.createdAt > RETRY.giveUpAfterMs) {
      await store.markFailed(item.id, result.error, now())
      log.error({ ...fields, reason: result.error }, 'NOTIFICATION FAILED: gave up after 5 days of retries')
    } else {
      const delay = retryDelay(item.attempts + 1)
      await store.markRetry(item.id, now() + delay, result.error)
      log.warn({ ...fields, retryInMs: delay, reason: result.error }, 'notification not delivered, will retry')
    }
  }

  async function deliver(item: OutboxItem) {
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
      await store.markSent(item.id, now())
      log.info({ inquiry: item.inquiry.id, reply: item.reply?.id, attempts: item.attempts + 1 }, item.reply ? 'reply mailed' : 'inquiry mailed')
    } catch (error) {
      const reason = describe(error)
      const attempts = item.attempts + 1
      // Not a mail server's hiccup: someone changed an issued invoice's bytes. The owner must hear it now, not in an hour.
      if (error instanceof InvoiceHashMismatchError)
        log.error({ inquiry: item.inquiry.id, reply: item.reply?.id, attempts, reason }, 'MAIL HELD: an invoice it carries fails its hash; it is retried')
      if (isPermanent(error)) {
        await store.markFailed(item.id, reason, now())
        log.error({ inquiry: item.inquiry.id, attempts, reason }, 'MAIL FAILED: the mail server rejected the inquiry permanently; it stays in the store')
      } else if (now() - item.createdAt > RETRY.giveUpAfterMs) {
        await store.markFailed(item.id, reason, now())
        log.error({ inquiry: item.inquiry.id, attempts, reason }, 'MAIL FAILED: gave up after 5 days of retries; the inquiry stays in the store')
      } else {
        const delay = retryDelay(attempts)
        await store.markRetry(item.id, now() + delay, reason)
        const failingForMs = now() - item.createdAt
        if (failingForMs > RETRY.alarmAfterMs) {
          log.error(
            { inquiry: item.inquiry.id, attempts, failingForMinutes: Math.round(failingForMs / 60_000), reason },
            'MAIL FAILING for over an hour: check SMTP_URL and the mail server; the inquiry is kept and retried',
          )
        } else {
          log.warn({ inquiry: item.inquiry.id, attempts, retryInMs: delay, reason }, 'mail not delivered, will retry')
        }
      }
    }
  }

  /** How many mails it claimed. */
  async function runPass(): Promise<number> {
    let claimed = 0
    do {
      again = false
      const leaseEnd = now() + leaseMs
      const due = await store.claimDueMail(now(), 20, owner, leaseMs)
      claimed += due.length
      for (const [i, item] of due.entries()) {
        if (stopped) return claimed
        // The lease covers the whole batch, but the mails go out one by one: with less than half of it left,
        // give the rest back and claim anew, rather than send a mail whose lease another process may take.
        if (i > 0 && leaseEnd - now() < leaseMs / 2) {
          await store.releaseLeases(owner)
          again = true
          break
        }
        await deliver(item)
      }
      if (due.length === 20) again = true
    } while (again && !stopped)
    return claimed
  }

  async function schedule() {
    if (!running) return
    clearTimeout(timer)
    let wait = RETRY.pollMs
    try {
      const next = await store.nextDueAt()
      if (next !== null) wait = Math.max(0, Math.min(RETRY.pollMs, next - now()))
    } catch (error) {
      log.error({ err: error }, 'outbox: could not read the store')
    }
    if (running) timer = setTimeout(trigger, wait)
  }

  /** A pass, seen by trigger() as the one in flight; the poll goes on after it (when running). */
  function startPass(): Promise<number> {
    const work = runPass()
    pass = work
      .then(
        () => {},
        (error: unknown) => log.error({ err: error }, 'outbox pass failed'),
      )
      .finally(() => {
        pass = undefined
        // At debug only: the sign a test of several instances waits for (each one's look at the outbox is over).
        log.debug('outbox pass done')
        void schedule()
      })
    return work
  }

  function trigger() {
    if (!running) return
    if (pass) {
      again = true
      return
    }
    void startPass()
  }

  return {
    start() {
      if (running || stopped) return
      running = true
      trigger()
    },
    // New mail is sent at once, also when it comes before the background work's delayed start: the process that
    // stored it sends it, rather than whichever process starts polling first.
    kick() {
      if (!running && !stopped) running = true
      trigger()
    },
    async drain() {
      for (;;) {
        // The pass in flight first: it may hold what is due now.
        while (pass) await pass
        if (stopped || (await startPass()) === 0) return
      }
    },
    async stop() {
      stopped = true
      running = false
      clearTimeout(timer)
      await pass
      transport.close()
    },
  }
}
