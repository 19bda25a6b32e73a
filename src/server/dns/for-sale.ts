// The "_for-sale" TXT records of RFC 10023 (published from draft-davids-forsalereg-21): the records the domains file
// asks for, written for a zone file, and the rules a published record is read by. Decision 022 says which reading
// of the RFC this follows.
import { displayHost } from '../sites/host.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { publicPrice, type DomainSettings } from '../sites/settings.ts'
import { lazy } from '../../shared/lazy.ts'

const VERSION_TAG = 'v=FORSALE1;'
/** A record is one character-string; a longer one would have to be split, which the RFC forbids. */
const MAX_RECORD_OCTETS = 255
/** The RFC recommends at most an hour, so that a sale (and the records' removal) shows soon. */
export const RECORD_TTL = 3600
const CONTENT_TAGS = ['ftxt', 'furi', 'fval', 'fcod'] as const
type ContentTag = (typeof CONTENT_TAGS)[number]

const octets = (text: string) => Buffer.byteLength(text, 'utf8')

export const ownerName = (ascii: string) => `_for-sale.${ascii}.`

type SaleStatus = NonNullable<DomainSettings['status']>

// Line breaks and tabs are to be avoided in ftxt; other controls and bidi overrides would reach a buyer's screen.
const NOT_TEXT = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu
// Inside ftxt, ";fval=" (also with spaces, for a liberal reader) would read as a second pair, a construct the RFC
// calls ambiguous: that semicolon becomes a comma.
const PAIR_INSIDE = /;(?=\s*(?:v|ftxt|furi|fval|fcod)=)/g
const graphemes = lazy(() => new Intl.Segmenter('de', { granularity: 'grapheme' }))
const ELLIPSIS = '…'

/** The description as ftxt: one line, no controls, shortened (between whole characters, at a word) to fit one record. */
export function forSaleText(description: string): string | null {
  const text = description.replace(NOT_TEXT, ' ').replace(PAIR_INSIDE, ',').replace(/\s+/g, ' ').trim()
  if (!text) return null
  const room = MAX_RECORD_OCTETS - octets(`${VERSION_TAG}ftxt=`)
  if (octets(text) <= room) return text
  let cut = ''
  for (const { segment } of graphemes().segment(text)) {
    if (octets(cut + segment + ELLIPSIS) > room) break
    cut += segment
  }
  const space = cut.lastIndexOf(' ')
  if (space > cut.length * 0.6) cut = cut.slice(0, space)
  return `${cut.trimEnd()}${ELLIPSIS}`
}

/** What check compares: the furi and fval a domain's records carry. */
interface Expected {
  furi: string
  fval: string | null
}

function expectedPairs(ascii: string, settings: DomainSettings): Expected {
  const price = publicPrice(settings)
  return { furi: `https://${ascii}/`, fval: price === undefined ? null : `${settings.currency ?? 'EUR'}${price}` }
}

/** The records' texts, each `v=FORSALE1;` and one pair; a pair that would not fit one record is left out. */
export function forSaleRecords(ascii: string, settings: DomainSettings): string[] {
  const { furi, fval } = expectedPairs(ascii, settings)
  const text = settings.description === undefined ? null : forSaleText(settings.description)
  const records = [`furi=${furi}`, ...(fval ? [`fval=${fval}`] : []), ...(text ? [`ftxt=${text}`] : [])].map((pair) => VERSION_TAG + pair)
  return records.filter((record) => octets(record) <= MAX_RECORD_OCTETS)
}

export interface ForSaleDomain {
  /** As the owner reads it (Unicode). */
  domain: string
  ascii: string
  status: SaleStatus
  expected: Expected
  /** Empty for a sold domain. */
  records: string[]
}

export interface ForSaleListing {
  domains: ForSaleDomain[]
  skipped: { domain: string; reason: string }[]
}

