// The visitor statistics of the console's Übersicht (decision 049), per name and for the whole portfolio: what the
// server counted (visits, visitors, filtered requests, sources, languages, turns to the form) beside what the store
// knows (inquiries, offers, deals).

/** A key counted (a source such as "search:google", a language such as "de") and how often. */
export interface KeyCount {
  key: string
  count: number
}

/** Offers and asking prices: whole units of the currency, as they are made and set. */
export interface WholeAmount {
  amount: number
  currency: string
}

/** Money in minor units (cents) of its currency, as deals are stored. */
export interface MinorAmount {
  amount: number
  currency: string
}

export interface FunnelCounts {
  /** The sum of each day's unique visitors (a visitor of two days counts twice). */
  visitors: number
  visits: number
  /** Crawlers, HEAD, prefetches and requests without a browser's headers. */
  botsFiltered: number
  /** Loads by the same client within the repeat window. */
  repeats: number
  formTurns: number
  /** Inquiries that are not spam. */
  inquiries: number
  offers: number
  /** Deals made in the range (not cancelled). */
  deals: number
  /** Completed deals' amounts in the range, one entry per currency. */
  revenue: MinorAmount[]
}

export interface NameStats extends FunnelCounts {
  domain: string
  domainAscii: string
  /** Offers in the name's currency, whole units as offers are made. */
  highestOffer: WholeAmount | null
  medianOffer: WholeAmount | null
  /** The asking price from the domains file (whole units), null without. */
  askingPrice: WholeAmount | null
  /** The highest offer in percent of the asking price (rounded down), null without either. */
  highestShare: number | null
  sources: KeyCount[]
  languages: KeyCount[]
}

export type StatsHint =
  | { kind: 'no-inquiries'; domain: string; visitors: number; visits: number; formTurns: number }
  | { kind: 'offers-near-price'; domain: string; offers: number; highestOffer: WholeAmount; askingPrice: WholeAmount; highestShare: number }
  | { kind: 'no-visitors'; domain: string; days: number }

export interface VisitorStats {
  days: number
  /** Berlin days, YYYY-MM-DD, both inclusive. */
  firstDay: string
  lastDay: string
  total: FunnelCounts & { sources: KeyCount[]; languages: KeyCount[] }
  /** The portfolio's days, oldest first, zeros included. */
  daily: { day: string; visitors: number; visits: number; formTurns: number; inquiries: number }[]
  names: NameStats[]
  hints: StatsHint[]
}

/** The figures behind the hints (decision 049). */
export const HINT_RULES = {
  /** Visitors in the range from which no inquiry is worth a look at the price or the page. */
  manyVisitors: 50,
  /** An offer at or above this share of the asking price (percent) is near it. */
  nearPrice: 90,
  /** Days without a visitor after which a name may not be worth renewing. */
  quietDays: 90,
} as const

/** German labels of the source classes; the key after the colon is shown as it is (a host, a ref value). */
const SOURCE_CLASS_LABEL: Record<string, string> = {
  direct: 'Direkt (eingetippt, Lesezeichen)',
  internal: 'Eigene Seite',
  search: 'Suchmaschine',
  market: 'Marktplatz, Registrar',
  social: 'Soziale Netze',
  site: 'Andere Website',
  ref: 'Eigener Link (ref, utm_source)',
  other: 'Weitere',
}

/** "search:google" → "Suchmaschine: google"; "direct" → "Direkt (eingetippt, Lesezeichen)". */
export function sourceLabel(key: string): string {
  const colon = key.indexOf(':')
  if (colon === -1) return SOURCE_CLASS_LABEL[key] ?? key
  return `${SOURCE_CLASS_LABEL[key.slice(0, colon)] ?? key.slice(0, colon)}: ${key.slice(colon + 1)}`
}

/** The console's CSV download of the figures per name (GET, ?days=…&sep=, or ;). */
export const STATS_CSV_PATH = '/api/overview.csv'
