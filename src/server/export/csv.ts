// CSV for spreadsheets. Every cell is what a stranger typed, and ends up in the owner's spreadsheet.
import { visible } from '../lib/escape.ts'

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
