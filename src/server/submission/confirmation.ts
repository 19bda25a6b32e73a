// Whether an inquiry's visitor gets a confirmation (the domains file's `confirm`), and the daily share of
// confirmation mails per address that keeps the form from mailing one address in volume (decision 021).
import type { RateLimits } from '../store/rate-limit-common.ts'
import type { Site } from '../sites/resolver.ts'
import type { ConfirmPlan } from '../store/types.ts'
import { confirmText } from '../mail/confirm-mail.ts'
import { recipientKey } from '../lib/mailbox.ts'

export type ConfirmMode = 'off' | 'notice' | 'verify'

/** Confirmation mails one address receives per day at most, from all domains together. */
export const CONFIRM_MAILS_PER_ADDRESS = 3
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The site's mode. Only for names the domains file lists exactly (Site.listedExactly, decision 030): any other host
 * name is the sender's choice, and would be the one free word in the mail.
 */
export function confirmModeOf(site: Site): ConfirmMode {
  const mode = site.settings.confirm ?? 'off'
  return mode !== 'off' && site.listedExactly ? mode : 'off'
}

/**
 * The confirmation of a genuine inquiry from `site` to `email`, its mail counted against the address's share (over
 * it, the inquiry is still stored, without a mail). `giveBack` returns the count when nothing was stored.
 */
export async function confirmationFor(
  site: Site,
  email: string,
  quota: ReturnType<RateLimits['quota']>,
): Promise<{ plan: ConfirmPlan; giveBack(): Promise<void> } | undefined> {
  const kind = confirmModeOf(site)
  if (kind === 'off') return undefined
  const taken = await quota.take(recipientKey(email), CONFIRM_MAILS_PER_ADDRESS, DAY_MS)
  return {
    plan: { kind, mail: taken.status === 'taken', body: confirmText(kind, site.host.display, site.language).text, replyTo: site.settings.mailTo ?? null },
    giveBack: async () => {
      if (taken.status === 'taken') await taken.giveBack()
    },
  }
}
