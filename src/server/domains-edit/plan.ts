// Edits of single names (the console's page "Domains", `npx domain-lander domains set|add|remove`) planned on the
// domains file with the import's editor (import/domains-text.ts: the lines of the names edited and no other), checked
// as the import checks (the schema, then the server's own loader) and, when asked, written to a temporary file beside
// the target that save.ts renames once the edit is recorded. Runs in the CLI's process, or in a child process of the
// server (worker.ts): a 100,000-name YAML file takes more heap than the server has. docs/decisions/044.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { appendAll } from '../../shared/arrays.ts'
import {
  EDITABLE_FIELDS,
  isEditWarning,
  type DomainDiff,
  type DomainEdit,
  type DomainEditProblem,
  type DomainsEditReport,
  type EntryFields,
  type FieldChanges,
  type ResolvedEdit,
} from '../../shared/domains-api.ts'
import { domainsText, DomainsTextError, type DomainsText, type TermChanges } from '../import/domains-text.ts'
import { checkLoads, checkLoadsAsText, checkSize, Refused } from '../import/load-check.ts'
import { prepareReplacement, type Replacement } from '../import/replace-file.ts'
import { displayHost } from '../sites/host.ts'
import { domainKey, domainsFileSchema, sellableName } from '../sites/settings.ts'

export interface EditJob {
  domainsFile: string
  edits: readonly (DomainEdit | ResolvedEdit)[]
  /** Refuse when the file is no longer the one the preview read (its report's fingerprint). */
  fingerprint?: string
  /** 'preview': nothing is written (the result is loaded from a private copy); 'prepare': a checked temporary file. */
  mode: 'preview' | 'prepare'
  /** DOMAINS_FILE_MEMORY_MIB. */
  memoryMiB: number
  /**
   * An edit passed on by another instance (sync.ts): a name this file lacks is not set or removed, a name it has is
   * not added again but set. Applying it twice changes nothing.
   */
  lenient?: boolean
}

export interface EditResult {
  report: DomainsEditReport
  /** With mode 'prepare' and something to change: the checked file, not yet in place. */
  replacement?: Replacement
}

const SCHEMA_ISSUES_SHOWN = 20

/** An entry's editable keys as its own settings give them (a value of the wrong type counts as none; the schema names it). */
function fieldsOf(entry: Readonly<Record<string, unknown>>): EntryFields {
  const fields = {} as EntryFields
  for (const field of EDITABLE_FIELDS) {
    const value = entry[field]
    fields[field] = typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : null
  }
  return fields
}

/**
 * A price changed by a percentage, in whole units, rounded half up; exact in integers (the percentage in hundredths),
 * as money is never a float here.
 */
export function scaledPrice(price: number, percent: number): number {
  const basis = 10_000 + Math.round(percent * 100)
  const product = price * basis
  return Math.max(0, (product + 5_000 - ((product + 5_000) % 10_000)) / 10_000)
}

function readCurrent(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    // "Domains-Datei anlegen" and a first `domains add` make the file.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw new DomainsTextError((error as Error).message)
  }
}

type Planned = { op: 'set' | 'add'; name: string; changes: FieldChanges } | { op: 'remove'; name: string }

