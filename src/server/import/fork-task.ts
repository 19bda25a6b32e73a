// Runs one job of the domains file's editors in a child process from the sources (as the CLI runs, decision 008):
// the console's import (import/worker.ts) and the edits of single names (domains-edit/worker.ts). A 100,000-name
// YAML file takes seconds and hundreds of MiB, which the server's requests must neither wait for nor keep; a worker
// thread would not do: the server's --max-old-space-size=128 caps every thread's heap, and memory a thread used stays
// with the process.
import { fork } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

type TaskReply<R> = { result: R } | { failure: string }

/** The worker runs from the sources: found upwards from here, in src/ as in dist/server. */
function sourceFile(worker: string): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, worker)
    if (fs.existsSync(file)) return file
    if (path.dirname(dir) === dir) throw new Error(`${worker} not found: the domains file's editors run from the sources, as the CLI does`)
  }
}

/** `worker` is a path from the project's root (src/server/…/worker.ts); the job goes to it as the one message. */
export function forkTask<J, R>(worker: string, job: J, { heapMiB, timeoutMs }: { heapMiB: number; timeoutMs: number }): Promise<R> {
  return new Promise((resolve, reject) => {
    // No environment: the editors need none of the server's settings or secrets, only the job.
    const child = fork(sourceFile(worker), [], {
      execArgv: [`--max-old-space-size=${heapMiB}`],
      env: {},
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk
    })
    let reply: TaskReply<R> | undefined
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('message', (message) => (reply = message as TaskReply<R>))
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (reply && 'result' in reply) resolve(reply.result)
      else reject(new Error(reply ? `failed: ${reply.failure}` : `the process ended (${signal ?? code}) without an answer: ${stderr.trim()}`))
    })
    child.send(job as Parameters<typeof child.send>[0])
  })
}

/** The worker's side: answers the one job with `run`'s result, then lets the process end. */
export function answerTask<J, R>(run: (job: J) => Promise<R>): void {
  process.once('message', async (job: J) => {
    let reply: TaskReply<R>
    try {
      reply = { result: await run(job) }
    } catch (error) {
      reply = { failure: (error as Error).message }
    }
    process.send!(reply, () => process.disconnect())
  })
}
