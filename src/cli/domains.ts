// `domains set NAME key=value…`, `domains add NAME [key=value…]`, `domains remove NAME`, each with --dry-run: the
// console's page "Domains" on the command line, with the same editor (server/domains-edit/), lock and checks. With a
// store the edit is recorded there too, so that every instance takes it in (decision 044). docs/cli.md#domains.
import type { Config } from '../server/config.ts'
import { fieldChangesSchema } from '../server/domains-edit/edits.ts'
import { planDomainEdits } from '../server/domains-edit/plan.ts'
import { saveDomainEdits, type EditJournal } from '../server/domains-edit/save.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import {
  EDITABLE_FIELDS,
  isEditWarning,
  type DomainEdit,
  type DomainEditProblem,
  type DomainsEditReport,
  type EditableField,
  type EntryFields,
  type FieldChanges,
} from '../shared/domains-api.ts'
import { cell } from './format.ts'
import { UsageError } from './usage-error.ts'

interface DomainsOptions {
  'dry-run'?: boolean | undefined
  json?: boolean | undefined
}

const USAGE = 'domains set NAME key=value… | domains add NAME [key=value…] | domains remove NAME, each with [--dry-run]'
const KEYS = EDITABLE_FIELDS.join(', ')
const WHOLE = new Set<EditableField>(['price', 'minOffer'])

/** `price=5900 status=reserved listed=false description="…"`; an empty value (`price=`) removes the key. */
function changesFrom(pairs: string[]): FieldChanges {
  const changes: Record<string, unknown> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at < 1) throw new UsageError(`"${pair}" is not key=value (keys: ${KEYS})`)
    const key = pair.slice(0, at)
    const value = pair.slice(at + 1)
    if (!(EDITABLE_FIELDS as readonly string[]).includes(key)) throw new UsageError(`unknown key "${key}" (keys: ${KEYS})`)
    if (key in changes) throw new UsageError(`${key} is given twice`)
    if (value === '') changes[key] = null
    else if (WHOLE.has(key as EditableField)) {
      if (!/^\d+$/.test(value)) throw new UsageError(`${key} takes a whole amount such as 5900, not "${value}"`)
      changes[key] = Number(value)
    } else if (key === 'listed') {
      if (value !== 'true' && value !== 'false') throw new UsageError(`listed is true or false, not "${value}"`)
      changes[key] = value === 'true'
    } else changes[key] = value
  }
  const parsed = fieldChangesSchema.safeParse(changes)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new UsageError(`${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}

function describeProblem(problem: DomainEditProblem): string {
  switch (problem.kind) {
    case 'name':
      return `"${cell(problem.value, 80).text}" is not a domain name`
    case 'wildcard':
      return `"${cell(problem.value, 80).text}" is a wildcard; edit wildcards in the domains file itself`
    case 'unknown':
      return `${problem.name} is not in DOMAINS_FILE`
    case 'exists':
      return `${problem.name} is in DOMAINS_FILE already (domains set changes it)`
    case 'twice':
      return `${problem.name} is edited twice`
    case 'no-price':
      return `${problem.name} has no price of its own; left as it is (warning)`
    case 'domains-file':
      return `DOMAINS_FILE: ${visible(problem.message)}`
    case 'changed':
      return 'DOMAINS_FILE changed meanwhile (here or on another instance): run the command again'
    case 'write':
      return `DOMAINS_FILE cannot be written (it stays as it was): ${visible(problem.message)}`
    case 'refused':
      return `the server would not load DOMAINS_FILE after this edit, so it stays as it was: ${visible(problem.message)}`
    case 'busy':
      return `DOMAINS_FILE stays as it was: ${visible(problem.message)}`
  }
}

const valueText = (value: EntryFields[EditableField]) => (value === null ? '-' : typeof value === 'string' ? `"${cell(value, 60).text}"` : String(value))

function printReport(report: DomainsEditReport, dryRun: boolean, print: (text: string) => void) {
  const lines: string[] = []
  for (const problem of report.problems) lines.push(describeProblem(problem))
  for (const change of report.changes) {
    const fields = EDITABLE_FIELDS.filter((field) => (change.before?.[field] ?? null) !== (change.after?.[field] ?? null))
    const what = fields.map((field) =>
      change.kind === 'changed'
        ? `${field} ${valueText(change.before![field])} -> ${valueText(change.after![field])}`
        : `${field} ${valueText((change.after ?? change.before)![field])}`,
    )
    lines.push(`${change.kind} ${change.name}${what.length ? `: ${what.join(', ')}` : ''}`)
  }
  const errors = report.problems.some((problem) => !isEditWarning(problem))
  if (errors) lines.push('Nothing written.')
  else if (report.changes.length === 0) lines.push('Nothing to change.')
  else if (dryRun) lines.push('Dry run: nothing written.')
  else if (report.written)
    lines.push(`Written to ${visible(report.domainsFile)}; a running server reloads it by itself, other instances take it in within seconds.`)
  print(lines.join('\n'))
}

/** Runs `domains …`; the exit code (1 when the edit has errors: then nothing is written). */
export async function runDomainsCommand(
  args: string[],
  options: DomainsOptions,
  config: Config,
  journal: EditJournal | null,
  print: (text: string) => void,
): Promise<number> {
  const [step, name, ...pairs] = args
  if (!config.domainsFile) throw new UsageError('domains needs DOMAINS_FILE: the domains file it edits')
  if (name === undefined) throw new UsageError(`domains takes a step and a name: ${USAGE}`)
  let edit: DomainEdit
  if (step === 'set') {
    if (pairs.length === 0) throw new UsageError(`domains set needs at least one key=value (keys: ${KEYS})`)
    edit = { op: 'set', name, changes: changesFrom(pairs) }
  } else if (step === 'add') edit = { op: 'add', name, changes: changesFrom(pairs) }
  else if (step === 'remove') {
    if (pairs.length) throw new UsageError('domains remove takes only the name')
    edit = { op: 'remove', name }
  } else throw new UsageError(`domains takes set, add or remove${step ? `, not "${step}"` : ''}: ${USAGE}`)
  const dryRun = options['dry-run'] === true
  const job = { domainsFile: config.domainsFile, memoryMiB: config.domainsFileMemoryMiB }
  const report = dryRun
    ? (await planDomainEdits({ ...job, edits: [edit], mode: 'preview' })).report
    : await saveDomainEdits({ ...job, plan: planDomainEdits, journal }, [edit])
  if (options.json) print(jsonText(report))
  else printReport(report, dryRun, print)
  return report.problems.some((problem) => !isEditWarning(problem)) ? 1 : 0
}
