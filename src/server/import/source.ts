// Reads a registrar's list of names (CSV with a header row, or JSON) into rows of raw cells: which column is the
// name, the price, the minimum offer and the currency is found by its header, leniently, in German or English; other
// columns are left alone. Checking the cells is rows.ts's work.
import { parse } from 'csv-parse/sync'
import { appendAll } from '../../shared/arrays.ts'
import type { ImportField, ImportFormat, ImportProblem } from '../../shared/import-api.ts'
import { MAX_NESTING, nestsTooDeep } from '../sites/domains-file.ts'

/** A cell as the file had it; undefined: the file has no such column (or the JSON entry no such key). */
type Cell = string | number | null | undefined

interface SourceRow {
  /** CSV: the line the row starts on; JSON: the entry's number, from 1. */
  line: number
  cells: Partial<Record<ImportField, Cell>>
}

export interface Source {
  format: ImportFormat
  separator: ',' | ';' | null
  columns: { field: ImportField; header: string }[]
  ignored: string[]
  /** A currency the header gives an amount column ("Preis (EUR)", "Price $"), for amounts written without one. */
  marks: Partial<Record<'price' | 'minOffer', string>>
  rows: SourceRow[]
  problems: ImportProblem[]
}

/** Headers as registrars and spreadsheets write them, folded (lower case, no accents, no spaces or punctuation). */
const HEADERS: Record<ImportField, readonly string[]> = {
  name: ['domain', 'domainname', 'domains', 'domane', 'name', 'fqdn'],
  price: [
    'preis',
    'price',
    'verkaufspreis',
    'kaufpreis',
    'sofortkaufpreis',
    'festpreis',
    'buynow',
    'buynowprice',
    'binprice',
    'askingprice',
    'listprice',
    'saleprice',
  ],
  minOffer: ['mindestgebot', 'mindestangebot', 'mindestpreis', 'minoffer', 'minimumoffer', 'minbid', 'minimumbid', 'minprice', 'minimumprice', 'floorprice'],
  currency: ['wahrung', 'waehrung', 'currency', 'curr', 'ccy'],
}
const FIELD_OF = new Map(Object.entries(HEADERS).flatMap(([field, names]) => names.map((name) => [name, field as ImportField])))

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[\s_\-.:/]+/g, ' ')
    .trim()

// "Preis (EUR)", "Price in USD", "Preis €", "price_usd": an amount's header with its currency after it.
const WITH_CODE = /^(.+?)\s*[\s([]\s*(?:in\s+)?([a-z]{3})\s*[)\]]?$/
const WITH_SYMBOL = /^(.+?)\s*[([]?\s*(?:in\s+)?(\p{Sc})\s*[)\]]?$/u

/** The field a header names, and the currency it gives its amounts; null for a column the import leaves alone. */
export function fieldOfHeader(header: string): { field: ImportField; mark?: string } | null {
  const folded = fold(header)
  const field = FIELD_OF.get(folded.replace(/ /g, ''))
  if (field) return { field }
  const match = WITH_CODE.exec(folded) ?? WITH_SYMBOL.exec(folded)
  const stem = match && FIELD_OF.get(match[1]!.replace(/ /g, ''))
  if (!match || (stem !== 'price' && stem !== 'minOffer')) return null
  const mark = match[2]!.toUpperCase()
  return /^[A-Z]{3}$/.test(mark) && !CURRENCIES.has(mark) ? null : { field: stem, mark }
}

export const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

/** The separator of the header line: the one of "," and ";" it has more of outside quotes. */
export function detectSeparator(text: string): ',' | ';' {
  const header = /^[^\S\r\n]*\S.*$/m.exec(text)?.[0] ?? ''
  let quoted = false
  let commas = 0
  let semicolons = 0
  for (const char of header) {
    if (char === '"') quoted = !quoted
    else if (!quoted && char === ',') commas++
    else if (!quoted && char === ';') semicolons++
  }
  return semicolons > commas ? ';' : ','
}

interface Header {
  columns: Source['columns']
  ignored: string[]
  marks: Source['marks']
  /** Column index -> field. */
  index: Map<number | string, ImportField>
  problems: ImportProblem[]
}

/** Maps header cells (CSV) or keys (JSON) to fields; two for one field is a problem, as nobody can say which counts. */
function readHeader(headers: readonly (string | number)[], names: readonly string[], line: number | null): Header {
  const header: Header = { columns: [], ignored: [], marks: {}, index: new Map(), problems: [] }
  const seen = new Map<ImportField, string>()
  names.forEach((name, i) => {
    const found = fieldOfHeader(name)
    if (!found) return void (name.trim() && header.ignored.push(name))
    const other = seen.get(found.field)
    if (other !== undefined) return void header.problems.push({ kind: 'two-columns', line, field: found.field, headers: [other, name] })
    seen.set(found.field, name)
    header.index.set(headers[i]!, found.field)
    header.columns.push({ field: found.field, header: name })
    if (found.mark && found.field !== 'name' && found.field !== 'currency') header.marks[found.field] = found.mark
  })
  return header
}

