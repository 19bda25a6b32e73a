// Which names this server sells itself at a fixed price (decision 035): the page's "Jetzt kaufen" and POST /kaufen
// ask the same question, so the button never leads to a checkout the server then refuses.
import type { DomainSettings } from '../sites/settings.ts'

/**
 * A fixed price, no checkout elsewhere (buyUrl), and the name neither reserved nor sold (a completed deal makes it
 * sold in the settings: deal/sold-names.ts).
 */
export function sellsAtFixedPrice(settings: DomainSettings): boolean {
  return (
    settings.priceType === 'fixed' &&
    settings.price !== undefined &&
    settings.buyUrl === undefined &&
    settings.status !== 'reserved' &&
    settings.status !== 'sold'
  )
}
