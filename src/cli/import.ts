// `import FILE`: a registrar's list of names (CSV or JSON) into DOMAINS_FILE: every row checked, the changes shown,
// the file replaced atomically unless --dry-run or any error. docs/cli.md#import, docs/decisions/027.
import fs from 'node:fs'
import type { Config } from '../server/config.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { runImport, type ImportStep } from '../server/import/plan.ts'
import { appendAll } from '../shared/arrays.ts'
import { isWarning, type ImportField, type ImportFormat, type ImportProblem, type ImportReport, type Terms } from '../shared/import-api.ts'
import { cell, table } from './format.ts'
import { UsageError } from './usage-error.ts'

interface ImportOptions {
  format?: string | undefined
  'dry-run'?: boolean | undefined
  prune?: boolean | undefined
  json?: boolean | undefined
}

const FIELD: Record<ImportField, string> = { name: 'domain', price: 'price', minOffer: 'minimum offer', currency: 'currency' }

const AMOUNT_REASON: Record<Extract<ImportProblem, { kind: 'amount' }>['reason'], string> = {
  format: 'is not an amount such as 4900, 4.900,00 € or $4,900',
  cents: 'has cents; amounts in the domains file are whole',
  range: 'is above 1,000,000,000',
  currency: "is not in {currency} (the name's currency; a Currency column changes it)",
}

/** A value from the file, as text for a terminal and cut to one line. */
const quoted = (value: string) => `"${cell(value, 80).text}"`

