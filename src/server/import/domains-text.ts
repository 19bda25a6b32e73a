// The domains file as the import edits it, in its own format: YAML through the yaml package's Document API (its
// comments, order and quoting stay), JSON as an object written back with 2-space indentation. Only the terms of the
// import (price, minOffer, currency) are touched; every other key of an entry stays as it was.
import { isMap, isScalar, parseDocument, YAMLMap, type Document, type Pair } from 'yaml'
import { MAX_NESTING, nestsTooDeep } from '../sites/domains-file.ts'
import type { EditableField } from '../../shared/domains-api.ts'
import { domainKey } from '../sites/settings.ts'
import { readsAs, Unreadable, Unsupported, yamlLines, type YamlLines } from './yaml-lines.ts'

type TermKey = 'price' | 'minOffer' | 'currency'
/**
 * What an entry's keys are set to; null removes the key. The import sets its terms (price, minOffer, currency); the
 * console's and `domains set`'s edits (domains-edit/) the other one-line keys too.
 */
export type TermChanges = Partial<Record<TermKey | EditableField, number | string | boolean | null>>

export interface DomainsText {
  /** The exact names of the file (never wildcards), in ASCII, with the terms their entries give themselves. */
  readonly entries: ReadonlyMap<string, Partial<Record<TermKey, unknown>>>
  /** The default's currency, or EUR. */
  readonly defaultCurrency: string
  /** An exact name's own entry as the file has it (the defaults not merged in). */
  entryOf(ascii: string): Readonly<Record<string, unknown>>
  change(ascii: string, changes: TermChanges): void
  add(name: string, terms: TermChanges): void
  remove(ascii: string): void
  /** The whole file as it would be read (for the schema) and its text. */
  value(): unknown
  text(): string
}

/** The current file cannot be read or edited; the message names where. */
export class DomainsTextError extends Error {
  override name = 'DomainsTextError'
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** Exact names only: the import never adds, changes or removes a wildcard. */
function exactName(key: unknown): string | null {
  if (typeof key !== 'string' || key.startsWith('*.')) return null
  return domainKey(key)
}

/** A currency as the schema takes it; anything else counts as none here, and the schema check names it. */
const codeOf = (value: unknown) => (typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : undefined)

/** The terms an entry gives itself, as the import compares them. */
const termsOf = (value: unknown): Partial<Record<TermKey, unknown>> =>
  isObject(value) ? { price: value.price, minOffer: value.minOffer, currency: codeOf(value.currency) } : {}

/**
 * A YAML file edited line by line (yaml-lines.ts), where its shape allows: a hundredth of the memory of the Document
 * API for 100,000 names (decision 027). What it writes must read back as exactly the expected document; where it does
 * not, or the shape is one it does not take, the same edits are made with the Document API (yamlDocumentText).
 */
function yamlText(source: string): DomainsText {
  let lines: YamlLines
  try {
    lines = yamlLines(source)
  } catch (error) {
    if (error instanceof Unsupported) return yamlDocumentText(source)
    if (error instanceof Unreadable) throw new DomainsTextError(error.message)
    throw error
  }
  const expected = structuredClone(lines.document)
  const keys = new Map<string, string>()
  const entries = new Map<string, Partial<Record<TermKey, unknown>>>()
  for (const [key, entry] of lines.entries) {
    const ascii = exactName(key)
    if (ascii === null) continue
    keys.set(ascii, key)
    entries.set(ascii, termsOf(entry.value))
  }
  const domains = () => (expected.domains ??= {}) as Record<string, Record<string, unknown> | null>
  const edits: ((file: DomainsText) => void)[] = []
  const defaultCurrency = (isObject(expected.default) && codeOf(expected.default.currency)) || 'EUR'
  return {
    entries,
    defaultCurrency,
    entryOf: (ascii) => lines.entries.get(keys.get(ascii)!)?.value ?? {},
    change(ascii, changes) {
      edits.push((file) => file.change(ascii, changes))
      const key = keys.get(ascii)!
      lines.change(key, changes)
      const entry = (domains()[key] ??= {})
      for (const [term, value] of Object.entries(changes)) {
        if (value === null) delete entry[term]
        else entry[term] = value
      }
    },
    add(name, terms) {
      edits.push((file) => file.add(name, terms))
      lines.add(name, terms)
      domains()[name] = Object.fromEntries(Object.entries(terms).filter(([, value]) => value !== null))
    },
    remove(ascii) {
      edits.push((file) => file.remove(ascii))
      lines.remove(keys.get(ascii)!)
      delete domains()[keys.get(ascii)!]
    },
    value: () => expected,
    text() {
      try {
        const text = lines.text()
        if (readsAs(text, expected)) return text
      } catch (error) {
        if (!(error instanceof Unsupported)) throw error
      }
      const file = yamlDocumentText(source)
      for (const edit of edits) edit(file)
      return file.text()
    },
  }
}

function yamlDocumentText(source: string): DomainsText {
  // Without the duplicate key check: it compares every key with every other (minutes for 100,000 names). The schema
  // check of the result still sees every name, and the server's own reading still refuses duplicates.
  const doc: Document = parseDocument(source, { uniqueKeys: false })
  if (doc.errors.length) throw new DomainsTextError(doc.errors.map((error) => error.message).join('\n'))
  if (doc.contents === null) doc.contents = doc.createNode({})
  if (!isMap(doc.contents)) throw new DomainsTextError('the top level is not a mapping of keys (unknownHosts, default, domains, …)')
  let domains = doc.get('domains', true)
  if (domains === undefined || (isScalar(domains) && domains.value === null)) {
    domains = new YAMLMap()
    doc.set('domains', domains)
  }
  if (!isMap(domains)) throw new DomainsTextError('"domains" is not a mapping of names')
  const map = domains
  const pairs = new Map<string, Pair>()
  const entries = new Map<string, Partial<Record<TermKey, unknown>>>()
  for (const pair of map.items) {
    const ascii = exactName(isScalar(pair.key) ? pair.key.value : pair.key)
    if (ascii === null) continue
    pairs.set(ascii, pair)
    const value = pair.value
    entries.set(ascii, isMap(value) ? termsOf({ price: value.get('price'), minOffer: value.get('minOffer'), currency: value.get('currency') }) : {})
  }
  const removed = new Set<Pair>()
  // Filtered once: deleting the pairs one by one would search the whole list for each.
  const dropRemoved = () => {
    if (removed.size) map.items = map.items.filter((pair) => !removed.has(pair as Pair))
    removed.clear()
  }
  // An empty flow map ("domains: {}") would put every new name on one line.
  const toBlock = (node: YAMLMap) => {
    if (node.items.length === 0) node.flow = false
  }
  return {
    entries,
    defaultCurrency: codeOf(doc.getIn(['default', 'currency'])) ?? 'EUR',
    entryOf(ascii) {
      const value = pairs.get(ascii)?.value
      return isMap(value) ? (value.toJSON() as Record<string, unknown>) : {}
    },
    change(ascii, changes) {
      const pair = pairs.get(ascii)!
      if (!isMap(pair.value)) pair.value = new YAMLMap()
      const entry = pair.value as YAMLMap
      toBlock(entry)
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) entry.delete(key)
        else entry.set(key, value)
      }
    },
    add(name, terms) {
      toBlock(map)
      // Pushed, not set(): set() looks for the key among all the others first.
      map.items.push(doc.createPair(name, Object.fromEntries(Object.entries(terms).filter(([, value]) => value !== null))) as Pair)
    },
    remove(ascii) {
      removed.add(pairs.get(ascii)!)
    },
    value() {
      dropRemoved()
      return doc.toJS()
    },
    text() {
      dropRemoved()
      // lineWidth 0: long values stay on their line instead of being folded anew.
      return doc.toString({ lineWidth: 0, indent: indentOf(source) })
    },
  }
}

