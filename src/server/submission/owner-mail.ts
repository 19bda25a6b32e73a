// Whether the owner is mailed about a genuine inquiry, and where to: asked when it is stored, and again when a
// visitor confirms one that waited for it (confirm/route.ts).
import type { Config } from '../config.ts'
import { notifyUrlsFor } from '../notify/routing.ts'
import type { Site } from '../sites/resolver.ts'
import type { MailPlan } from '../store/types.ts'

/** An offer below the minimum is mailed (and notified) only if the domains file says so. */
export function ownerMailPlan(site: Site, belowMinimum: boolean, config: Pick<Config, 'notify'>): MailPlan {
  return !belowMinimum || site.domainsConfig.mailLowOffers
    ? { queue: true, mailTo: site.settings.mailTo ?? null, notify: notifyUrlsFor(site.settings, config) }
    : { queue: false }
}
