// The owner's other available names, for "Weitere Domains" on every page and the full list at /domains (the file's
// `portfolio: true`). Built in the loading process with the domains table, as typed arrays in the same buffer, so that
// each question a page asks costs about what its answer holds, not what the portfolio holds.
import { displayHost } from './host.ts'
import { lruCache } from './lru.ts'
import { hashStrings, indexOf, packStrings, type HashedStrings } from './packed.ts'
import type { DomainSettings } from './settings.ts'

export interface PortfolioItem {
  ascii: string
  /** As people read it (Unicode where that is safe, see displayHost). */
  display: string
  /** Unset without a price, and for `priceType: on-request` (no amount is shown for it anywhere). */
  price?: number
  currency: string
  priceType?: NonNullable<DomainSettings['priceType']>
}

interface PortfolioQuery {
  /** Part of the name, Unicode or ASCII form, any case. */
  q?: string
  sort?: 'name' | 'price'
  order?: 'asc' | 'desc'
  offset?: number
  limit?: number
}

interface PortfolioPage {
  /** How many names match, of which `items` are those from `offset` on. */
  total: number
  items: PortfolioItem[]
}

/**
 * Items are the available exact names in name order (item i is the i-th). Each section is a typed array, so the
 * index travels from the loading process in the table's buffer.
 */
export interface PortfolioSections {
  [name: string]: Uint32Array | Uint8Array
  /** Item -> its entry in the domains table. */
  itemEntry: Uint32Array
  /** Item -> its price, or NO_PRICE. */
  itemPrice: Uint32Array
  /** Item -> its top-level domain's number. */
  itemTld: Uint32Array
  tldSlots: Uint32Array
  tldStarts: Uint32Array
  tldBytes: Uint8Array
  /** The items of top-level domain t: tldItems[tldItemStarts[t]] up to tldItems[tldItemStarts[t + 1]], in name order. */
  tldItemStarts: Uint32Array
  tldItems: Uint32Array
  wordSlots: Uint32Array
  wordStarts: Uint32Array
  wordBytes: Uint8Array
  /** The items with word w, likewise. */
  wordItemStarts: Uint32Array
  wordItems: Uint32Array
  /** Items by price, then name; those without a price last, by name. */
  byPriceAsc: Uint32Array
  byPriceDesc: Uint32Array
  /** One line per item, "display\0ascii" (or "display" alone when both are the same), in UTF-8. */
  searchBytes: Uint8Array
  /** Where item i's line starts, in characters of the decoded text. */
  searchStarts: Uint32Array
}

const NO_PRICE = 0xffffffff
/** The related names of this many pages are kept (the answers are shared: callers only read them). */
const RELATED_KEPT = 1024
/** At most this many items in one list page; a larger limit is cut to it. */
const MAX_PAGE = 1000
/** The searches whose matches are kept: a list paged or sorted again is not searched again. */
const SEARCHES_KEPT = 64
/** Searches for one character, kept apart: the costliest (most names match), and there are only so many. */
const SINGLES_KEPT = 128

/** The items a search found, one bit each (item i is bit i % 32 of word i / 32), and how many. */
interface Matches {
  bits: Uint32Array
  total: number
}

/** What names are compared by: the shown name without accents, so that ö sorts with o (no collation per name). */
const sortKey = (display: string) => (/^[a-z0-9.-]*$/.test(display) ? display : display.normalize('NFD').replace(/\p{M}/gu, ''))

/** The words of a name: its labels but the top-level one, split at hyphens and digits; words of three letters or more. */
function wordsOf(display: string): string[] {
  const words = new Set<string>()
  for (const label of display.split('.').slice(0, -1)) {
    for (const word of label.split(/[-0-9]+/)) if ([...word].length >= 3) words.add(word)
  }
  return [...words]
}

/** An available name of the domains table, as the portfolio keeps it. */
export interface PortfolioCandidate {
  entry: number
  ascii: string
  price: number
}

