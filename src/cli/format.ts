// Output for people (aligned tables, German times) and for scripts (JSON, CSV).

const berlin = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' })
export const time = (ms: number | null | undefined) => (ms ? berlin.format(new Date(ms)) : '')

/** Pads columns to the widest cell; long cells are cut so a row stays on one line. */
export function table(headers: string[], rows: (string | number | null | undefined)[][], maxWidth = 40): string {
  const cells = rows.map((row) => row.map((cell) => oneLine(String(cell ?? ''), maxWidth)))
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => row[i]!.length)))
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')
}

function oneLine(value: string, maxWidth: number): string {
  const flat = value.replace(/\s+/g, ' ').trim()
  return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat
}

/**
 * RFC 4180 CSV. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) gets a leading
 * apostrophe: the export holds what strangers typed.
 */
export function csv(headers: string[], rows: (string | number | boolean | null | undefined)[][]): string {
  const cell = (value: string | number | boolean | null | undefined) => {
    let text = value === null || value === undefined ? '' : String(value)
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n'
}