function describeProblem(problem: ImportProblem, format: ImportFormat): string {
  const at = (line: number | null) => (line === null ? '' : `${format === 'json' ? 'entry' : 'line'} ${line}: `)
  switch (problem.kind) {
    case 'syntax':
      return `${at(problem.line)}the ${format.toUpperCase()} cannot be read: ${cell(problem.message, 200).text}`
    case 'no-name-column':
      return `no column names the domain (found: ${problem.headers.map(quoted).join(', ') || 'none'}); the first line must be a header such as Domain;Preis;Mindestgebot;Währung`
    case 'two-columns':
      return `${at(problem.line)}two columns are the ${FIELD[problem.field]}: ${problem.headers.map(quoted).join(' and ')}`
    case 'no-rows':
      return 'the list has no rows'
    case 'no-name':
      return `${at(problem.line)}no domain name`
    case 'name':
      return `${at(problem.line)}${quoted(problem.value)} is not a domain name`
    case 'wildcard':
      return `${at(problem.line)}${quoted(problem.value)} is a wildcard; the import takes exact names (add wildcards to the domains file by hand)`
    case 'amount':
      return `${at(problem.line)}${FIELD[problem.field]} ${quoted(problem.value)} ${AMOUNT_REASON[problem.reason].replace('{currency}', problem.currency)}`
    case 'currency':
      return `${at(problem.line)}${quoted(problem.value)} is not a currency code such as EUR`
    case 'duplicate':
      return `${at(problem.line)}${problem.name} again (first on ${format === 'json' ? 'entry' : 'line'} ${problem.first}), ${problem.conflict ? 'with other terms' : 'with the same terms (warning)'}`
    case 'domains-file':
      return `DOMAINS_FILE: ${visible(problem.message)}`
    case 'changed':
      return 'DOMAINS_FILE changed meanwhile: run the import again'
    case 'write':
      return `DOMAINS_FILE cannot be written (it stays as it was): ${visible(problem.message)}`
    case 'refused':
      return `the server would not load DOMAINS_FILE after this import, so it stays as it was: ${visible(problem.message)}`
    case 'busy':
      return `DOMAINS_FILE stays as it was: ${visible(problem.message)}`
  }
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
const amountText = (value: number | null) => (value === null ? '-' : String(value))
const change = (before: number | string | null, after: number | string | null) =>
  before === after ? amountText(after as number | null) : `${before ?? '-'} -> ${after ?? '-'}`

function termsRow(kind: string, name: string, terms: Terms, before: Terms = terms) {
  return [
    kind,
    name,
    change(before.price, terms.price),
    change(before.minOffer, terms.minOffer),
    before.currency === terms.currency ? terms.currency : `${before.currency} -> ${terms.currency}`,
  ]
}

function printReport(report: ImportReport, file: string, dryRun: boolean, print: (text: string) => void) {
  const lines: string[] = []
  const columns = report.columns.map(({ field, header }) => `${quoted(header)} -> ${FIELD[field]}`).join(', ')
  const ignored = report.ignored.length ? `; ignored: ${report.ignored.map(quoted).join(', ')}` : ''
  const separator = report.separator ? `, separator "${report.separator}"` : ''
  lines.push(
    `Read ${report.rows} ${report.format === 'json' ? 'entries' : 'rows'} of ${visible(file)} (${report.format.toUpperCase()}${separator}): ${columns || 'no columns'}${ignored}`,
  )
  const { counts } = report
  if (report.problems.length) {
    lines.push(`Problems (${count(counts.errors, 'error')}, ${count(counts.warnings, 'warning')}):`)
    appendAll(
      lines,
      report.problems.map((problem) => `  ${describeProblem(problem, report.format)}`),
    )
  }
  const rows = [
    ...report.added.map(({ name, terms }) => termsRow('added', name, terms)),
    ...report.changed.map(({ name, before, after }) => termsRow('changed', name, after, before)),
    ...report.removed.map(({ name, terms }) => termsRow('removed', name, terms)),
  ]
  if (rows.length) lines.push(`Changes to ${visible(report.domainsFile)}:`, table(['Change', 'Domain', 'Price', 'Min. offer', 'Currency'], rows, 100))
  lines.push(`${counts.added} added, ${counts.changed} changed, ${counts.removed} removed, ${counts.unchanged} unchanged.`)
  if (counts.errors) lines.push(`Nothing written: ${count(counts.errors, 'error')}.`)
  else if (rows.length === 0) lines.push('Nothing to change.')
  else if (dryRun) lines.push('Dry run: nothing written.')
  else if (report.written) lines.push(`Written to ${visible(report.domainsFile)}; a running server reloads it by itself.`)
  print(lines.join('\n'))
}

const STEP_TEXT: Record<ImportStep, string> = {
  list: 'reading the list',
  lock: 'waiting for any other import writing the domains file',
  'domains-file': 'reading the domains file',
  rows: 'checking every row',
  merge: 'merging',
  check: 'validating the result',
  load: 'loading the result as the server would',
  write: 'writing the domains file',
}

/** On a terminal, what the import is doing (`show` writes to standard error): a 100,000-name YAML file takes seconds. */
function progress(show: (text: string) => void): (step: ImportStep) => void {
  let since = performance.now()
  return (step) => {
    const now = performance.now()
    show(`domain-lander: ${STEP_TEXT[step]} … (${((now - since) / 1000).toFixed(1)} s)`)
    since = now
  }
}

/**
 * Runs `import FILE`; the exit code (1 when the list has errors: then nothing is written). `showProgress` is given
 * when standard error is a terminal.
 */
export async function runImportCommand(
  args: string[],
  options: ImportOptions,
  config: Config,
  print: (text: string) => void,
  showProgress?: (text: string) => void,
): Promise<number> {
  const [file, ...rest] = args
  if (file === undefined || rest.length) throw new UsageError('import takes one file: import FILE [--format csv|json] [--dry-run] [--prune]')
  if (!config.domainsFile) throw new UsageError('import needs DOMAINS_FILE: the domains file it adds the names to')
  const format = options.format ?? (/\.json$/i.test(file) ? 'json' : 'csv')
  if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json')
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const dryRun = options['dry-run'] === true
  const job = {
    text,
    format: format as ImportFormat,
    domainsFile: config.domainsFile,
    prune: options.prune === true,
    write: !dryRun,
    memoryMiB: config.domainsFileMemoryMiB,
  }
  const report = await runImport(job, options.json || !showProgress ? undefined : progress(showProgress))
  if (options.json) print(jsonText(report))
  else printReport(report, file, dryRun, print)
  return report.problems.some((problem) => !isWarning(problem)) ? 1 : 0
}