/** The entry as a name of the portfolio (its settings with the defaults merged in), or null if it is not one. */
export function portfolioCandidate(entry: number, ascii: string, settings: DomainSettings): PortfolioCandidate | null {
  if (ascii.startsWith('*.') || settings.listed === false || (settings.status ?? 'available') !== 'available') return null
  const { price, priceType } = settings
  return { entry, ascii, price: price === undefined || priceType === 'on-request' ? NO_PRICE : price }
}

/** Groups items by a key number (0 to count - 1), each group in item order: starts and the items. */
function groupBy(keys: number[], count: number): { starts: Uint32Array; items: Uint32Array } {
  const starts = new Uint32Array(count + 1)
  for (const key of keys) starts[key + 1]!++
  for (let k = 0; k < count; k++) starts[k + 1]! += starts[k]!
  const next = starts.slice(0, count)
  const items = new Uint32Array(keys.length)
  keys.forEach((key, item) => (items[next[key]!++] = item))
  return { starts, items }
}

/** The index of the available names (none when the file does not ask for a portfolio). */
export function buildPortfolio(candidates: readonly PortfolioCandidate[]): PortfolioSections {
  const chosen = candidates.map((candidate) => {
    const display = displayHost(candidate.ascii)
    return { ...candidate, display, key: sortKey(display) }
  })
  chosen.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.ascii < b.ascii ? -1 : 1))
  const prices = chosen.map(({ price }) => price)

  const tldNumbers = new Map<string, number>()
  const itemTld = chosen.map(({ ascii }) => {
    const tld = ascii.slice(ascii.lastIndexOf('.') + 1)
    let number = tldNumbers.get(tld)
    if (number === undefined) tldNumbers.set(tld, (number = tldNumbers.size))
    return number
  })
  const tlds = hashStrings([...tldNumbers.keys()])
  const byTld = groupBy(itemTld, tldNumbers.size)

  const wordNumbers = new Map<string, number>()
  const itemWords: number[] = []
  const wordOfPosting: number[] = []
  chosen.forEach(({ display }, item) => {
    for (const word of wordsOf(display)) {
      let number = wordNumbers.get(word)
      if (number === undefined) wordNumbers.set(word, (number = wordNumbers.size))
      itemWords.push(item)
      wordOfPosting.push(number)
    }
  })
  const words = hashStrings([...wordNumbers.keys()])
  const postings = groupBy(wordOfPosting, wordNumbers.size)

  const items = chosen.map((_, item) => item)
  const priced = items.filter((item) => prices[item] !== NO_PRICE)
  const unpriced = items.filter((item) => prices[item] === NO_PRICE)
  const byPrice = (direction: 1 | -1) => Uint32Array.from([...[...priced].sort((a, b) => direction * (prices[a]! - prices[b]!) || a - b), ...unpriced])

  const lines = chosen.map(({ ascii, display }) => `${display}${ascii === display ? '' : `\0${ascii}`}\n`)
  const searchStarts = new Uint32Array(lines.length + 1)
  lines.forEach((line, item) => (searchStarts[item + 1] = searchStarts[item]! + line.length))

  return {
    itemEntry: Uint32Array.from(chosen, ({ entry }) => entry),
    itemPrice: Uint32Array.from(prices),
    itemTld: Uint32Array.from(itemTld),
    tldSlots: tlds.slots,
    tldStarts: tlds.starts,
    tldBytes: tlds.bytes,
    tldItemStarts: byTld.starts,
    tldItems: byTld.items,
    wordSlots: words.slots,
    wordStarts: words.starts,
    wordBytes: words.bytes,
    wordItemStarts: postings.starts,
    // Postings were grouped by word in item order, so each word's items stay in name order.
    wordItems: postings.items.map((posting) => itemWords[posting]!),
    byPriceAsc: byPrice(1),
    byPriceDesc: byPrice(-1),
    searchBytes: packStrings([lines.join('')]).bytes,
    searchStarts,
  }
}

/** What the portfolio needs of the domains table: an entry's number by name, its name and its settings. */
export interface PortfolioEntries {
  entryOf(ascii: string): number
  nameAt(entry: number): string
  settingsAt(entry: number): DomainSettings
}

