// The store's part for edits of the domains file (store/domain-edits.ts; decision 044).

/** One numbered edit: the JSON of the ResolvedEdit list (shared/domains-api.ts) it made. */
interface StoredDomainEdit {
  version: number
  edits: string
}

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
