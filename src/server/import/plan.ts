// The portfolio import from start to end, for the CLI (in its own process) and the console (in a child process,
// worker.ts): read the list, read the domains file, check every row, merge, validate the whole result with the
// domains file's schema and load it as the server would (load-check.ts), and only then, without any error and not as
// a dry run, replace the file atomically. A writing import holds the domains file's lock (lock.ts) from reading the
// file to the rename, so that two imports in two processes cannot both write what they read (decision 029).
// A running server reloads the file by itself (it watches it).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { appendAll } from '../../shared/arrays.ts'
import { isWarning, type ImportFormat, type ImportProblem, type ImportReport } from '../../shared/import-api.ts'
import { domainsFileSchema } from '../sites/settings.ts'
import { domainsText, DomainsTextError, type DomainsText } from './domains-text.ts'
import { checkLoads, checkLoadsAsText, checkSize, Refused } from './load-check.ts'
import { lockDomainsFile, LockBusy } from './lock.ts'
import { mergeInto, type ImportDiff } from './merge.ts'
import { replaceFile } from './replace-file.ts'
import { checkRows } from './rows.ts'
import { readSource } from './source.ts'

export interface ImportJob {
  /** The list (a registrar's export) as text. */
  text: string
  format: ImportFormat
  domainsFile: string
  prune: boolean
  /** Write the file (without errors); false: a dry run. */
  write: boolean
  /** Refuse when the domains file is no longer the one the preview had (its ImportReport.fingerprint). */
  fingerprint?: string
  /** Cut each list of the report to this many entries (the console shows the first, with the counts). */
  listMax?: number
  /** DOMAINS_FILE_MEMORY_MIB: the heap the server's load of the result may use. */
  memoryMiB: number
  /** How long to wait for another import writing the file (lock.ts's LOCK_WAIT_MS unless given). */
  lockWaitMs?: number
}

/** What the import is doing, for progress on a terminal. */
export type ImportStep = 'list' | 'lock' | 'domains-file' | 'rows' | 'merge' | 'check' | 'load' | 'write'

/** Issues of the result named by their path; a file with thousands of them is wrong as a whole, the first say why. */
const SCHEMA_ISSUES_SHOWN = 20

function readCurrent(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (error) {
    // The first import may make the file.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw new DomainsTextError((error as Error).message)
  }
}

export async function runImport(job: ImportJob, onStep: (step: ImportStep) => void = () => {}): Promise<ImportReport> {
  onStep('list')
  const source = readSource(job.text, job.format)
  const problems: ImportProblem[] = [...source.problems]
  let diff: ImportDiff = { added: [], changed: [], removed: [], unchanged: 0 }
  let fingerprint = ''
  let written = false
  const report = (): ImportReport => {
    const errors = problems.filter((problem) => !isWarning(problem)).length
    const cut = <T>(list: T[]) => (job.listMax === undefined ? list : list.slice(0, job.listMax))
    return {
      format: source.format,
      separator: source.separator,
      columns: source.columns,
      ignored: source.ignored,
      rows: source.rows.length,
      domainsFile: job.domainsFile,
      fingerprint,
      problems: cut(problems),
      added: cut(diff.added),
      changed: cut(diff.changed),
      removed: cut(diff.removed),
      counts: {
        errors,
        warnings: problems.length - errors,
        added: diff.added.length,
        changed: diff.changed.length,
        removed: diff.removed.length,
        unchanged: diff.unchanged,
      },
      written,
    }
  }

  let unlock = () => {}
  if (job.write) {
    onStep('lock')
    try {
      unlock = await lockDomainsFile(job.domainsFile, job.lockWaitMs)
    } catch (error) {
      problems.push(error instanceof LockBusy ? { kind: 'busy', message: error.message } : { kind: 'write', message: (error as Error).message })
      return report()
    }
  }
  try {
    await plan()
  } finally {
    unlock()
  }
  return report()

  async function plan(): Promise<void> {
    onStep('domains-file')
    let file: DomainsText
    try {
      const current = readCurrent(job.domainsFile)
      fingerprint = current === '' ? '' : createHash('sha256').update(current).digest('hex')
      // Under the lock: no other import can write between this check and the rename below.
      if (job.fingerprint !== undefined && job.fingerprint !== fingerprint) {
        problems.push({ kind: 'changed' })
        return
      }
      file = domainsText(job.domainsFile, current)
    } catch (error) {
      if (!(error instanceof DomainsTextError)) throw error
      problems.push({ kind: 'domains-file', message: error.message })
      return
    }

    onStep('rows')
    const rows = checkRows(source, (ascii) => {
      const currency = file.entries.get(ascii)?.currency
      return typeof currency === 'string' ? currency : file.defaultCurrency
    })
    appendAll(problems, rows.problems)
    onStep('merge')
    diff = mergeInto(file, rows.domains, job.prune)
    const changes = diff.added.length + diff.changed.length + diff.removed.length
    if (changes === 0 || problems.some((problem) => !isWarning(problem))) return

    onStep('check')
    const result = domainsFileSchema.safeParse(file.value())
    if (!result.success) {
      const issues = result.error.issues.slice(0, SCHEMA_ISSUES_SHOWN)
      appendAll(
        problems,
        issues.map((issue) => ({ kind: 'domains-file' as const, message: `${issue.path.join('.') || '(top level)'}: ${issue.message}` })),
      )
      return
    }
    const text = file.text()
    try {
      // What the server would refuse is refused here, with its reason, and never written (a dry run too).
      checkSize(job.domainsFile, text)
      if (!job.write) {
        onStep('load')
        await checkLoadsAsText(text, job.domainsFile, job.memoryMiB)
        return
      }
      onStep('write')
      await replaceFile(job.domainsFile, text, async (temp) => {
        onStep('load')
        await checkLoads(temp, job.domainsFile, job.memoryMiB)
      })
      written = true
    } catch (error) {
      problems.push(error instanceof Refused ? { kind: 'refused', message: error.message } : { kind: 'write', message: (error as Error).message })
    }
  }
}