export interface Portfolio {
  /**
   * Up to `limit` other available names for the page of `ascii`, most relevant first: the same top-level domain
   * first, then more words in common, then by name.
   */
  related(ascii: string, limit?: number): PortfolioItem[]
  /** A page of the whole list, optionally only the names containing `q`. */
  list(query: PortfolioQuery): PortfolioPage
}

const EMPTY: Portfolio = { related: () => [], list: () => ({ total: 0, items: [] }) }

export function openPortfolio(s: PortfolioSections, entries: PortfolioEntries): Portfolio {
  if (s.itemEntry.length === 0) return EMPTY
  const count = s.itemEntry.length
  const tlds: HashedStrings = { slots: s.tldSlots, starts: s.tldStarts, bytes: s.tldBytes }
  const words: HashedStrings = { slots: s.wordSlots, starts: s.wordStarts, bytes: s.wordBytes }
  // Made on first use, not on reload: a server whose pages never ask pays nothing for them.
  let shared: Uint8Array | undefined
  let text: string | undefined
  let priceRank: { asc: Uint32Array; desc: Uint32Array } | undefined
  // A search's matches as one bit per item, so the kept searches stay small whatever they matched.
  const searches = lruCache<string, Matches>(SEARCHES_KEPT)
  const singles = lruCache<string, Matches>(SINGLES_KEPT)

  function itemOf(item: number): PortfolioItem {
    const entry = s.itemEntry[item]!
    const ascii = entries.nameAt(entry)
    const { currency = 'EUR', priceType } = entries.settingsAt(entry)
    const price = s.itemPrice[item]!
    return { ascii, display: displayHost(ascii), ...(price !== NO_PRICE && { price }), currency, ...(priceType && { priceType }) }
  }

  // Every page of a portfolio asks on every request; the pages visited most ask again and again.
  const answers = lruCache<string, PortfolioItem[]>(RELATED_KEPT)
  const related = (ascii: string, limit = 12): PortfolioItem[] => answers.get(`${limit} ${ascii}`) ?? answers.set(`${limit} ${ascii}`, rank(ascii, limit))

  function rank(ascii: string, limit: number): PortfolioItem[] {
    const self = entries.entryOf(ascii)
    const tld = indexOf(tlds, ascii.slice(ascii.lastIndexOf('.') + 1))
    shared ??= new Uint8Array(count)
    const touched: number[] = []
    for (const word of wordsOf(displayHost(ascii))) {
      const w = indexOf(words, word)
      if (w < 0) continue
      for (let k = s.wordItemStarts[w]!; k < s.wordItemStarts[w + 1]!; k++) {
        const item = s.wordItems[k]!
        if (shared[item] === 0) touched.push(item)
        if (shared[item]! < 255) shared[item]!++
      }
    }
    // One number per item that sorts as wanted: same top-level domain, then more words in common, then name order.
    const ranked = Float64Array.from(touched, (item) => ((s.itemTld[item] === tld ? 0 : 256) + 255 - shared![item]!) * 2 ** 32 + item).sort()
    for (const item of touched) shared[item] = 0

    const chosen: number[] = []
    const taken = new Set<number>()
    const take = (item: number) => {
      if (chosen.length < limit && s.itemEntry[item] !== self && !taken.has(item)) {
        taken.add(item)
        chosen.push(item)
      }
    }
    const rankedItem = (key: number) => key % 2 ** 32
    const sameTld = (key: number) => key < 256 * 2 ** 32
    for (const key of ranked) if (sameTld(key)) take(rankedItem(key))
    if (tld >= 0) for (let k = s.tldItemStarts[tld]!; k < s.tldItemStarts[tld + 1]! && chosen.length < limit; k++) take(s.tldItems[k]!)
    for (const key of ranked) if (!sameTld(key)) take(rankedItem(key))
    for (let item = 0; item < count && chosen.length < limit; item++) take(item)
    return chosen.map(itemOf)
  }

  /** The item whose line holds text position `at`, at or after item `from` (whose line starts at or before it). */
  function lineOf(at: number, from: number): number {
    // Galloping, then halving: a step or two for dense matches, a few dozen for a far one.
    let low = from
    let step = 1
    while (low + step < count && s.searchStarts[low + step]! <= at) {
      low += step
      step *= 2
    }
    let high = Math.min(low + step, count)
    while (high - low > 1) {
      const middle = (low + high) >>> 1
      if (s.searchStarts[middle]! <= at) low = middle
      else high = middle
    }
    return low
  }

  /** The items whose line contains `q`: one pass of indexOf over the whole list's text, in text order. */
  function search(q: string): Matches {
    const kept = [...q].length === 1 ? singles : searches
    const cached = kept.get(q)
    if (cached) return cached
    text ??= new TextDecoder().decode(s.searchBytes)
    const bits = new Uint32Array((count + 31) >>> 5)
    let total = 0
    for (let at = text.indexOf(q), item = 0; at >= 0;) {
      item = lineOf(at, item)
      bits[item >>> 5]! |= 1 << (item & 31)
      total++
      if (++item === count) break
      at = text.indexOf(q, s.searchStarts[item])
    }
    return kept.set(q, { bits, total })
  }

  /** The k-th item of an order (both price orders were sorted when the file was loaded), and its rank in it. */
  function orderOf(sort: 'name' | 'price', order: 'asc' | 'desc'): { at: (k: number) => number; rankOf: (item: number) => number } {
    if (sort === 'name') return order === 'asc' ? { at: (k) => k, rankOf: (item) => item } : { at: (k) => count - 1 - k, rankOf: (item) => count - 1 - item }
    const byPrice = order === 'asc' ? s.byPriceAsc : s.byPriceDesc
    return {
      at: (k) => byPrice[k]!,
      rankOf: (item) => {
        if (!priceRank) {
          const ranks = (ordered: Uint32Array) => ordered.reduce((rank, item, k) => ((rank[item] = k), rank), new Uint32Array(count))
          priceRank = { asc: ranks(s.byPriceAsc), desc: ranks(s.byPriceDesc) }
        }
        return priceRank[order][item]!
      },
    }
  }

  function list({ q = '', sort = 'name', order = 'asc', offset = 0, limit = 50 }: PortfolioQuery): PortfolioPage {
    // Separators of the search text never match: a query cannot span two names.
    const needle = q
      .replace(/[\0\n]/g, '')
      .trim()
      .toLowerCase()
    const from = Math.max(0, Math.floor(offset) || 0)
    const size = Math.min(MAX_PAGE, Math.max(0, Math.floor(limit) || 0))
    const { at, rankOf } = orderOf(sort === 'price' ? 'price' : 'name', order === 'desc' ? 'desc' : 'asc')
    const items: PortfolioItem[] = []
    if (!needle) {
      for (let k = from; k < Math.min(count, from + size); k++) items.push(itemOf(at(k)))
      return { total: count, items }
    }
    const { bits, total } = search(needle)
    const end = Math.min(total, from + size)
    if (end <= from) return { total, items }
    const matches = (item: number) => (bits[item >>> 5]! & (1 << (item & 31))) !== 0
    // Never a sort of every match per request: the order, sorted once per load, is walked and what does not match
    // skipped until the page is full; only when the matches are so few that sorting them is cheaper than that walk
    // are their ranks sorted instead. Either way at most about one step per name.
    const walk = Math.min(count, (end * count) / total)
    if (total * Math.log2(total + 1) >= walk) {
      for (let k = 0, seen = 0; k < count && seen < end; k++) {
        const item = at(k)
        if (!matches(item)) continue
        if (seen >= from) items.push(itemOf(item))
        seen++
      }
      return { total, items }
    }
    const ranks = new Uint32Array(total)
    for (let word = 0, found = 0; word < bits.length; word++) {
      for (let rest = bits[word]!; rest !== 0; rest &= rest - 1) ranks[found++] = rankOf(word * 32 + 31 - Math.clz32(rest & -rest))
    }
    ranks.sort()
    for (let k = from; k < end; k++) items.push(itemOf(at(ranks[k]!)))
    return { total, items }
  }

  return { related, list }
}
