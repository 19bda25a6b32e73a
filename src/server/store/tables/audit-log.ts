// The table audit_log (decision 043): one row per change made through the console or the CLI, with its types. Plain
// functions over the store's Kysely or a unit of work's transaction (decision 060). Rows naming a person's inquiry or
// deal are read with the person's data and outlive its erasure without the link to the person (store/privacy.ts).
import type { AuditAction, AuditOutcome } from '../../../shared/audit-api.ts'
import type { Database } from '../schema.ts'
import type { Q } from './db.ts'

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

/** A detail is a few words; anything longer is cut, so that a mistake never stores a whole text. */
export const AUDIT_DETAIL_MAX = 200

type AuditRow = Database['audit_log']

export const toAuditEntry = (row: Omit<AuditRow, 'id'> & { id: number }): AuditEntry => ({
  id: Number(row.id),
  at: Number(row.at),
  actor: row.actor as AuditEntry['actor'],
  action: row.action,
  outcome: row.outcome,
  inquiryId: row.inquiry_id === null ? null : Number(row.inquiry_id),
  dealId: row.deal_id === null ? null : Number(row.deal_id),
  domain: row.domain,
  detail: row.detail,
})

export async function addAuditEntry(q: Q, entry: NewAuditEntry): Promise<void> {
  await q
    .insertInto('audit_log')
    .values({
      at: entry.at,
      actor: entry.actor,
      action: entry.action,
      outcome: entry.outcome,
      inquiry_id: entry.inquiryId ?? null,
      deal_id: entry.dealId ?? null,
      domain: entry.domain ?? null,
      detail: entry.detail == null ? null : entry.detail.slice(0, AUDIT_DETAIL_MAX),
    })
    .execute()
}

export async function auditEntries(q: Q, filter: AuditFilter): Promise<AuditEntry[]> {
  const rows = await q
    .selectFrom('audit_log')
    .selectAll()
    .$if(filter.since !== undefined, (qb) => qb.where('at', '>=', filter.since!))
    .$if(filter.until !== undefined, (qb) => qb.where('at', '<', filter.until!))
    .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action!))
    .$if(filter.inquiryId !== undefined, (qb) => qb.where('inquiry_id', '=', filter.inquiryId!))
    .$if(filter.dealId !== undefined, (qb) => qb.where('deal_id', '=', filter.dealId!))
    .$if(filter.domain !== undefined, (qb) => qb.where('domain', '=', filter.domain!))
    .$if(filter.before !== undefined, (qb) =>
      qb.where((eb) => eb.or([eb('at', '<', filter.before!.at), eb.and([eb('at', '=', filter.before!.at), eb('id', '<', filter.before!.id)])])),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute()
  return rows.map(toAuditEntry)
}

/** Removes the rows from before `before` (retention, 2 years); returns how many. */
export async function pruneAudit(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
