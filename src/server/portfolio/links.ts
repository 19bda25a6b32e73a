// The owner's other names as the page shows them: a link to each name's own page and its price as that page says it.
import type { PortfolioLink } from '../../client/page-props.ts'
import { TEXT } from '../../shared/texts.ts'
import type { Site } from '../sites/resolver.ts'
import { priceTermsOf } from '../sites/settings.ts'
import { portfolioOf, type PortfolioName } from './names.ts'

/** How many other names a page lists under "Weitere Domains". */
const RELATED_NAMES = 12

/** The price in a list: the amount (with "VB" when negotiable), "Preis auf Anfrage", or nothing. */
function shortPrice(settings: PortfolioName['settings']): string | undefined {
  const { price, priceType } = priceTermsOf(settings)
  if (priceType === 'on-request') return TEXT.priceOnRequest
  return price !== undefined && priceType === 'negotiable' ? TEXT.priceNegotiableShort(price) : price
}

export function linkOf({ ascii, display, settings }: PortfolioName): PortfolioLink {
  const shown = shortPrice(settings)
  // Each name is its own site (and gets its own certificate), so the link leaves this host.
  return { name: display, href: `https://${ascii}/`, ...(shown && { price: shown }) }
}

/** The page's "Weitere Domains", when the domains file has a portfolio. */
export function portfolioLinks(site: Site): { portfolio?: { names: PortfolioLink[] } } {
  const portfolio = portfolioOf(site.domainsConfig)
  return portfolio ? { portfolio: { names: portfolio.related(site.host.ascii, RELATED_NAMES).map(linkOf) } } : {}
}
