// The store's part for the scheduler's claims and the weekly digest (store/jobs.ts).
import type { Offer } from './inquiry-types.ts'

export interface DigestDomain {
  domain: string
  views: number
  inquiries: number
  spam: number
  failedMail: number
  /** Genuine offers, in the currency each was made in. */
  offers: Offer[]
}

export interface DigestFacts {
  /** Each domain with views, inquiries or failed mail in the range. */
  domains: DigestDomain[]
  /** Domains with page views since `quietSince`, or with an inquiry ever; sorted. */
  seen: string[]
  /** Domains with a genuine inquiry since `quietSince`; sorted. */
  askedLately: string[]
}

export interface JobStore {
  /**
   * Claims one run of a job (its name and period): true for exactly one caller, whichever process or instance, also
   * after a restart. Claims of the job for periods before `pruneBefore` are removed.
   */
  claimJobRun(job: string, period: string, claimedBy: string, pruneBefore: string): Promise<boolean>
  /** Gives a claim back (the run failed), so that it can be claimed again. */
  releaseJobRun(job: string, period: string): Promise<void>
  /**
   * The digest's numbers: inquiries, spam, offers and failed mail in [since, until); page views of the UTC days from
   * since's day up to (not including) until's day.
   */
  digestFacts(range: { since: number; until: number; quietSince: number }): Promise<DigestFacts>
}
