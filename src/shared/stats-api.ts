// The visitor statistics of the console's Übersicht (decision 049), per name and for the whole portfolio: what the
// server counted (visits, visitors, filtered requests, sources, languages, turns to the form) beside what the store
// knows (inquiries, offers, deals).
import * as z from 'zod/mini'

/** A key counted (a source such as "search:google", a language such as "de") and how often. */
const keyCountSchema = z.object({ key: z.string(), count: z.number() })
export type KeyCount = z.infer<typeof keyCountSchema>

/** Offers and asking prices: whole units of the currency, as they are made and set. */
const wholeAmountSchema = z.object({ amount: z.number(), currency: z.string() })
export type WholeAmount = z.infer<typeof wholeAmountSchema>

/** Money in minor units (cents) of its currency, as deals are stored. */
const minorAmountSchema = z.object({ amount: z.number(), currency: z.string() })
export type MinorAmount = z.infer<typeof minorAmountSchema>

const funnelCountsShape = {
  /** The sum of each day's unique visitors (a visitor of two days counts twice). */
  visitors: z.number(),
  visits: z.number(),
  /** Crawlers, HEAD, prefetches and requests without a browser's headers. */
  botsFiltered: z.number(),
  /** Loads by the same client within the repeat window. */
  repeats: z.number(),
  formTurns: z.number(),
  /** Inquiries that are not spam. */
  inquiries: z.number(),
  offers: z.number(),
  /** Deals made in the range (not cancelled). */
  deals: z.number(),
  /** Completed deals' amounts in the range, one entry per currency. */
  revenue: z.array(minorAmountSchema),
}
export type FunnelCounts = z.infer<z.ZodMiniObject<typeof funnelCountsShape>>

const nameStatsSchema = z.object({
  ...funnelCountsShape,
  domain: z.string(),
  domainAscii: z.string(),
  /** Offers in the name's currency, whole units as offers are made. */
  highestOffer: z.nullable(wholeAmountSchema),
  medianOffer: z.nullable(wholeAmountSchema),
  /** The asking price from the domains file (whole units), null without. */
  askingPrice: z.nullable(wholeAmountSchema),
  /** The highest offer in percent of the asking price (rounded down), null without either. */
  highestShare: z.nullable(z.number()),
  sources: z.array(keyCountSchema),
  languages: z.array(keyCountSchema),
})
export type NameStats = z.infer<typeof nameStatsSchema>

const statsHintSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('no-inquiries'), domain: z.string(), visitors: z.number(), visits: z.number(), formTurns: z.number() }),
  z.object({
    kind: z.literal('offers-near-price'),
    domain: z.string(),
    offers: z.number(),
    highestOffer: wholeAmountSchema,
    askingPrice: wholeAmountSchema,
    highestShare: z.number(),
  }),
  z.object({ kind: z.literal('no-visitors'), domain: z.string(), days: z.number() }),
])
export type StatsHint = z.infer<typeof statsHintSchema>

export const visitorStatsSchema = z.object({
  days: z.number(),
  /** Berlin days, YYYY-MM-DD, both inclusive. */
  firstDay: z.string(),
  lastDay: z.string(),
  total: z.object({ ...funnelCountsShape, sources: z.array(keyCountSchema), languages: z.array(keyCountSchema) }),
  /** The portfolio's days, oldest first, zeros included. */
  daily: z.array(z.object({ day: z.string(), visitors: z.number(), visits: z.number(), formTurns: z.number(), inquiries: z.number() })),
  names: z.array(nameStatsSchema),
  hints: z.array(statsHintSchema),
})
export type VisitorStats = z.infer<typeof visitorStatsSchema>

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
