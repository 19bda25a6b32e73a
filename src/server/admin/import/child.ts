// Runs the console's import in a child process (src/server/import/worker.ts), one at a time per server process: a
// 100,000-name YAML file takes seconds and some 600 MiB (docs/decisions/027), which the server's requests must
// neither wait for nor keep. A worker thread would not do: the server's --max-old-space-size=128 caps every thread's
// heap, and memory a thread used stays with the process.
import { fork } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ImportReport } from '../../../shared/import-api.ts'
import { HttpError } from '../../http/errors.ts'
import type { ImportJob } from '../../import/plan.ts'
import type { WorkerReply } from '../../import/worker.ts'

const WORKER = path.join('src', 'server', 'import', 'worker.ts')
/** Room for twice the 100,000 names measured. */
const HEAP_MB = 1024
const TIMEOUT_MS = 5 * 60_000

/** The worker runs from the sources, as the CLI does: found upwards from here, in src/ as in dist/server. */
function workerFile(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, WORKER)
    if (fs.existsSync(file)) return file
    if (path.dirname(dir) === dir) throw new Error(`${WORKER} not found: the console's import runs from the sources, as the CLI does`)
  }
}

function inChild(job: ImportJob): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    // No environment: the import needs none of the server's settings or secrets, only the job.
    const child = fork(workerFile(), [], { execArgv: [`--max-old-space-size=${HEAP_MB}`], env: {}, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk
    })
    let reply: WorkerReply | undefined
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS)
    child.once('message', (message) => (reply = message as WorkerReply))
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (reply && 'report' in reply) resolve(reply.report)
      else reject(new Error(reply ? `import failed: ${reply.failure}` : `the import process ended (${signal ?? code}) without a report: ${stderr.trim()}`))
    })
    child.send(job)
  })
}

/** Runs one import at a time; another one meanwhile is refused (409), not queued behind a long one. */
export function createImportRunner(): (job: ImportJob) => Promise<ImportReport> {
  let running = false
  return async (job) => {
    if (running) throw new HttpError(409, 'Es läuft schon ein Import. Bitte warten, bis er fertig ist.')
    running = true
    try {
      return await inChild(job)
    } finally {
      running = false
    }
  }
}
