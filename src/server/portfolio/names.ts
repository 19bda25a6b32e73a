// The owner's other names for sale (`portfolio: true`): which of them a page lists under "Weitere Domains", and the
// whole list of /domains, searched and sorted. Only names a buyer can buy now are listed: exact entries (a wildcard
// is no name), shown (`listed` not false) and available (no `status`, or `available`).
import { displayHost } from '../sites/host.ts'
import type { DomainSettings, DomainsConfig } from '../sites/settings.ts'

export interface PortfolioName {
  ascii: string
  /** The name as people read it. */
  display: string
  settings: DomainSettings
}

type PortfolioSort = 'name' | 'price'
type PortfolioOrder = 'asc' | 'desc'

interface PortfolioQuery {
  /** Part of a name, in Unicode or punycode, any case. */
  q?: string
  sort: PortfolioSort
  order: PortfolioOrder
  offset: number
  limit: number
}

export interface PortfolioIndex {
  /** The names most like `ascii` (same top-level domain first, then more words in common, then by name), without it. */
  related(ascii: string, limit: number): PortfolioName[]
  list(query: PortfolioQuery): { total: number; items: PortfolioName[] }
}

/** Words of a name for relevance: its labels below the top-level domain, split at hyphens and digits, 3+ letters. */
export function wordsOf(display: string): string[] {
  const labels = display.toLowerCase().split('.').slice(0, -1)
  return [...new Set(labels.flatMap((label) => label.split(/[^\p{L}]+/u)).filter((word) => [...word].length >= 3))]
}

const tldOf = (ascii: string) => ascii.slice(ascii.lastIndexOf('.') + 1)
const byName = (a: PortfolioName, b: PortfolioName) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0)
/** Names without an amount on the page (none set, or "Preis auf Anfrage") sort after every price, either way. */
const shownPrice = (name: PortfolioName) => (name.settings.priceType === 'on-request' ? undefined : name.settings.price)

function buildIndex(config: DomainsConfig): PortfolioIndex {
  const names: (PortfolioName & { words: string[]; search: string })[] = []
  for (const [ascii, entry] of Object.entries(config.domains)) {
    if (ascii.startsWith('*.')) continue
    const settings = { ...config.default, ...entry }
    if (settings.listed === false || (settings.status !== undefined && settings.status !== 'available')) continue
    const display = displayHost(ascii)
    names.push({ ascii, display, settings, words: wordsOf(display), search: `${ascii} ${display}` })
  }
  names.sort(byName)
  const plain = ({ ascii, display, settings }: PortfolioName): PortfolioName => ({ ascii, display, settings })
  function rank(ascii: string, limit: number): PortfolioName[] {
    const tld = tldOf(ascii)
    const words = new Set(wordsOf(displayHost(ascii)))
    const scored = names
      .filter((name) => name.ascii !== ascii)
      .map((name) => ({ name, sameTld: tldOf(name.ascii) === tld ? 1 : 0, shared: name.words.filter((word) => words.has(word)).length }))
    scored.sort((a, b) => b.sameTld - a.sameTld || b.shared - a.shared || byName(a.name, b.name))
    return scored.slice(0, limit).map(({ name }) => plain(name))
  }
  // Every page of the portfolio asks on every request; the pages most visited ask again and again.
  const remembered = new Map<string, PortfolioName[]>()
  return {
    related(ascii, limit) {
      const key = `${limit} ${ascii}`
      let found = remembered.get(key)
      if (!found) {
        found = rank(ascii, limit)
        if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!)
        remembered.set(key, found)
      }
      return found
    },
    list({ q, sort, order, offset, limit }) {
      const needle = q?.trim().toLowerCase()
      const found = needle ? names.filter((name) => name.search.includes(needle)) : names.slice()
      if (sort === 'price') {
        found.sort((a, b) => {
          const [x, y] = [shownPrice(a), shownPrice(b)]
          if (x === undefined || y === undefined) return x === y ? byName(a, b) : x === undefined ? 1 : -1
          return (order === 'asc' ? x - y : y - x) || byName(a, b)
        })
      } else if (order === 'desc') {
        found.reverse()
      }
      return { total: found.length, items: found.slice(offset, offset + limit).map(plain) }
    },
  }
}

const REMEMBERED = 1000
const indexes = new WeakMap<DomainsConfig, PortfolioIndex>()

/** The portfolio of the domains file in force, or null when the file does not ask for one. Built once per file. */
export function portfolioOf(config: DomainsConfig): PortfolioIndex | null {
  if (!config.portfolio) return null
  let index = indexes.get(config)
  if (!index) indexes.set(config, (index = buildIndex(config)))
  return index
}