/** Line numbers of byte offsets in the CSV (csv-parse counts the bytes it consumed). */
function lineFinder(bytes: Buffer): (offset: number) => number {
  const breaks: number[] = []
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) breaks.push(i)
  return (offset) => {
    // A record starts after the empty lines before it.
    while (offset < bytes.length && (bytes[offset] === 10 || bytes[offset] === 13)) offset++
    let low = 0
    let high = breaks.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (breaks[mid]! < offset) low = mid + 1
      else high = mid
    }
    return low + 1
  }
}

function readCsv(text: string): Source {
  const body = text.replace(/^\ufeff/, '')
  const bytes = Buffer.from(body)
  const separator = detectSeparator(body)
  const lineAt = lineFinder(bytes)
  const problems: ImportProblem[] = []
  // Where each record starts: csv-parse tells where it ended (in bytes), the next one starts after that.
  const lines: number[] = []
  let end = 0
  const cellsOf = parse(bytes, {
    delimiter: separator,
    // Registrars' exports: rows shorter or longer than the header, quotes inside unquoted cells.
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells, context) => {
      lines.push(lineAt(end))
      end = context.bytes
      return cells
    },
    on_skip: (error) => void problems.push({ kind: 'syntax', line: lineAt(end), message: error?.message ?? 'unreadable' }),
  })
  const records = cellsOf.map((cells, i) => ({ line: lines[i]!, cells }))
  const base = { format: 'csv' as const, separator, ignored: [], columns: [], marks: {}, rows: [] }
  const [first, ...rest] = records
  if (!first) return { ...base, problems: [...problems, { kind: 'no-rows' }] }
  const header = readHeader(
    first.cells.map((_, i) => i),
    first.cells,
    first.line,
  )
  appendAll(problems, header.problems)
  // Without a name column every row would be an error of its own: the one problem is enough.
  if (![...header.index.values()].includes('name'))
    return { ...base, ignored: header.ignored, problems: [...problems, { kind: 'no-name-column', headers: first.cells }] }
  const rows = rest
    // A row of empty cells (";;;") is an empty line a spreadsheet wrote.
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
    .map(({ line, cells }) => ({ line, cells: Object.fromEntries([...header.index].map(([i, field]) => [field, cells[i as number] ?? ''])) }))
  return { ...base, columns: header.columns, ignored: header.ignored, marks: header.marks, rows, problems }
}

/** JSON: a list of entries (objects with the CSV's headers as keys, or just names), or { "domains": [...] }. */
function readJson(text: string): Source {
  const base = { format: 'json' as const, separator: null, columns: [], ignored: [], marks: {}, rows: [] }
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''))
  } catch (error) {
    return { ...base, problems: [{ kind: 'syntax', line: null, message: (error as Error).message }] }
  }
  // Every cell that is no text is shown as JSON, which recurses: a list nested millions deep would end the import.
  if (nestsTooDeep(value))
    return { ...base, problems: [{ kind: 'syntax', line: null, message: `lists and objects nested more than ${MAX_NESTING} levels deep` }] }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { domains?: unknown }).domains)
      ? (value as { domains: unknown[] }).domains
      : null
  if (!list)
    return { ...base, problems: [{ kind: 'syntax', line: null, message: 'expected a list of entries: [{ "domain": "example.de", "price": 4900 }, …]' }] }
  const problems: ImportProblem[] = []
  const columns = new Map<string, ImportField>()
  const ignored = new Set<string>()
  const marks: Source['marks'] = {}
  const rows: SourceRow[] = list.map((entry, i) => {
    const line = i + 1
    if (typeof entry === 'string') return { line, cells: { name: entry } }
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { line, cells: { name: JSON.stringify(entry) ?? '' } }
    const keys = Object.keys(entry)
    const header = readHeader(keys, keys, line)
    appendAll(problems, header.problems)
    header.columns.forEach(({ field, header: key }) => columns.set(key, field))
    header.ignored.forEach((key) => ignored.add(key))
    Object.assign(marks, header.marks)
    const cells: SourceRow['cells'] = {}
    for (const [key, field] of header.index) {
      const cell = (entry as Record<string, unknown>)[key]
      cells[field] = cell === null || typeof cell === 'number' || typeof cell === 'string' ? cell : JSON.stringify(cell)
    }
    // An entry without a name key still names a row: rows.ts says it has no name.
    cells.name ??= ''
    return { line, cells }
  })
  const found = [...columns].map(([header, field]) => ({ field, header }))
  return { ...base, columns: found, ignored: [...ignored], marks, rows, problems: rows.length ? problems : [...problems, { kind: 'no-rows' }] }
}

export function readSource(text: string, format: ImportFormat): Source {
  return format === 'json' ? readJson(text) : readCsv(text)
}
