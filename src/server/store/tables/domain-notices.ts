// The notifications of the daily checks (decision 047), in an outbox of their own: leased, retried like mail. A
// domain check queues them (domain-checks.ts); `domainNoticeQueue` is what their sender's queue takes (decision 057),
// guarded as tables/leased.ts says.
import { writer, type DialectSpecifics } from '../dialect.ts'
import type { OutboxStatus } from '../inquiry-types.ts'
import type { DomainNoticeEvent } from '../schema.ts'
import type { Db } from './db.ts'
import { leasedTable, type LeasedQueueTable } from './leased.ts'

export type { DomainNoticeEvent }

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

/** The Store's methods over this table (store.ts delegates each to a function below). */
export interface DomainNoticeStore {
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

const leased = (db: Db, dialect: DialectSpecifics) => leasedTable(db, dialect, 'domain_notices')

export function domainNoticeQueue(db: Db, dialect: DialectSpecifics): LeasedQueueTable<DomainNoticeItem> {
  const { claim, nextDueAt, releaseLeases, markSent, markRetry, markFailed } = leased(db, dialect)
  return {
    async claim(now, limit, owner, leaseMs) {
      const claimed = await claim(now, limit, owner, leaseMs)
      return claimed.map((row) => ({
        id: Number(row.id),
        domain: row.domain,
        event: row.event,
        facts: JSON.parse(row.facts) as DomainNoticeFacts,
        webhookUrl: row.webhook_url,
        attempts: row.attempts,
        createdAt: Number(row.created_at),
      }))
    },
    nextDueAt,
    releaseLeases,
    markSent: (id, now) => markSent(id, now),
    markRetry,
    markFailed,
  }
}

export async function listDomainNotices(db: Db, dialect: DialectSpecifics, statuses: OutboxStatus[]): Promise<DomainNoticeListing[]> {
  const rows = await leased(db, dialect).list(statuses, ['domain', 'event', 'webhook_url'])
  return rows.map(({ webhook_url, ...row }) => ({ ...row, webhookUrl: webhook_url }))
}

/** "Erneut senden": new work, so a write (refused on a lost SQLite file). */
export const resendDomainNotice = (db: Db, dialect: DialectSpecifics, id: number, now: number) => leased(db, dialect).resend(id, now, writer(dialect))