/** Every exact name the file lists and shows, with its records; `only` (ASCII) narrows it to one name. */
/** `sold`: the names sold through a deal (the store's soldDomains, decision 033): sold whatever the file says. */
export function forSaleListing(config: DomainsConfig, only?: string, sold: Pick<ReadonlySet<string>, 'has'> = new Set()): ForSaleListing {
  const listing: ForSaleListing = { domains: [], skipped: [] }
  for (const [key, entry] of config.entries()) {
    if (only !== undefined && key !== only) continue
    if (key.startsWith('*.')) {
      listing.skipped.push({
        domain: `*.${displayHost(key.slice(2))}`,
        reason: 'a wildcard entry: _for-sale records name one domain each (list the names you sell)',
      })
      continue
    }
    const settings = { ...config.default, ...entry }
    if (settings.listed === false) {
      listing.skipped.push({ domain: displayHost(key), reason: 'listed: false (the server does not show it)' })
      continue
    }
    const status = sold.has(key) ? 'sold' : (settings.status ?? 'available')
    listing.domains.push({
      domain: displayHost(key),
      ascii: key,
      status,
      expected: expectedPairs(key, settings),
      records: status === 'sold' ? [] : forSaleRecords(key, settings),
    })
  }
  return listing
}

/** A string as a zone-file character-string (RFC 1035, 5.1): quoted, `"` and `\` escaped, other octets as `\DDD`. */
export function zoneString(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`
    else if (byte >= 0x20 && byte <= 0x7e) out += String.fromCharCode(byte)
    else out += `\\${String(byte).padStart(3, '0')}`
  }
  return `"${out}"`
}

export const zoneLine = (ascii: string, record: string) => `${ownerName(ascii)}\t${RECORD_TTL}\tIN\tTXT\t${zoneString(record)}`

/** One published TXT record as read: not a _for-sale record at all, or one (with what breaks the RFC, if anything). */
export type TxtReading = { kind: 'other' } | { kind: 'for-sale'; text: string; tag: ContentTag | null; value: string; problems: string[] }

// A pair inside a value: two pairs in one record, which the RFC forbids.
const SECOND_PAIR = /;\s*(?:v|ftxt|furi|fval|fcod)=/
const FVAL = /^[A-Z]+\d+(?:\.\d+)?$/

const isContentTag = (tag: string): tag is ContentTag => (CONTENT_TAGS as readonly string[]).includes(tag)

/** Reads one TXT record given as its character-strings' raw octets. */
export function readForSaleTxt(strings: readonly Buffer[]): TxtReading {
  const raw = Buffer.concat(strings)
  const text = raw.toString('utf8')
  if (!text.startsWith(VERSION_TAG)) {
    if (!/^\s*v\s*=\s*for-?sale/i.test(text)) return { kind: 'other' }
    return { kind: 'for-sale', text, tag: null, value: '', problems: [`the version tag is not exactly ${VERSION_TAG} (it is case-sensitive and comes first)`] }
  }
  const problems: string[] = []
  if (strings.length > 1) problems.push(`it is split into ${strings.length} character-strings (the RFC allows one)`)
  if (raw.length > MAX_RECORD_OCTETS) problems.push(`it is ${raw.length} octets long (at most ${MAX_RECORD_OCTETS})`)
  const content = text.slice(VERSION_TAG.length)
  // A bare version tag is valid: the domain is for sale, ask.
  if (content === '') return { kind: 'for-sale', text, tag: null, value: '', problems }
  const pair = /^([^=]*)=([\s\S]*)$/.exec(content)
  const tag = pair?.[1] ?? ''
  const value = pair?.[2] ?? ''
  if (!isContentTag(tag)) {
    problems.push('it has no known content tag after the version tag (ftxt=, furi=, fval= or fcod=, in lower case)')
    return { kind: 'for-sale', text, tag: null, value: content, problems }
  }
  if (value === '') problems.push(`its ${tag}= value is empty`)
  else if (SECOND_PAIR.test(value)) problems.push('it holds more than one tag-value pair (one per record)')
  else if (tag === 'fval' && !FVAL.test(value)) problems.push('its fval= is not a currency code and an amount such as EUR4900 or USD750.50')
  else if (tag === 'furi' && (/\s/.test(value) || !URL.canParse(value))) problems.push('its furi= is not one URI')
  return { kind: 'for-sale', text, tag, value, problems }
}
