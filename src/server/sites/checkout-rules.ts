// Which names this server sells itself at a fixed price (decision 035): the page's "Jetzt kaufen" and POST /kaufen
// ask the same question, so the button never leads to a checkout the server then refuses.
import type { Site } from '../sites/resolver.ts'

/**
 * A fixed price, no checkout elsewhere (buyUrl), and the name neither reserved nor sold (a completed deal makes it
 * sold in the settings: deal/sold-names.ts). Only a name the domains file lists exactly (Site.listedExactly): a
 * checkout would carry it into a deal, the owner's mails and the statistics (decision 035).
 */
export function sellsAtFixedPrice({ settings, listedExactly }: Pick<Site, 'settings' | 'listedExactly'>): boolean {
  if (settings.priceType !== 'fixed' || settings.price === undefined || settings.buyUrl !== undefined) return false
  if (settings.status === 'reserved' || settings.status === 'sold') return false
  return listedExactly
}
