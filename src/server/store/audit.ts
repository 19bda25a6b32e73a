// The audit trail (decision 043): one row per change made through the console or the CLI. Same for both databases.
// Rows naming a person's inquiry or deal are read with the person's data and outlive its erasure without the link
// to the person (store/privacy.ts).
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import type { AuditEntry, AuditStore } from './audit-types.ts'
import { writer, type DialectSpecifics } from './dialect.ts'

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

export function auditStore(db: Kysely<Database>, dialect: DialectSpecifics): AuditStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async addAuditEntry(entry) {
      await write(() =>
        db
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
          .execute(),
      )
    },
    async auditEntries(filter) {
      const rows = await guard(() =>
        db
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
          .execute(),
      )
      return rows.map(toAuditEntry)
    },
    async pruneAudit(before) {
      const result = await write(() => db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst())
      return Number(result.numDeletedRows)
    },
  }
}
