// The store's part for buyer confirmation (store/confirmation.ts; docs/confirmation.md).
import type { Language } from '../../shared/language.ts'
import type { InquiryStatus, MailPlan } from './inquiry-types.ts'

/** The visitor's confirmation of a new genuine inquiry (the domains file's `confirm`; docs/confirmation.md). */
export interface ConfirmPlan {
  /** notice: a note that it arrived; verify: a link to follow, and the inquiry waits as 'unconfirmed' until then. */
  kind: 'notice' | 'verify'
  /** false: the address has had its share of confirmation mails for the day; the inquiry is stored without one. */
  mail: boolean
  /** What the console shows as the mail's text (never a link). */
  body: string
  /** Where an answer to the mail goes: the domain's mailTo, or MAIL_TO when null. */
  replyTo: string | null
}

/** What a confirmation link needs to know of its inquiry. */
export interface ConfirmationTarget {
  id: number
  token: string
  domain: string
  createdAt: number
  belowMinimum: boolean
  status: InquiryStatus
  /** The pages of the link answer in the language the inquiry was written in. */
  language: Language
}

export interface ConfirmationStore {
  /** The inquiry a confirmation link names, or null when there is none (any more). */
  confirmationTarget(id: number): Promise<ConfirmationTarget | null>
  /**
   * Turns an unconfirmed inquiry of `domain` that has not expired into a new one and queues its mail to the owner as
   * `mail` says, in one transaction. 'already': it is no longer waiting (confirmed before, or the owner acted on it);
   * 'missing': there is no such inquiry, or it has expired.
   */
  confirmInquiry(id: number, domain: string, mail: MailPlan, now: number): Promise<'confirmed' | 'already' | 'missing'>
  /** Erases the inquiries that waited longer than UNCONFIRMED_TTL_MS, with their mails; returns how many. */
  eraseExpiredUnconfirmed(now: number): Promise<number>
}
