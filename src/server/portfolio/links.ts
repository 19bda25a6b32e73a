// The owner's other names as the page shows them: a link to each name's own page and its price as that page says it.
import type { PortfolioLink } from '../../client/page-props.ts'
import type { Language } from '../../shared/language.ts'
import { TEXTS } from '../../shared/texts.ts'
import type { Site } from '../sites/resolver.ts'
import { priceTermsOf } from '../sites/settings.ts'
import { portfolioOf, type PortfolioName } from './names.ts'

/** How many other names a page lists under "Weitere Domains". */
const RELATED_NAMES = 12

/** The price in a list: the amount (with "VB" when negotiable), "Preis auf Anfrage", or nothing. */
function shortPrice(settings: PortfolioName['settings'], language: Language): string | undefined {
  const { price, priceType } = priceTermsOf(settings, language)
  if (priceType === 'on-request') return TEXTS[language].priceOnRequest
  return price !== undefined && priceType === 'negotiable' ? TEXTS[language].priceNegotiableShort(price) : price
}

/** A name as a page in `language` lists it. */
export function linkOf({ ascii, display, settings }: PortfolioName, language: Language): PortfolioLink {
  const shown = shortPrice(settings, language)
  // Each name is its own site (and gets its own certificate), so the link leaves this host.
  return { name: display, href: `https://${ascii}/`, ...(shown && { price: shown }) }
}

/** The page's "Weitere Domains", when the domains file has a portfolio. */
export function portfolioLinks(site: Site): { portfolio?: { names: PortfolioLink[] } } {
  const portfolio = portfolioOf(site.domainsConfig)
  return portfolio ? { portfolio: { names: portfolio.related(site.host.ascii, RELATED_NAMES).map((name) => linkOf(name, site.language)) } } : {}
}
