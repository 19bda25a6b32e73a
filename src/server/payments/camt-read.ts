// Reads a statement file in a worker thread of its own (camt-worker.ts), one file at a time per process: the parse
// of a large file (seconds of CPU and some 200 MiB) neither holds up the server's requests nor can grow its heap, and
// what is wrong with a file comes back as the same CamtError as before (decision 040).
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { CAMT_MAX_BYTES, CamtError, type CamtDocument, type CamtProblem } from './camt.ts'

const WORKER = fileURLToPath(import.meta.url.endsWith('.ts') ? new URL('./camt-worker.ts', import.meta.url) : new URL('../camt-worker.js', import.meta.url))
/** A 5 MB statement of 7,000 bookings needed about 110 MiB of heap; a hostile one ends the worker, not the server. */
const WORKER_HEAP_MIB = 256

type Reply = { document: CamtDocument } | { problem: CamtProblem } | { failure: string }

function readInWorker(input: Buffer | string): Promise<CamtDocument> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB } })
    let done = false
    worker.once('message', (reply: Reply) => {
      done = true
      if ('document' in reply) resolve(reply.document)
      else if ('problem' in reply) reject(new CamtError(reply.problem))
      else reject(new Error(`the statement could not be read: ${reply.failure}`))
      void worker.terminate()
    })
    worker.once('error', (error) => {
      done = true
      reject(new Error(`the statement could not be read: ${error.message}`))
    })
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`the statement reader exited with ${code} before answering`))
    })
  })
}

let previous: Promise<unknown> = Promise.resolve()

/** The statement in the file; throws CamtError for a file that is none. Files wait for each other, not in parallel. */
export function readStatement(input: Buffer | string): Promise<CamtDocument> {
  // Refused before a thread starts and the text is copied to it; parseCamt checks again.
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.length
  if (bytes > CAMT_MAX_BYTES) return Promise.reject(new CamtError({ code: 'too-large' }))
  const read = previous.then(() => readInWorker(input))
  previous = read.catch(() => undefined)
  return read
}