/** The indentation the file uses (its first indented line), so that the import writes it the same way. */
function indentOf(source: string): number {
  const width = /^( +)[^\s#-]/m.exec(source)?.[1]?.length ?? 2
  return width >= 1 && width <= 8 ? width : 2
}

function jsonText(source: string): DomainsText {
  let file: unknown
  try {
    file = source.trim() === '' ? {} : JSON.parse(source)
  } catch (error) {
    throw new DomainsTextError((error as Error).message)
  }
  if (nestsTooDeep(file)) throw new DomainsTextError(`its lists and objects are nested more than ${MAX_NESTING} levels deep`)
  if (!isObject(file)) throw new DomainsTextError('the top level is not an object')
  file.domains ??= {}
  const domains = file.domains
  if (!isObject(domains)) throw new DomainsTextError('"domains" is not an object of names')
  const keys = new Map<string, string>()
  const entries = new Map<string, Partial<Record<TermKey, unknown>>>()
  for (const [key, entry] of Object.entries(domains)) {
    const ascii = exactName(key)
    if (ascii === null) continue
    keys.set(ascii, key)
    entries.set(ascii, termsOf(entry))
  }
  const apply = (entry: Record<string, unknown>, changes: TermChanges) => {
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete entry[key]
      else entry[key] = value
    }
    return entry
  }
  return {
    entries,
    defaultCurrency: (isObject(file.default) && codeOf(file.default.currency)) || 'EUR',
    entryOf(ascii) {
      const entry = domains[keys.get(ascii)!]
      return isObject(entry) ? entry : {}
    },
    change(ascii, changes) {
      const key = keys.get(ascii)!
      domains[key] = apply(isObject(domains[key]) ? domains[key] : {}, changes)
    },
    add(name, terms) {
      domains[name] = apply({}, terms)
    },
    remove(ascii) {
      delete domains[keys.get(ascii)!]
    },
    value: () => file,
    text: () => `${JSON.stringify(file, null, 2)}\n`,
  }
}

/** The file's format goes by its name, as when the server reads it. */
export const domainsText = (file: string, source: string): DomainsText => (/\.json$/i.test(file) ? jsonText(source) : yamlText(source))
