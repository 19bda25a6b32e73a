// The spam rules of a submission that passed validation and carries a valid token.
import { FIELD, type ContactPayload } from '../../shared/contact.ts'

/** The reason a submission is spam, or null. A missing decoy means the form was not the one we served. */
export function spamReason(
  data: Pick<ContactPayload, typeof FIELD.nameDecoy | typeof FIELD.emailDecoy>,
  issuedAt: number,
  now: number,
  minFillSeconds: number,
): string | null {
  const nameDecoy = data[FIELD.nameDecoy]
  const emailDecoy = data[FIELD.emailDecoy]
  if (nameDecoy === undefined || emailDecoy === undefined) return 'decoy-missing'
  if (nameDecoy !== '' || emailDecoy !== '') return 'decoy-filled'
  // The issue time is the end of the second the page was served in (http/form-token.ts): a form sent within that
  // second has a fill time below 0, which no minimum of 0 (the check off) may call too fast.
  if (minFillSeconds > 0 && now - issuedAt < minFillSeconds * 1000) return 'too-fast'
  return null
}
