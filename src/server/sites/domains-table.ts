// The domains file as the server keeps it: what holds for every domain as a plain object, and the entries as one
// hash table of their ASCII names, each pointing at its settings as UTF-8 JSON, all in a single ArrayBuffer. The
// loading process builds it (domains-loader.ts); the server makes views on the buffer without copying and decodes an
// entry's settings only when a request asks for that name (a few are kept decoded).
import { createHash } from 'node:crypto'
import { lruCache } from './lru.ts'
import { hashStrings, indexOf, packSections, packStrings, stringAt, viewSections, type Layout } from './packed.ts'
import { buildPortfolio, openPortfolio, portfolioCandidate, type Portfolio, type PortfolioCandidate, type PortfolioSections } from './portfolio-index.ts'
import type { DomainSettings, DomainsTop } from './settings.ts'

/** Settings for a host the server shows; null for a host it does not. */
interface ResolvedDomain {
  settings: DomainSettings
  /** Whether the host was found in the file (false: an unknown host shown because unknownHosts is "page"). */
  known: boolean
  /** The wildcard entry that covers the host ("*.example.de"), when no exact entry does. */
  wildcard?: string
}

/** The whole domains configuration: the domains file in force, or its defaults when there is none. */
export interface DomainsConfig extends Readonly<DomainsTop>, Portfolio {
  /**
   * A short fingerprint of the entries and settings (not of comments or layout). It goes into the link preview
   * image's URL, so that previews fetch the image anew after an edit; the same file gives the same value after a
   * restart.
   */
  readonly version: string
  /** How many entries the file has, wildcards included. */
  readonly size: number
  /** The first place (`default` or an entry's name) that sets `notify`, or null. */
  readonly notifyIn: string | null
  /**
   * The exact entry, else the wildcard one label up; unlisted entries hide the domain. A wildcard covers exactly one
   * label, as in a certificate (RFC 6125, 6.4.3): *.example.de is shop.example.de, never a.b.example.de.
   */
  resolve(ascii: string): ResolvedDomain | null
  /** An exact or wildcard entry's settings over the defaults, listed or not (the console's list); null if none. */
  entry(key: string): DomainSettings | null
  /** Every entry's name (ASCII; wildcards as "*.example.de"), in the file's order. */
  names(): Iterable<string>
  /** The same as one array, read in one piece (the console's list of 100,000 names: decision 044). */
  nameList(): string[]
  /** Every entry with its own settings (the defaults not merged in), in the file's order. */
  entries(): Iterable<[string, DomainSettings]>
}

type TableSections = PortfolioSections & {
  nameSlots: Uint32Array
  nameStarts: Uint32Array
  nameBytes: Uint8Array
  settingsStarts: Uint32Array
  settingsBytes: Uint8Array
}

/** What the loading process hands back: the buffer (as a file, registry.ts) and the small values beside it. */
export interface DomainsTableData {
  top: DomainsTop
  buffer: ArrayBuffer
  layout: Layout<TableSections>
  version: string
  notifyIn: string | null
}

/**
 * Takes the entries one by one, each as soon as it is checked: its settings become JSON at once, so that 100,000
 * settings objects never live side by side. Names must be ASCII and distinct.
 */
export function domainsTableBuilder(top: DomainsTop) {
  const names: string[] = []
  const values: string[] = []
  const available: PortfolioCandidate[] = []
  const notifying = (entry: DomainSettings) => Boolean(entry.notify?.length)
  let notifyIn = notifying(top.default) ? 'default' : null
  return {
    add(name: string, settings: DomainSettings) {
      if (top.portfolio) {
        const candidate = portfolioCandidate(names.length, name, { ...top.default, ...settings })
        if (candidate) available.push(candidate)
      }
      if (notifyIn === null && notifying(settings)) notifyIn = name
      names.push(name)
      values.push(JSON.stringify(settings))
    },
    build(): DomainsTableData {
      const hashed = hashStrings(names)
      const packed = packStrings(values)
      const { buffer, layout } = packSections<TableSections>({
        ...buildPortfolio(available),
        nameSlots: hashed.slots,
        nameStarts: hashed.starts,
        nameBytes: hashed.bytes,
        settingsStarts: packed.starts,
        settingsBytes: packed.bytes,
      })
      const version = createHash('sha256').update(JSON.stringify(top)).update(new Uint8Array(buffer)).digest('base64url').slice(0, 10)
      return { top, buffer, layout, version, notifyIn }
    },
  }
}

/** Decoded settings kept per table: the names requests ask for again and again (Host headers repeat). */
const DECODED_MAX = 2048

export function openDomainsTable(data: DomainsTableData): DomainsConfig {
  const { top } = data
  const sections = viewSections(data.buffer, data.layout)
  const names = { slots: sections.nameSlots, starts: sections.nameStarts, bytes: sections.nameBytes }
  const values = { starts: sections.settingsStarts, bytes: sections.settingsBytes }
  const size = sections.nameStarts.length - 1
  const decoded = lruCache<number, DomainSettings>(DECODED_MAX)
  const ownSettings = (entry: number) => JSON.parse(stringAt(values, entry)) as DomainSettings
  /** An entry's settings over the defaults: shared by the requests that ask, so frozen. */
  const settingsAt = (entry: number) => decoded.get(entry) ?? decoded.set(entry, Object.freeze({ ...top.default, ...ownSettings(entry) }))

  function resolve(ascii: string): ResolvedDomain | null {
    let entry = indexOf(names, ascii)
    let wildcard: string | undefined
    const dot = ascii.indexOf('.')
    if (entry < 0 && dot >= 0) {
      wildcard = `*.${ascii.slice(dot + 1)}`
      entry = indexOf(names, wildcard)
    }
    if (entry < 0) return top.unknownHosts === 'page' ? { settings: top.default, known: false } : null
    const settings = settingsAt(entry)
    if (settings.listed === false) return null
    return wildcard === undefined ? { settings, known: true } : { settings, known: true, wildcard }
  }

  const portfolio = openPortfolio(sections, { entryOf: (ascii) => indexOf(names, ascii), nameAt: (entry) => stringAt(names, entry), settingsAt })
  return {
    ...top,
    version: data.version,
    size,
    notifyIn: data.notifyIn,
    resolve,
    entry(key) {
      const entry = indexOf(names, key)
      return entry < 0 ? null : settingsAt(entry)
    },
    *names() {
      for (let entry = 0; entry < size; entry++) yield stringAt(names, entry)
    },
    nameList() {
      // Names are ASCII (the loader makes them so): one latin1 string of all of them, cut at the starts, instead of a
      // UTF-8 decoding per name.
      const all = Buffer.from(names.bytes.buffer, names.bytes.byteOffset, names.bytes.byteLength).toString('latin1')
      const list = new Array<string>(size)
      for (let entry = 0; entry < size; entry++) list[entry] = all.slice(names.starts[entry]!, names.starts[entry + 1]!)
      return list
    },
    *entries() {
      for (let entry = 0; entry < size; entry++) yield [stringAt(names, entry), ownSettings(entry)]
    },
    related: portfolio.related,
    list: portfolio.list,
  }
}
