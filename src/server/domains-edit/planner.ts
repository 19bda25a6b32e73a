// The planner the server uses (save.ts's Planner). A large domains file is read, edited and checked in a child
// process (worker.ts), so that it never weighs on the server's 128 MiB heap or holds up its requests; a small one in
// the server itself, which spares the child's start (about a second of CPU from the sources): the edit of a file this
// size takes milliseconds there (decision 044).
import fs from 'node:fs'
import { forkTask } from '../import/fork-task.ts'
import type { EditJob, EditResult } from './plan.ts'

const WORKER = 'src/server/domains-edit/worker.ts'
/** An edit reads, edits and checks the whole file, as an import does without the list: the import's room. */
const HEAP_MIB = 1024
const TIMEOUT_MS = 2 * 60_000
/** Up to this size (some 5,000 names) the server plans the edit itself. */
const IN_PROCESS_MAX_BYTES = 256 * 1024

const sizeOf = (file: string) => {
  try {
    return fs.statSync(file).size
  } catch {
    return 0
  }
}

export async function planEdit(job: EditJob): Promise<EditResult> {
  if (sizeOf(job.domainsFile) > IN_PROCESS_MAX_BYTES) return forkTask<EditJob, EditResult>(WORKER, job, { heapMiB: HEAP_MIB, timeoutMs: TIMEOUT_MS })
  // Loaded with the first edit, not with every start of the server: the editor brings both YAML libraries (decision 034).
  const { planDomainEdits } = await import('./plan.ts')
  return planDomainEdits(job)
}
