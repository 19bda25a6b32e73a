// Sends domain.unreachable and domain.expiring from their outbox (store/tables/domain-notices.ts), as the mail outbox sends
// an inquiry's webhooks (decision 019): leased, signed, 2 s doubling to 15 min, given up after 5 days. Every process
// runs it; a lease gives each notification to one.
import type { FastifyBaseLogger } from 'fastify'
import { DOMAINS_PATH } from '../../shared/domains-api.ts'
import { domainNoticeMessage } from '../notify/domain-notice.ts'
import { sendMessage } from '../notify/send.ts'
import { notifyHost } from '../lib/notify-targets.ts'
import type { DomainNoticeItem, Store } from '../store/types.ts'
import { createLeasedQueue, type Attempt, type LeasedQueue, type Outcome } from '../queue/leased-queue.ts'

const NOTIFY_TIMEOUT_MS = 10_000

export type NoticeSender = LeasedQueue

export function createNoticeSender(options: {
  /** Only the notices' queue functions (store/tables/domain-notices.ts). */
  store: Pick<Store, 'queues'>
  log: FastifyBaseLogger
  owner: string
  leaseMs: number
  secret: string | undefined
  consoleUrl(): string | null
  now?: () => number
}): NoticeSender {
  const { store, log, leaseMs } = options
  const now = options.now ?? Date.now

  async function deliver(item: DomainNoticeItem): Promise<Attempt> {
    const consoleUrl = options.consoleUrl()
    const message = domainNoticeMessage(item, consoleUrl && `${consoleUrl}${DOMAINS_PATH}`)
    const result = await sendMessage(item.webhookUrl, message, { secret: options.secret, timeoutMs: Math.min(NOTIFY_TIMEOUT_MS, leaseMs / 2), now: now() })
    return result.status === 'sent' ? result : { status: result.status === 'failed' ? 'failed' : 'retry', error: result.error }
  }

  function report(item: DomainNoticeItem, outcome: Outcome) {
    const fields = { domain: item.domain, event: `domain.${item.event}`, delivery: item.id, host: notifyHost(item.webhookUrl), attempts: item.attempts + 1 }
    if (outcome.status === 'sent') log.info(fields, 'notification delivered')
    else if (outcome.status === 'retry') log.warn({ ...fields, retryInMs: outcome.retryInMs, reason: outcome.error }, 'notification not delivered, will retry')
    else log.error({ ...fields, reason: outcome.error }, 'NOTIFICATION FAILED')
  }

  return createLeasedQueue(store.queues.domainNotices, { name: 'domain notifications', deliver, report }, options)
}
