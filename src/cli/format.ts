// Output for people (aligned tables, German times). Every cell goes through visibleUnits():
// the values are what strangers typed, and they end up in the owner's terminal or spreadsheet.
import { visibleUnits } from '../server/lib/escape.ts'
import { maxOf } from '../shared/arrays.ts'

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
  const widths = head.map((header, i) =>
    maxOf(
      header.width,
      cells.map((row) => row[i]!.width),
    ),
  )
  const line = (row: Cell[]) =>
    row
      .map((c, i) => c.text + ' '.repeat(widths[i]! - c.width))
      .join('  ')
      .trimEnd()
  return [line(head), line(widths.map((w) => ({ text: '-'.repeat(w), width: w }))), ...cells.map(line)].join('\n')
}
