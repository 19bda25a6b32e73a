// Edits of the domains file made in the console or with `domains set|add|remove`, numbered without gaps: every
// instance takes in the ones its own file lacks (domains-edit/sync.ts, decision 044). The number is the primary
// key, given by the instance that makes the edit (the one after the last its file has taken in): two instances that
// want the same number at once cannot both have it, and the one that does not is refused.
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { DomainEditStore } from './domain-edits-types.ts'

/** Edits taken in per round: an instance that was off for long catches up over several rounds. */
const AFTER_LIMIT = 200

export function domainEditStore(db: Kysely<Database>, dialect: DialectSpecifics): DomainEditStore {
  const { guard } = dialect
  const write = writer(dialect)
  return {
    async domainEditsAfter(version, limit = AFTER_LIMIT) {
      const rows = await guard(() =>
        db.selectFrom('domain_edits').select(['version', 'edits']).where('version', '>', version).orderBy('version').limit(limit).execute(),
      )
      return rows.map((row) => ({ version: Number(row.version), edits: row.edits }))
    },
    async latestDomainEdit() {
      const row = await guard(() =>
        db
          .selectFrom('domain_edits')
          .select((eb) => eb.fn.max('version').as('latest'))
          .executeTakeFirst(),
      )
      return row?.latest == null ? 0 : Number(row.latest)
    },
    async recordDomainEdit(version, edits, now) {
      const rows = await write(() =>
        db
          .insertInto('domain_edits')
          .values({ version, edits, created_at: now })
          .onConflict((oc) => oc.column('version').doNothing())
          .returning('version')
          .execute(),
      )
      return rows.length === 1
    },
    async pruneDomainEdits(takenIn, before) {
      const result = await write(() => db.deleteFrom('domain_edits').where('version', '<', takenIn).where('created_at', '<', before).executeTakeFirst())
      return Number(result.numDeletedRows)
    },
  }
}
