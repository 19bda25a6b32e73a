// The store's part for the audit trail (store/audit.ts, decision 043).
import type { AuditAction, AuditOutcome } from '../../shared/audit-api.ts'

/** "CLI", a session's short id ("session:1a2b3c4d", never the session's id or its hash), or "none" (a failed sign-in). */
export type AuditActor = 'CLI' | 'none' | `session:${string}`

export interface NewAuditEntry {
  at: number
  actor: AuditActor
  action: AuditAction
  outcome: AuditOutcome
  inquiryId?: number | null
  dealId?: number | null
  /** ASCII (punycode). */
  domain?: string | null
  /** Short and never secret: a count, a sign-in's method, an address in part. Never a text someone typed. */
  detail?: string | null
}

export interface AuditEntry extends Required<NewAuditEntry> {
  id: number
}

/** Newest first, keyset-paginated by (at, id). */
export interface AuditFilter {
  /** Epoch milliseconds, inclusive. */
  since?: number
  /** Epoch milliseconds, exclusive. */
  until?: number
  action?: AuditAction
  inquiryId?: number
  dealId?: number
  domain?: string
  /** Only rows older than this one (the last row of the previous page). */
  before?: { at: number; id: number }
  limit: number
}

export interface AuditStore {
  addAuditEntry(entry: NewAuditEntry): Promise<void>
  auditEntries(filter: AuditFilter): Promise<AuditEntry[]>
  /** Removes the rows from before `before` (retention, 2 years); returns how many. */
  pruneAudit(before: number): Promise<number>
}
