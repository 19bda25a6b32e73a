// What `npm run seed` writes: made-up inquiries that look like a year of real ones, from a fixed random seed, so two
// seeds of the same size hold the same rows and benchmarks on them compare. Pure generation: no store here.
import { domainToASCII } from 'node:url'

/** mulberry32: small, fast and good enough to make test data; Math.random cannot be seeded. */
export type Random = () => number

export function randomFrom(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Picks index i of n with weight 1/(i+1)^s: a few items are very common, most are rare (Zipf's law). */
function zipf(n: number, s: number, random: Random): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1) ** s
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cdf[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const words = (text: string): string[] => text.trim().split(/\s+/)
const FIRST = words(`Anna Lukas Marie Leon Sophie Paul Emma Felix Mia Jonas Hannah Maximilian Lena Elias Laura Noah Julia Ben
  Lea Finn Sarah Luca Katharina Jan Johanna Tim Clara Niklas Charlotte Tobias Jürgen Sabine Thomas Ute Michael Petra Stefan
  Birgit Andreas Monika Matthias Claudia Wolfgang Susanne Frank Heike Jörg Karin Uwe Gabriele Björn Özlem Mehmet Ayşe
  James Mary John Patricia Robert Jennifer David Linda William Elizabeth Richard Susan Joseph Jessica Charles Karen
  Christopher Nancy Daniel Lisa Matthew Margaret Anthony Sandra Mark Ashley Steven Emily Olivia Oliver George Amelia`)
const LAST = words(`Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter
  Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Schmitz Krause Meier
  Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung
  Hahn Keller Vogel Friedrich Günther Yılmaz Kaya Nowak Smith Johnson Williams Brown Jones Garcia Miller Davis Wilson
  Anderson Taylor Thomas Moore Jackson Martin Lee Thompson White Harris Clark Lewis Robinson Walker Young Allen`)
const MAIL_HOSTS = words('gmail.com web.de gmx.de t-online.de outlook.com yahoo.com icloud.com posteo.de mailbox.org gmx.net hotmail.com')
// In order of how often they occur (Zipf): the first are in most messages, the last in few.
const GERMAN = words(`die und ich der sie ist für an Domain Interesse haben wir Ihre zu mit den ein ob noch würde gerne
  verfügbar Preis Angebot kaufen wäre möglich bitte Frage unser Projekt Unternehmen eine auf nicht Kauf melden uns
  Grüßen Freundlichen Zahlung Verhandlungsbasis Übertragung Treuhand über nächste Woche Rückmeldung freuen Budget
  interessiert planen Startup Marke Online-Shop Agentur Kunden bereit Vorstellung realistisch Gespräch telefonisch
  erreichbar kurzfristig langfristig Gründung GmbH Verein Praxis Kanzlei Restaurant Handwerk Immobilien Reisen Sport
  Gesundheit Energie Solar Mode Kaffee Wein Garten Fahrrad Hund Katze Musik Fotografie Bildung Nachhilfe Pflege Bau
  Software Beratung Versicherung Finanzen Steuer Logistik Transport Hotel Ferienwohnung Bäckerei Metzgerei Friseur
  Zahnarzt Tierarzt Physiotherapie Yoga Fitness Brauerei Weingut Schreinerei Elektriker Dachdecker Maler Umzug
  Catering Hochzeit Event Druckerei Verlag Podcast Blog Newsletter Community Stiftung Genossenschaft Landwirtschaft
  Imkerei Bioladen Unverpackt Nachhaltigkeit Elektromobilität Ladestation Wärmepumpe Photovoltaik Windkraft`)
const ENGLISH = words(`the and to I we in for of your is domain a interested are would like this price offer buy
  available please let know our company project brand budget we're looking forward hearing from you best regards
  thanks payment escrow transfer negotiable startup launch store agency clients ready call email week soon
  long-term acquisition portfolio investor marketing rebrand app platform SaaS fintech healthcare travel fitness
  coffee wine garden bike pet music photography education coaching consulting insurance logistics hotel bakery
  dental yoga brewery carpentry electrician roofing moving catering wedding printing publishing podcast newsletter
  foundation cooperative farming beekeeping organic sustainability charging heatpump solar wind`)
// Words a few messages in a hundred thousand use: a search for one of them must be fast and find few.
export const RARE = words('Zeppelinwerft Quantenkryptografie Bernsteinzimmer Okapi Xylophonbau Fjordblick Kaleidoskop Zirkonia Lapislazuli Vulkaneifel')
const SPAM = words(`SEO backlinks ranking Google traffic guaranteed cheap crypto bitcoin investment casino bonus loan
  pills offer click here visit website marketing leads growth hack viral followers`)
const SPAM_REASONS = ['decoy-filled', 'too-fast', 'decoy-missing', 'owner']
const LAST_ERRORS = ['550 5.1.1 <owner@example.org>: Recipient address rejected', 'connect ETIMEDOUT 192.0.2.1:587', '421 4.7.0 Try again later']
const TLDS: [string, string, number][] = [
  ['de', 'EUR', 60],
  ['com', 'USD', 15],
  ['eu', 'EUR', 8],
  ['ch', 'CHF', 5],
  ['at', 'EUR', 7],
  ['io', 'USD', 5],
]
const STEMS = words(`berlin münchen hamburg köln rhein alpen nord süd grün blau sonne wald see berg stadt land haus hof
  markt werk studio atelier kontor manufaktur bistro kaffee wein reise sport gesund energie solar mode garten rad tier
  musik foto bildung pflege bau software beratung finanz logistik hotel bäcker handwerk immobilien digital cloud smart
  green blue city home shop hub lab works studio craft travel coffee wine fit care build code data pay`)

/** A seeded domain: its name as shown and in ASCII, and what the domains file says about it. */
export interface SeedDomain {
  display: string
  ascii: string
  currency: string
  price: number
  minOffer: number
}

/** The domains, most popular first, with what the domains file says about them. */
export function makeDomains(count: number, random = randomFrom(7)): SeedDomain[] {
  const seen = new Set<string>()
  const domains: SeedDomain[] = []
  while (domains.length < count) {
    const [suffix, currency] = TLDS[weighted(TLDS, random)]!
    const a = pickFrom(STEMS, random)
    const b = pickFrom(STEMS, random)
    const name = `${a}${random() < 0.5 ? '-' : ''}${b}${random() < 0.1 ? Math.floor(random() * 99) : ''}.${suffix}`
    const ascii = domainToASCII(name)
    if (a === b || seen.has(ascii)) continue
    seen.add(ascii)
    const price = Math.round((500 + random() ** 3 * 99_500) / 100) * 100
    domains.push({ display: name, ascii, currency, price, minOffer: Math.round((price * 0.3) / 100) * 100 })
  }
  return domains
}
function weighted(table: [string, string, number][], random: Random): number {
  const total = table.reduce((sum, row) => sum + row[2], 0)
  let x = random() * total
  return table.findIndex((row) => (x -= row[2]) < 0)
}

/** An element of a list that is never empty. */
const pickFrom = <T>(list: readonly T[], random: Random): T => list[Math.floor(random() * list.length)]!
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const ascii = (text: string) =>
  text
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[^a-z]/g, '')

/**
 * Yields the inquiries, oldest first, with ids from `firstId`: created over the 365 days before `now`, spread over
 * the domains by popularity, ~15 % spam, ~30 % with an offer; answered ones carry a reply.
 */
export interface SeedInquiry {
  id: number
  token: string
  contentHash: string
  domain: string
  currency: string
  name: string
  email: string
  message: string
  spamReason: string | null
  offer: number | null
  belowMinimum: boolean
  createdAt: number
  status: 'new' | 'answered' | 'archived' | 'spam'
  mail: { status: 'pending' | 'sent' | 'failed'; messageId: string; error: string | null } | null
  reply: { body: string; createdAt: number } | null
}

export function* makeInquiries({
  count,
  domains,
  now,
  firstId = 1,
  seed = 12,
}: {
  count: number
  domains: SeedDomain[]
  now: number
  firstId?: number
  seed?: number
}): Generator<SeedInquiry> {
  const random = randomFrom(seed)
  const year = 365 * 86_400_000
  const times = new Float64Array(count)
  for (let i = 0; i < count; i++) times[i] = now - random() * year
  times.sort()
  const domainOf = zipf(domains.length, 1, random)
  const german = zipf(GERMAN.length, 1.05, random)
  const english = zipf(ENGLISH.length, 1.05, random)
  const spamWord = zipf(SPAM.length, 0.8, random)
  const pick = <T>(list: readonly T[]): T => pickFrom(list, random)
  const sentence = (vocabulary: string[], index: () => number, length: number) =>
    capitalise(Array.from({ length }, () => vocabulary[index()]!).join(' ')) + pick(['.', '.', '.', '?', '!'])
  for (let i = 0; i < count; i++) {
    const id = firstId + i
    const createdAt = Math.floor(times[i]!)
    const domain = domains[domainOf()]!
    const first = pick(FIRST)
    const last = pick(LAST)
    const spam = random() < 0.15
    const sentences = 1 + Math.floor(random() * 5)
    const parts = []
    for (let s = 0; s < sentences; s++) {
      if (spam) parts.push(sentence(SPAM, spamWord, 4 + Math.floor(random() * 8)) + (random() < 0.5 ? ` https://${pick(SPAM).toLowerCase()}.example/` : ''))
      else if (random() < 0.7) parts.push(sentence(GERMAN, german, 5 + Math.floor(random() * 10)))
      else parts.push(sentence(ENGLISH, english, 5 + Math.floor(random() * 10)))
    }
    if (random() < 0.001) parts.push(`${capitalise(pick(RARE))}!`)
    const message = parts.join(random() < 0.3 ? '\n' : ' ')
    const email = `${ascii(first)}${pick(['.', '', '_'])}${ascii(last)}${random() < 0.3 ? Math.floor(random() * 100) : ''}@${pick(MAIL_HOSTS)}`
    const offer = !spam && random() < 0.3 ? Math.max(50, Math.round((domain.price * (0.05 + random() * 1.1)) / 50) * 50) : null
    const belowMinimum = offer !== null && offer < domain.minOffer
    const age = now - createdAt
    let status: SeedInquiry['status'] = 'spam'
    if (!spam) {
      const x = random()
      // Recent ones are mostly still new; older ones have mostly been answered or put away.
      status = age < 14 * 86_400_000 ? (x < 0.7 ? 'new' : x < 0.9 ? 'answered' : 'archived') : x < 0.2 ? 'new' : x < 0.6 ? 'answered' : 'archived'
    }
    // The owner's mail: none for spam or an offer below the minimum (as the server does); mostly delivered, some
    // still pending (only recent ones), a few failed for good.
    let mail: SeedInquiry['mail'] = null
    if (!spam && !belowMinimum) {
      const x = random()
      const mailStatus: 'pending' | 'sent' | 'failed' = age < 86_400_000 && x < 0.2 ? 'pending' : x < 0.02 ? 'failed' : 'sent'
      mail = { status: mailStatus, messageId: `<inquiry-${id}-seed${id}@${domain.ascii}>`, error: mailStatus === 'sent' ? null : pick(LAST_ERRORS) }
    }
    const reply =
      status === 'answered'
        ? {
            body: `Guten Tag ${first} ${last},\n\nvielen Dank für Ihre Anfrage zu ${domain.display}. ${sentence(GERMAN, german, 10)}`,
            createdAt: Math.min(now - 1, createdAt + Math.floor(random() * 2 * 86_400_000)),
          }
        : null
    yield {
      id,
      token: `seed${id}-${Math.floor(random() * 2 ** 32).toString(36)}`,
      contentHash: ((id * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(8),
      domain: domain.ascii,
      currency: domain.currency,
      name: `${first} ${last}`,
      email,
      message,
      spamReason: spam ? pick(SPAM_REASONS) : null,
      offer,
      belowMinimum,
      createdAt,
      status,
      mail,
      reply,
    }
  }
}

/** Page views per domain and UTC day over the 365 days before `now`, more for the popular domains. */
export function* makePageViews({
  domains,
  now,
  seed = 13,
}: {
  domains: SeedDomain[]
  now: number
  seed?: number
}): Generator<{ domain: string; day: string; views: number }> {
  const random = randomFrom(seed)
  for (let d = 364; d >= 0; d--) {
    const day = new Date(now - d * 86_400_000).toISOString().slice(0, 10)
    for (const [rank, domain] of domains.entries()) {
      const views = Math.round((2000 / (rank + 1)) * (0.5 + random()) + random() * 5)
      if (views > 0) yield { domain: domain.ascii, day, views }
    }
  }
}

/** The domains file for a seeded store: every domain with its price, minimum offer and currency. */
export function domainsFile(domains: SeedDomain[]): string {
  const lines = ['unknownHosts: not-found', 'domains:']
  for (const d of domains) lines.push(`  ${JSON.stringify(d.display)}: { price: ${d.price}, minOffer: ${d.minOffer}, currency: ${d.currency} }`)
  return `${lines.join('\n')}\n`
}
