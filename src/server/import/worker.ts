// The console's import runs here, in a process of its own that the server forks for each preview and "Übernehmen"
// (src/server/admin/import/child.ts): a 100,000-name YAML file takes seconds and hundreds of MiB, which must not
// stop the server's requests or stay in its heap. It runs from the sources, as the CLI does (decision 008).
import type { ImportReport } from '../../shared/import-api.ts'
import { runImport, type ImportJob } from './plan.ts'

export type WorkerReply = { report: ImportReport } | { failure: string }

process.once('message', async (job: ImportJob) => {
  let reply: WorkerReply
  try {
    reply = { report: await runImport(job) }
  } catch (error) {
    reply = { failure: (error as Error).message }
  }
  process.send!(reply, () => process.disconnect())
})
