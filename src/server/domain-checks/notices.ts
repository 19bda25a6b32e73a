// Sends domain.unreachable and domain.expiring from their outbox (store/domain-checks.ts), as the mail outbox sends
// an inquiry's webhooks (decision 019): leased, signed, 2 s doubling to 15 min, given up after 5 days. Every process
// runs it; a lease gives each notification to one.
import type { FastifyBaseLogger } from 'fastify'
import { DOMAINS_PATH } from '../../shared/domains-api.ts'
import { RETRY, retryDelay } from '../mail/outbox.ts'
import { domainNoticeMessage } from '../notify/domain-notice.ts'
import { sendMessage } from '../notify/send.ts'
import { notifyHost } from '../lib/notify-targets.ts'
import type { DomainNoticeItem, Store } from '../store/types.ts'

const NOTIFY_TIMEOUT_MS = 10_000

export interface NoticeSender {
  start(): void
  kick(): void
  stop(): Promise<void>
}

export function createNoticeSender(options: {
  store: Store
  log: FastifyBaseLogger
  owner: string
  leaseMs: number
  secret: string | undefined
  consoleUrl(): string | null
  now?: () => number
}): NoticeSender {
  const { store, log, owner, leaseMs } = options
  const now = options.now ?? Date.now
  let running = false
  let timer: NodeJS.Timeout | undefined
  let sending: Promise<void> | undefined
  let again = false

  async function deliver(item: DomainNoticeItem) {
    const consoleUrl = options.consoleUrl()
    const message = domainNoticeMessage(item, consoleUrl && `${consoleUrl}${DOMAINS_PATH}`)
    const result = await sendMessage(item.webhookUrl, message, { secret: options.secret, timeoutMs: Math.min(NOTIFY_TIMEOUT_MS, leaseMs / 2), now: now() })
    const fields = { domain: item.domain, event: `domain.${item.event}`, delivery: item.id, host: notifyHost(item.webhookUrl), attempts: item.attempts + 1 }
    if (result.status === 'sent') {
      await store.markDomainNoticeSent(item.id, now())
      log.info(fields, 'notification delivered')
    } else if (result.status === 'failed' || now() - item.createdAt > RETRY.giveUpAfterMs) {
      await store.markDomainNoticeFailed(item.id, result.error, now())
      log.error({ ...fields, reason: result.error }, 'NOTIFICATION FAILED')
    } else {
      const delay = retryDelay(item.attempts + 1)
      await store.markDomainNoticeRetry(item.id, now() + delay, result.error)
      log.warn({ ...fields, retryInMs: delay, reason: result.error }, 'notification not delivered, will retry')
    }
  }

  async function pass() {
    do {
      again = false
      const due = await store.claimDomainNotices(now(), 20, owner, leaseMs)
      for (const item of due) {
        if (!running) return
        await deliver(item)
      }
      if (due.length) again = true
    } while (again && running)
  }

  async function schedule() {
    if (!running) return
    clearTimeout(timer)
    let wait = RETRY.pollMs
    try {
      const next = await store.nextDomainNoticeDueAt()
      if (next !== null) wait = Math.max(0, Math.min(RETRY.pollMs, next - now()))
    } catch (error) {
      log.error({ err: error }, 'domain notifications: could not read the store')
    }
    if (running) timer = setTimeout(trigger, wait)
  }

  function trigger() {
    if (!running) return
    if (sending) {
      again = true
      return
    }
    sending = pass()
      .catch((error: unknown) => log.error({ err: error }, 'domain notification pass failed'))
      .finally(() => {
        sending = undefined
        void schedule()
      })
  }

  return {
    start() {
      if (running) return
      running = true
      trigger()
    },
    kick: trigger,
    async stop() {
      running = false
      clearTimeout(timer)
      await sending
    },
  }
}