export async function planDomainEdits(job: EditJob): Promise<EditResult> {
  const problems: DomainEditProblem[] = []
  const changes: DomainDiff[] = []
  const resolved: ResolvedEdit[] = []
  let fingerprint = ''
  const report = (written = false): DomainsEditReport => ({ domainsFile: job.domainsFile, fingerprint, changes, problems, resolved, written })

  let file: DomainsText
  try {
    const current = readCurrent(job.domainsFile)
    fingerprint = current === '' ? '' : createHash('sha256').update(current).digest('hex')
    if (job.fingerprint !== undefined && job.fingerprint !== fingerprint) {
      problems.push({ kind: 'changed' })
      return { report: report() }
    }
    file = domainsText(job.domainsFile, current)
  } catch (error) {
    if (!(error instanceof DomainsTextError)) throw error
    problems.push({ kind: 'domains-file', message: error.message })
    return { report: report() }
  }

  // Every edit by its name first, so that several edits of one name (a price in %, a status) are one change.
  const planned = new Map<string, Planned>()
  const exact = (value: string, op: DomainEdit['op']): string | null => {
    const checked = sellableName(value.trim())
    if ('ascii' in checked) return checked.ascii
    // A name the file got by hand before the editor refused it (localhost, an address) can still be taken out.
    const written = domainKey(value.trim().replace(/\.$/, ''))
    if (op === 'remove' && checked.problem === 'name' && written !== null && file.entries.has(written)) return written
    problems.push({ kind: checked.problem, value })
    return null
  }
  const set = (ascii: string, more: FieldChanges) => {
    const before = planned.get(ascii)
    if (before && before.op === 'remove') {
      problems.push({ kind: 'twice', name: displayHost(ascii) })
      return
    }
    planned.set(ascii, before ? { ...before, changes: { ...before.changes, ...more } } : { op: 'set', name: ascii, changes: more })
  }
  for (const edit of job.edits) {
    if (edit.op === 'scale') {
      for (const value of edit.names) {
        const ascii = exact(value, edit.op)
        if (ascii === null) continue
        if (!file.entries.has(ascii)) {
          if (!job.lenient) problems.push({ kind: 'unknown', name: displayHost(ascii) })
          continue
        }
        const pending = planned.get(ascii)
        const price = pending && pending.op !== 'remove' && pending.changes.price !== undefined ? pending.changes.price : file.entryOf(ascii).price
        if (typeof price !== 'number') problems.push({ kind: 'no-price', name: displayHost(ascii) })
        else set(ascii, { price: scaledPrice(price, edit.percent) })
      }
      continue
    }
    const ascii = exact(edit.name, edit.op)
    if (ascii === null) continue
    const has = file.entries.has(ascii)
    if (edit.op === 'add') {
      if (planned.has(ascii)) problems.push({ kind: 'twice', name: displayHost(ascii) })
      else if (!has) planned.set(ascii, { op: 'add', name: ascii, changes: edit.changes })
      else if (job.lenient) set(ascii, edit.changes)
      else problems.push({ kind: 'exists', name: displayHost(ascii) })
    } else if (!has) {
      if (edit.op === 'set' && planned.get(ascii)?.op === 'add') set(ascii, edit.changes)
      else if (!job.lenient) problems.push({ kind: 'unknown', name: displayHost(ascii) })
    } else if (edit.op === 'remove') {
      if (planned.has(ascii)) problems.push({ kind: 'twice', name: displayHost(ascii) })
      else planned.set(ascii, { op: 'remove', name: ascii })
    } else set(ascii, edit.changes)
  }

  for (const [ascii, edit] of planned) {
    const name = displayHost(ascii)
    if (edit.op === 'remove') {
      changes.push({ name, kind: 'removed', before: fieldsOf(file.entryOf(ascii)), after: null })
      resolved.push({ op: 'remove', name: ascii })
      file.remove(ascii)
      continue
    }
    const given = Object.fromEntries(Object.entries(edit.changes).filter(([, value]) => value !== undefined)) as TermChanges
    if (edit.op === 'add') {
      const after = fieldsOf(given)
      changes.push({ name, kind: 'added', before: null, after })
      resolved.push({ op: 'add', name: ascii, changes: edit.changes })
      // Written as people read it, as the import writes new names.
      file.add(name, given)
      continue
    }
    const own = file.entryOf(ascii)
    // Only what differs: an edit that sets what the file has changes nothing (and writes nothing).
    const differing: TermChanges = {}
    for (const [key, value] of Object.entries(given)) {
      const old = own[key]
      if (value === null ? old !== undefined : old !== value) differing[key as keyof TermChanges] = value
    }
    if (Object.keys(differing).length === 0) continue
    const before = fieldsOf(own)
    const after = { ...before }
    for (const [key, value] of Object.entries(differing)) after[key as keyof EntryFields] = value ?? null
    changes.push({ name, kind: 'changed', before, after })
    resolved.push({ op: 'set', name: ascii, changes: differing as FieldChanges })
    file.change(ascii, differing)
  }
  if (changes.length === 0 || problems.some((problem) => !isEditWarning(problem))) return { report: report() }

  const result = domainsFileSchema.safeParse(file.value())
  if (!result.success) {
    appendAll(
      problems,
      result.error.issues
        .slice(0, SCHEMA_ISSUES_SHOWN)
        .map((issue) => ({ kind: 'domains-file' as const, message: `${issue.path.join('.') || '(top level)'}: ${issue.message}` })),
    )
    return { report: report() }
  }
  const text = file.text()
  try {
    checkSize(job.domainsFile, text)
    if (job.mode === 'preview') {
      await checkLoadsAsText(text, job.domainsFile, job.memoryMiB)
      return { report: report() }
    }
    const replacement = await prepareReplacement(job.domainsFile, text, (temp) => checkLoads(temp, job.domainsFile, job.memoryMiB))
    return { report: report(), replacement }
  } catch (error) {
    problems.push(error instanceof Refused ? { kind: 'refused', message: error.message } : { kind: 'write', message: (error as Error).message })
    return { report: report() }
  }
}
