// Checks every row of the list: the name (Unicode or punycode, normalised as the domains file's keys are), the
// amounts (German or English number format, whole units, in the row's currency) and the currency. Every problem is
// reported with its row, not only the first; a name twice is a warning, twice with different terms an error.
import { markFits, readAmount } from '../../shared/contact.ts'
import type { ImportProblem } from '../../shared/import-api.ts'
import { displayHost } from '../sites/host.ts'
import { sellableName } from '../sites/settings.ts'
import { CURRENCIES, type Source } from './source.ts'

/** One name of the list. undefined: the list says nothing about it (no such column); null: none (an empty cell). */
export interface ImportedDomain {
  ascii: string
  /** As people read it (displayHost): how a new entry is written. */
  name: string
  line: number
  price?: number | null
  minOffer?: number | null
  /** Only when the row names one (a column, or a code or € with an amount). */
  currency?: string
}

const SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP' }

/** A currency cell: an ISO 4217 code in any case, or €, $ or £. */
function currencyOf(value: string): string | null {
  const code = SYMBOLS[value] ?? value.toUpperCase()
  return CURRENCIES.has(code) ? code : null
}

/** The currency a mark names for sure: a code, or €. "$" alone could be any dollar. */
const currencyOfMark = (mark: string) => (/^[A-Z]{3}$/.test(mark) ? mark : mark === '€' ? 'EUR' : undefined)

type AmountField = 'price' | 'minOffer'
type Read = { amount: number | null; mark: string } | { problem: 'format' | 'cents' | 'range' }

function amountOf(cell: string | number | null): Read {
  if (cell === null) return { amount: null, mark: '' }
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || cell < 0) return { problem: 'format' }
    if (!Number.isInteger(cell)) return { problem: 'cents' }
    return cell <= 1_000_000_000 ? { amount: cell, mark: '' } : { problem: 'range' }
  }
  const read = readAmount(cell)
  if (read === null) return { amount: null, mark: '' }
  return typeof read === 'string' ? { problem: read } : read
}

const text = (cell: string | number | null | undefined) => (cell === null || cell === undefined ? '' : String(cell).trim())

export interface CheckedRows {
  domains: ImportedDomain[]
  problems: ImportProblem[]
}

/**
 * `currencyIn(ascii)`: the currency a name has now (its entry's, or the file's default): amounts of a row that
 * names no currency are in that one.
 */
export function checkRows(source: Source, currencyIn: (ascii: string) => string): CheckedRows {
  const problems: ImportProblem[] = []
  const byName = new Map<string, ImportedDomain>()
  for (const { line, cells } of source.rows) {
    const before = problems.length
    const raw = text(cells.name)
    if (raw === '') {
      problems.push({ kind: 'no-name', line })
      continue
    }
    const checked = sellableName(raw)
    const ascii = 'ascii' in checked ? checked.ascii : null
    if ('problem' in checked) problems.push({ kind: checked.problem, line, value: raw })

    let currency: string | undefined
    if (cells.currency !== undefined && text(cells.currency) !== '') {
      currency = currencyOf(text(cells.currency)) ?? undefined
      if (currency === undefined) problems.push({ kind: 'currency', line, value: text(cells.currency) })
    }
    const amounts: Partial<Record<AmountField, { amount: number | null; marks: string[] }>> = {}
    for (const field of ['price', 'minOffer'] as const) {
      const cell = cells[field]
      if (cell === undefined) continue
      const read = amountOf(typeof cell === 'string' ? cell.trim() : cell)
      if ('problem' in read) {
        problems.push({ kind: 'amount', line, field, value: text(cell), reason: read.problem, currency: currency ?? '' })
        continue
      }
      // The currency written with the amount, and the one its header names ("Preis (EUR)").
      amounts[field] = { amount: read.amount, marks: read.amount === null ? [] : [read.mark, source.marks[field] ?? ''].filter(Boolean) }
    }
    if (problems.length > before || ascii === null) continue

    // The row's currency: its column, else what its amounts say for sure, else the name's current one.
    currency ??= [...(amounts.price?.marks ?? []), ...(amounts.minOffer?.marks ?? [])].map(currencyOfMark).find(Boolean)
    const inForce = currency ?? currencyIn(ascii)
    for (const field of ['price', 'minOffer'] as const) {
      if (amounts[field]?.marks.some((mark) => !markFits(mark, inForce))) {
        problems.push({ kind: 'amount', line, field, value: text(cells[field]), reason: 'currency', currency: inForce })
      }
    }
    if (problems.length > before) continue

    const domain: ImportedDomain = { ascii, name: displayHost(ascii), line, price: amounts.price?.amount, minOffer: amounts.minOffer?.amount, currency }
    const first = byName.get(ascii)
    if (!first) byName.set(ascii, domain)
    else {
      const same = first.price === domain.price && first.minOffer === domain.minOffer && first.currency === domain.currency
      problems.push({ kind: 'duplicate', line, first: first.line, name: domain.name, conflict: !same })
    }
  }
  return { domains: [...byName.values()], problems }
}
