// The owner's other names as a page shows them: a link to each name's own page and its price as that page says it.
// Which names, in which order, the domains table's portfolio index answers (sites/portfolio-index.ts).
import type { PortfolioLink } from '../../client/page-props.ts'
import type { Language } from '../../shared/language.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import type { PortfolioItem } from '../sites/portfolio-index.ts'
import type { Site } from '../sites/resolver.ts'
import { priceTermsOf } from '../sites/settings.ts'

/** How many other names a page lists under "Weitere Domains". */
const RELATED_NAMES = 12

/** The price in a list: the amount (with "VB" when negotiable), "Preis auf Anfrage", or nothing. */
function shortPrice({ price, currency, priceType }: PortfolioItem, language: Language): string | undefined {
  const terms = priceTermsOf({ ...(price !== undefined && { price }), currency, ...(priceType && { priceType }) }, language)
  if (terms.priceType === 'on-request') return TEXTS[language].priceOnRequest
  return terms.price !== undefined && terms.priceType === 'negotiable' ? TEXTS[language].priceNegotiableShort(terms.price) : terms.price
}

/** A name as a page in `language` lists it. */
export function linkOf(item: PortfolioItem, language: Language): PortfolioLink {
  const shown = shortPrice(item, language)
  // Each name is its own site (and gets its own certificate), so the link leaves this host.
  return { name: item.display, href: `https://${item.ascii}/`, ...(shown && { price: shown }) }
}

/** The page's "Weitere Domains", when the domains file has a portfolio. */
export function portfolioLinks(site: Site): { portfolio?: { names: PortfolioLink[] } } {
  const config = site.domainsConfig
  if (!config.portfolio) return {}
  return { portfolio: { names: config.related(site.host.ascii, RELATED_NAMES).map((item) => linkOf(item, site.language)) } }
}
