// The console's import runs here, in a process of its own that the server forks for each preview and "Übernehmen"
// (src/server/admin/import/child.ts, through fork-task.ts): a 100,000-name YAML file takes seconds and hundreds of
// MiB, which must not stop the server's requests or stay in its heap. It runs from the sources, as the CLI does
// (decision 008).
import { answerTask } from './fork-task.ts'
import { runImport } from './plan.ts'

answerTask(runImport)
