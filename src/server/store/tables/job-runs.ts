// The scheduler's claims of a job's runs: one row in `meta` per run of a job, the primary key makes it once, whoever
// asks. Plain functions over the store's Kysely (decision 060). Same for both databases.
import type { Q } from './db.ts'

const claimKey = (job: string, period: string) => `job:${job}:${period}`

/** The Store's methods over the claims (store.ts delegates each to a function below, through `write`). */
export interface JobStore {
  /**
   * Claims one run of a job (its name and period): true for exactly one caller, whichever process or instance, also
   * after a restart. Claims of the job for periods before `pruneBefore` are removed.
   */
  claimJobRun(job: string, period: string, claimedBy: string, pruneBefore: string): Promise<boolean>
  /** Gives a claim back (the run failed), so that it can be claimed again. */
  releaseJobRun(job: string, period: string): Promise<void>
}

export async function claimJobRun(q: Q, job: string, period: string, claimedBy: string, pruneBefore: string): Promise<boolean> {
  const inserted = await q
    .insertInto('meta')
    .values({ key: claimKey(job, period), value: claimedBy })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst()
  const claimed = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
  // Periods sort as text (ISO times, YYYY-MM-DD): a range of keys, no pattern to escape.
  if (claimed) await q.deleteFrom('meta').where('key', '>=', claimKey(job, '')).where('key', '<', claimKey(job, pruneBefore)).execute()
  return claimed
}

export async function releaseJobRun(q: Q, job: string, period: string): Promise<void> {
  await q.deleteFrom('meta').where('key', '=', claimKey(job, period)).execute()
}
