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
  /** Sends what is due now until a pass finds nothing (as the outbox's drain): for tests. Works before start() too. */
  drain(): Promise<void>
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
  let stopped = false
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

  /** How many notifications it claimed. */
  async function pass(): Promise<number> {
    let claimed = 0
    do {
      again = false
      const due = await store.claimDomainNotices(now(), 20, owner, leaseMs)
      claimed += due.length
      for (const item of due) {
        if (stopped) return claimed
        await deliver(item)
      }
      if (due.length) again = true
    } while (again && !stopped)
    return claimed
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

  function startPass(): Promise<number> {
    const work = pass()
    sending = work
      .then(
        () => {},
        (error: unknown) => log.error({ err: error }, 'domain notification pass failed'),
      )
      .finally(() => {
        sending = undefined
        void schedule()
      })
    return work
  }

  function trigger() {
    if (!running) return
    if (sending) {
      again = true
      return
    }
    void startPass()
  }

  return {
    start() {
      if (running) return
      running = true
      stopped = false
      trigger()
    },
    kick: trigger,
    async drain() {
      for (;;) {
        while (sending) await sending
        if (stopped || (await startPass()) === 0) return
      }
    },
    async stop() {
      running = false
      stopped = true
      clearTimeout(timer)
      await sending
    },
  }
}
