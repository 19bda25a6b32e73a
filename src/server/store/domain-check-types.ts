// The store's part for the daily checks of the listed names (decision 047; store/domain-checks.ts).
import type { DomainCheck } from '../../shared/domain-checks.ts'
import type { OutboxStatus } from './inquiry-types.ts'

export type DomainNoticeEvent = 'unreachable' | 'expiring'

/** What a notification says; public facts only (the name, where it points, a date), no personal data. */
export interface DomainNoticeFacts {
  /** When the check found it. */
  time: number
  pointingDetail: string
  expiresAt: number | null
}

/** A pending notification, claimed to be sent. */
export interface DomainNoticeItem {
  id: number
  domain: string
  event: DomainNoticeEvent
  facts: DomainNoticeFacts
  webhookUrl: string
  attempts: number
  createdAt: number
}

/** A row of the Postausgang. */
interface DomainNoticeListing {
  id: number
  domain: string
  event: DomainNoticeEvent
  webhookUrl: string
  status: OutboxStatus
  attempts: number
  lastError: string | null
  createdAt: number
  nextAttemptAt: number
}

export interface DomainCheckStore {
  /**
   * The last check of every name checked (also of names no longer listed: nothing is dropped silently), or of the
   * names given (ASCII).
   */
  domainChecks(only?: readonly string[]): Promise<DomainCheck[]>
  /**
   * The Übersicht's names that need attention (needsAttention), of the `names` given (ASCII, the domains file's):
   * how many of them have a check, how many of those need attention, and the `limit` most urgent of those (not
   * pointing here, then the nearest expiry, then records). Counted and picked in the database: reads `limit` rows.
   */
  domainCheckAttention(
    names: readonly string[],
    options: { now: number; expiringMs: number; limit: number },
  ): Promise<{ checked: number; total: number; checks: DomainCheck[] }>
  /**
   * Stores the checks and, in the same transaction, decides what the owner is told: domain.unreachable when a name is
   * found pointing elsewhere and the owner was not told so since it last pointed here; domain.expiring when its
   * expiry date is under `expiringMs` away and not the date told before. One row per address `notify` gives for the
   * name (none: the change is still recorded, so a later address is not told old news). Returns the events, per name.
   */
  saveDomainChecks(
    checks: DomainCheck[],
    options: { now: number; expiringMs: number; notify: (ascii: string) => readonly string[] },
  ): Promise<{ domain: string; event: DomainNoticeEvent }[]>
  claimDomainNotices(now: number, limit: number, owner: string, leaseMs: number): Promise<DomainNoticeItem[]>
  markDomainNoticeSent(id: number, now: number): Promise<void>
  markDomainNoticeRetry(id: number, nextAttemptAt: number, error: string): Promise<void>
  markDomainNoticeFailed(id: number, error: string, now: number): Promise<void>
  /** When the next pending notification is due (or its lease ends), or null. */
  nextDomainNoticeDueAt(): Promise<number | null>
  listDomainNotices(statuses: OutboxStatus[]): Promise<DomainNoticeListing[]>
  /** Queues a pending or failed notification again, due now, with the same delivery id; false when there is none (or it is being sent). */
  resendDomainNotice(id: number, now: number): Promise<boolean>
}
