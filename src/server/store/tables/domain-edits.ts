// Edits of the domains file made in the console or with `domains set|add|remove`, numbered without gaps: every
// instance takes in the ones its own file lacks (domains-edit/sync.ts, decision 044). The number is the primary
// key, given by the instance that makes the edit (the one after the last its file has taken in): two instances that
// want the same number at once cannot both have it, and the one that does not is refused. Plain functions over the
// store's Kysely (decision 060).
import type { Q } from './db.ts'

/** Edits taken in per round: an instance that was off for long catches up over several rounds. */
const AFTER_LIMIT = 200

/** One numbered edit: the JSON of the ResolvedEdit list (shared/domains-api.ts) it made. */
interface StoredDomainEdit {
  version: number
  edits: string
}

/** The Store's methods over this table (store.ts delegates each to a function below). */
export interface DomainEditStore {
  /** The edits after this number, oldest first, at most `limit`. */
  domainEditsAfter(version: number, limit?: number): Promise<StoredDomainEdit[]>
  /** The highest number recorded, 0 for none. */
  latestDomainEdit(): Promise<number>
  /** Records an edit as exactly this number; false when one has it already (another instance was first). */
  recordDomainEdit(version: number, edits: string, now: number): Promise<boolean>
  /**
   * Deletes the edits numbered below `takenIn` recorded before `before`; the one numbered `takenIn` stays, so the
   * highest number is never lost and the next edit gets the number after it. Returns how many went.
   */
  pruneDomainEdits(takenIn: number, before: number): Promise<number>
}

export async function domainEditsAfter(q: Q, version: number, limit = AFTER_LIMIT): Promise<StoredDomainEdit[]> {
  const rows = await q.selectFrom('domain_edits').select(['version', 'edits']).where('version', '>', version).orderBy('version').limit(limit).execute()
  return rows.map((row) => ({ version: Number(row.version), edits: row.edits }))
}

export async function latestDomainEdit(q: Q): Promise<number> {
  const row = await q
    .selectFrom('domain_edits')
    .select((eb) => eb.fn.max('version').as('latest'))
    .executeTakeFirst()
  return row?.latest == null ? 0 : Number(row.latest)
}

export async function recordDomainEdit(q: Q, version: number, edits: string, now: number): Promise<boolean> {
  const rows = await q
    .insertInto('domain_edits')
    .values({ version, edits, created_at: now })
    .onConflict((oc) => oc.column('version').doNothing())
    .returning('version')
    .execute()
  return rows.length === 1
}

export async function pruneDomainEdits(q: Q, takenIn: number, before: number): Promise<number> {
  const result = await q.deleteFrom('domain_edits').where('version', '<', takenIn).where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
