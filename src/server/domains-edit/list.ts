// The console's list of the domains file's names, searchable and paged (GET /api/domains): from the table the server
// holds (decision 026), not from the file, so that a page of 100,000 names costs one indexOf per match and the
// settings of the hundred shown. The names' search text is made once per version of the table, at its first search
// (decision 044).
import { domainToUnicode } from 'node:url'
import { DOMAINS_PAGE_SIZE, type DomainRow, type DomainsListPage } from '../../shared/domains-api.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { displayHost } from '../sites/host.ts'

interface NameIndex {
  ascii: string[]
  /** Made at the first search, not at the first list: the list after a reload needs only the names. */
  search: SearchText | null
  /** The names (indexes) a recent search matched, so that its further pages cost only the page. */
  searches: Map<string, Int32Array>
}

interface SearchText {
  /**
   * Every name's search text (lower case: the ASCII name and, for an international one, the form people read), one
   * a line: a search is one indexOf over it per match, not a call per name.
   */
  text: string
  /** Where each name's line starts in `text`, and one past the last. */
  starts: Int32Array
}

/** Searches kept per version of the table (paging through one costs one scan). */
const SEARCHES_KEPT = 16

const indexes = new WeakMap<DomainsConfig, NameIndex>()

function indexOf(config: DomainsConfig): NameIndex {
  let index = indexes.get(config)
  if (!index) {
    // Wildcards are edited in the file itself (docs/domains.md).
    index = { ascii: config.nameList().filter((name) => !name.startsWith('*.')), search: null, searches: new Map() }
    indexes.set(config, index)
  }
  return index
}

function searchTextOf(index: NameIndex): SearchText {
  if (index.search) return index.search
  // Node's own (ICU) decoding for the search text: tr46's, which displayHost uses for the names shown, costs tens of
  // microseconds a name, a third of a second for a portfolio's few thousand international names.
  const lines = index.ascii.map((name) => (name.includes('xn--') ? `${name} ${domainToUnicode(name).toLowerCase()}` : name))
  const starts = new Int32Array(lines.length + 1)
  for (let i = 0, at = 0; i < lines.length; i++) {
    starts[i] = at
    at += lines[i]!.length + 1
    starts[i + 1] = at
  }
  index.search = { text: lines.join('\n'), starts }
  return index.search
}

/** The line `position` is on. */
function lineAt(starts: Int32Array, position: number): number {
  let low = 0
  let high = starts.length - 2
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle]! <= position) low = middle
    else high = middle - 1
  }
  return low
}

function matchesOf(index: NameIndex, q: string): Int32Array {
  const kept = index.searches.get(q)
  if (kept) return kept
  const { text, starts } = searchTextOf(index)
  const found: number[] = []
  for (let at = text.indexOf(q); at >= 0;) {
    const line = lineAt(starts, at)
    found.push(line)
    at = text.indexOf(q, starts[line + 1]!)
  }
  const matches = Int32Array.from(found)
  if (index.searches.size >= SEARCHES_KEPT) index.searches.delete(index.searches.keys().next().value!)
  index.searches.set(q, matches)
  return matches
}

function rowOf(config: DomainsConfig, ascii: string): DomainRow {
  const settings = config.entry(ascii) ?? {}
  return {
    name: displayHost(ascii),
    ascii,
    price: settings.price ?? null,
    currency: settings.currency ?? 'EUR',
    priceType: settings.priceType ?? null,
    minOffer: settings.minOffer ?? null,
    status: settings.status ?? 'available',
    language: settings.language ?? null,
    listed: settings.listed !== false,
    description: settings.description ?? null,
  }
}

export function listDomains(config: DomainsConfig, query: { q?: string; offset?: number }): DomainsListPage {
  const index = indexOf(config)
  // A line break would match across two names' lines.
  const q = (query.q ?? '').trim().toLowerCase().replace(/\s+/g, ' ')
  const offset = Math.max(0, Math.floor(query.offset ?? 0))
  const shown: string[] = []
  let total: number
  if (q === '') {
    total = index.ascii.length
    for (let i = offset; i < Math.min(total, offset + DOMAINS_PAGE_SIZE); i++) shown.push(index.ascii[i]!)
  } else {
    const matches = matchesOf(index, q)
    total = matches.length
    for (let i = offset; i < Math.min(total, offset + DOMAINS_PAGE_SIZE); i++) shown.push(index.ascii[matches[i]!]!)
  }
  return { q: query.q ?? '', offset, total, items: shown.map((ascii) => rowOf(config, ascii)) }
}
