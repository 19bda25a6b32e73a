// Runs the console's import in a child process (src/server/import/worker.ts), one at a time per server process: a
// 100,000-name YAML file takes seconds and some 600 MiB (docs/decisions/027), which the server's requests must
// neither wait for nor keep. A worker thread would not do: the server's --max-old-space-size=128 caps every thread's
// heap, and memory a thread used stays with the process.
import type { ImportReport } from '../../../shared/import-api.ts'
import { HttpError } from '../../http/errors.ts'
import { forkTask } from '../../import/fork-task.ts'
import type { ImportJob } from '../../import/plan.ts'
import { CONSOLE_TEXT } from '../texts.ts'

const WORKER = 'src/server/import/worker.ts'
/** Room for twice the 100,000 names measured. */
const HEAP_MB = 1024
const TIMEOUT_MS = 5 * 60_000

const inChild = (job: ImportJob) =>
  forkTask<ImportJob, ImportReport>(WORKER, job, { heapMiB: HEAP_MB, timeoutMs: TIMEOUT_MS }).catch((error: unknown) => {
    throw new Error(`import ${(error as Error).message}`)
  })

/** Runs one import at a time; another one meanwhile is refused (409), not queued behind a long one. */
export function createImportRunner(): (job: ImportJob) => Promise<ImportReport> {
  let running = false
  return async (job) => {
    if (running) throw new HttpError(409, CONSOLE_TEXT.import.running)
    running = true
    try {
      return await inChild(job)
    } finally {
      running = false
    }
  }
}
