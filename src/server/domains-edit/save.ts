// Writes edits of the console and of `domains set|add|remove`, and the edits other instances made, into this
// machine's domains file (decision 044). The store keeps every edit as one numbered row (its journal); each domains
// file remembers the last number it has taken in (`.NAME.edits` beside it). An edit is made under the import's lock
// (import/lock.ts): first the edits this file lacks are taken in (so a preview made before them is refused: 409),
// then the new edit is planned and checked, recorded as the next number (only one instance can get it: the other is
// refused, as if its file had changed), and only then is the file renamed into place. An instance that crashes
// between the record and the rename takes its own edit in like any other on its next round: applying one twice
// changes nothing.
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { isEditWarning, type DomainEdit, type DomainsEditReport, type ResolvedEdit } from '../../shared/domains-api.ts'
import { lockDomainsFile, LockBusy } from '../import/lock.ts'
import { commitReplacement, discardReplacement } from '../import/replace-file.ts'
import type { EditJob, EditResult } from './plan.ts'

/** The store's numbered edits (store/tables/domain-edits.ts), or null where there is no store (a CLI run before any server). */
export interface EditJournal {
  /** The edits after this number, oldest first. */
  after(version: number): Promise<{ version: number; edits: ResolvedEdit[] }[]>
  /** The highest number, 0 for none. */
  latest(): Promise<number>
  /** Records the edit as this number; false when another instance has it already. */
  record(version: number, edits: ResolvedEdit[]): Promise<boolean>
  /** Lets go of the edits before this number, which this file has taken in (as far as other instances allow). */
  prune(takenIn: number): Promise<number>
}

/** Plans an edit: in the CLI's own process, in a child process of the server (worker.ts). */
export type Planner = (job: EditJob) => Promise<EditResult>

export interface SaveOptions {
  domainsFile: string
  memoryMiB: number
  plan: Planner
  journal: EditJournal | null
  log?: Pick<FastifyBaseLogger, 'error' | 'info'>
  lockWaitMs?: number
}

/** The file beside the domains file that says which numbered edit it has taken in last. */
function appliedFileOf(file: string): string {
  const target = fs.existsSync(file) ? fs.realpathSync(file) : path.resolve(file)
  return path.join(path.dirname(target), `.${path.basename(target)}.edits`)
}

export function readApplied(file: string): number {
  try {
    const value = Number.parseInt(fs.readFileSync(appliedFileOf(file), 'utf8'), 10)
    return Number.isSafeInteger(value) && value > 0 ? value : 0
  } catch {
    // None yet: the file has taken in no edit, and takes in every one the store has.
    return 0
  }
}

function writeApplied(file: string, version: number): void {
  const target = appliedFileOf(file)
  const temp = `${target}.${process.pid}.tmp`
  fs.writeFileSync(temp, `${version}\n`, { mode: 0o644 })
  fs.renameSync(temp, target)
}

/**
 * Takes in the edits of the journal this file lacks, oldest first; under the lock. Returns how many changed the file.
 * An edit the file cannot take (the server would refuse the result) is logged and passed over, so that one bad edit
 * does not stop all later ones; one that cannot be written (a full disk) is tried again on the next round.
 */
async function takeIn(options: SaveOptions & { journal: EditJournal }): Promise<number> {
  const { domainsFile, journal, log } = options
  const applied = readApplied(domainsFile)
  const pending = await journal.after(applied)
  if (pending.length === 0) {
    // A store made anew (or another one): its numbers start again.
    if (applied > 0 && (await journal.latest()) < applied) writeApplied(domainsFile, await journal.latest())
    return 0
  }
  if (pending[0]!.version > applied + 1) {
    // Pruned before this file took them in (an instance off for longer than the journal keeps edits, or a new one).
    log?.error(
      { from: applied + 1, to: pending[0]!.version - 1 },
      "edits of the domains file are no longer in the store; this file takes in the later ones: compare it with another instance's",
    )
  }
  let changed = 0
  for (const { version, edits } of pending) {
    const { report, replacement } = await options.plan({ domainsFile, edits, mode: 'prepare', memoryMiB: options.memoryMiB, lenient: true })
    const failure = report.problems.find((problem) => !isEditWarning(problem))
    if (failure?.kind === 'write' || failure?.kind === 'busy') throw new Error(`domains file edit ${version} not written: ${failure.message}`)
    if (replacement) {
      commitReplacement(replacement)
      changed++
    } else if (failure) {
      log?.error(
        { version, problem: failure.kind, message: 'message' in failure ? failure.message : undefined },
        'an edit of the domains file made on another instance cannot be made here; passed over',
      )
    }
    writeApplied(domainsFile, version)
  }
  await pruneJournal(options)
  return changed
}

/** The journal's rows are only there to be taken in: once this file has them they may go (sync.ts says when). */
async function pruneJournal(options: SaveOptions & { journal: EditJournal }): Promise<void> {
  try {
    await options.journal.prune(readApplied(options.domainsFile))
  } catch (error) {
    // Only space: the next edit tries again.
    options.log?.error({ err: error }, 'could not prune the journal of domains file edits')
  }
}

/** Takes in what other instances edited, if anything: for the sync's rounds (sync.ts). Returns how many changed the file. */
export async function catchUp(options: SaveOptions & { journal: EditJournal }): Promise<number> {
  // Without the lock first: nearly every round finds nothing, and must not wait for an import.
  if ((await options.journal.after(readApplied(options.domainsFile))).length === 0) return 0
  let unlock: () => void
  try {
    unlock = await lockDomainsFile(options.domainsFile, options.lockWaitMs ?? 0)
  } catch (error) {
    // An import or an edit holds it: the next round.
    if (error instanceof LockBusy) return 0
    throw error
  }
  try {
    return await takeIn(options)
  } finally {
    unlock()
  }
}

/** Plans and writes edits (the console's "Speichern", `domains set` without --dry-run). */
export async function saveDomainEdits(options: SaveOptions, edits: readonly DomainEdit[], fingerprint?: string): Promise<DomainsEditReport> {
  const { domainsFile, journal } = options
  let unlock: () => void
  try {
    unlock = await lockDomainsFile(domainsFile, options.lockWaitMs)
  } catch (error) {
    const problem =
      error instanceof LockBusy ? ({ kind: 'busy', message: error.message } as const) : ({ kind: 'write', message: (error as Error).message } as const)
    return { domainsFile, fingerprint: '', changes: [], problems: [problem], resolved: [], written: false }
  }
  try {
    if (journal) await takeIn({ ...options, journal })
    const { report, replacement } = await options.plan({
      domainsFile,
      edits,
      mode: 'prepare',
      memoryMiB: options.memoryMiB,
      ...(fingerprint !== undefined && { fingerprint }),
    })
    if (!replacement) return report
    if (journal) {
      const version = readApplied(domainsFile) + 1
      let recorded: boolean
      try {
        recorded = await journal.record(version, report.resolved)
      } catch (error) {
        discardReplacement(replacement)
        throw error
      }
      if (!recorded) {
        // Another instance recorded an edit first: its edit goes first everywhere, this one is seen again and resent.
        discardReplacement(replacement)
        report.problems.push({ kind: 'changed' })
        return report
      }
      commitReplacement(replacement)
      writeApplied(domainsFile, version)
      await pruneJournal({ ...options, journal })
    } else {
      commitReplacement(replacement)
    }
    return { ...report, written: true }
  } catch (error) {
    return { domainsFile, fingerprint: '', changes: [], problems: [{ kind: 'write', message: (error as Error).message }], resolved: [], written: false }
  } finally {
    unlock()
  }
}
