// Output for people (aligned tables, German times) and for scripts (CSV). Every cell goes through visibleUnits():
// the values are what strangers typed, and they end up in the owner's terminal or spreadsheet.
import { visible, visibleUnits } from './escape.ts'

const berlin = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' })
export const time = (ms: number | null | undefined) => (ms ? berlin.format(new Date(ms)) : '')

/** A cell as printed, and how many places it takes. */
interface Cell {
  text: string
  width: number
}

/** Places a unit takes: an escape such as `\x1b` is as wide as it is long, any other code point one. */
const widthOf = (unit: string) => (unit.length > 1 && unit.startsWith('\\') ? unit.length : 1)

/**
 * One line per cell: line breaks become a space, everything else unsafe is escaped first, and only then is a long
 * cell cut, between whole units, so a cut never leaves half an escape (or half a raw escape sequence).
 */
export function cell(value: string, maxWidth: number): Cell {
  const units: string[] = []
  for (const unit of visibleUnits(value.replace(/\r?\n/g, ' '))) {
    if (unit === ' ' && (units.length === 0 || units.at(-1) === ' ')) continue
    units.push(unit)
  }
  if (units.at(-1) === ' ') units.pop()
  const total = units.reduce((sum, unit) => sum + widthOf(unit), 0)
  if (total <= maxWidth) return { text: units.join(''), width: total }
  let width = 0
  let end = 0
  while (end < units.length && width + widthOf(units[end]!) <= maxWidth - 1) width += widthOf(units[end++]!)
  return { text: `${units.slice(0, end).join('')}…`, width: width + 1 }
}

/** Pads columns to the widest cell; long cells are cut so a row stays on one line. */
export function table(headers: string[], rows: (string | number | null | undefined)[][], maxWidth = 40): string {
  const head = headers.map((header) => ({ text: header, width: header.length }))
  const cells = rows.map((row) => row.map((value) => cell(String(value ?? ''), maxWidth)))
  const widths = head.map((header, i) => Math.max(header.width, ...cells.map((row) => row[i]!.width)))
  const line = (row: Cell[]) => row.map((c, i) => c.text + ' '.repeat(widths[i]! - c.width)).join('  ').trimEnd()
  return [line(head), line(widths.map((w) => ({ text: '-'.repeat(w), width: w }))), ...cells.map(line)].join('\n')
}

export const CSV_SEPARATORS = [',', ';'] as const
export type CsvSeparator = (typeof CSV_SEPARATORS)[number]

// What makes a spreadsheet run a cell as a formula, full-width and small forms included (Excel and LibreOffice
// fold them). Tab and CR are triggers too, but visible() has already written them as `\t` and `\r`.
const TRIGGER = '=+\\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b'
// A trigger at the start of the cell or after anything a spreadsheet may split on: a program that reads the file
// with another separator (German Excel splits on ";") or ignores the quotes starts a new cell there.
const FORMULA_START = new RegExp(`(^|[,;\\t\\n])(\\s*)([${TRIGGER}])`, 'gu')

/**
 * CSV for spreadsheets (RFC 4180, with a BOM so Excel reads UTF-8). Every text cell is quoted and written as
 * visible text; a formula trigger at its start or after a separator inside it gets an apostrophe in front.
 * Numbers and booleans stay bare so they remain numbers.
 */
export function csv(headers: string[], rows: (string | number | boolean | null | undefined)[][], separator: CsvSeparator = ','): string {
  const csvCell = (value: string | number | boolean | null | undefined) => {
    if (value === null || value === undefined) return ''
    if (typeof value !== 'string') return String(value)
    const text = visible(value, { keepLineBreaks: true }).replace(FORMULA_START, "$1$2'$3")
    return `"${text.replaceAll('"', '""')}"`
  }
  return `\ufeff${[headers, ...rows].map((row) => row.map(csvCell).join(separator)).join('\r\n')}\r\n`
}
