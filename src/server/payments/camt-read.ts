// Reads a statement file and matches it in a worker thread of its own (camt-worker.ts), one file at a time per
// process: the parse of a large file (seconds of CPU and some 200 MiB) neither holds up the server's requests nor can
// grow its heap, and what is wrong with a file comes back as the same CamtError as before (decision 040). The server's
// thread only answers the worker's two questions from the store (what can be paid, which bookings are recorded) and
// gets back what it sends on: for a preview its JSON text, so that neither the parsed file nor the answer is copied
// or serialised there (about 85 ms per 5 MB file, which GET / waited for).
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { CAMT_MAX_BYTES, CamtError, type CamtProblem } from './camt.ts'
import type { MatchResult, PaymentTarget } from './match.ts'

const WORKER = fileURLToPath(import.meta.url.endsWith('.ts') ? new URL('./camt-worker.ts', import.meta.url) : new URL('../camt-worker.js', import.meta.url))
/** A 5 MB statement of 7,000 bookings needed about 110 MiB of heap; a hostile one ends the worker, not the server. */
const WORKER_HEAP_MIB = 256

/** What the worker is given: the file, and whether the caller wants the preview's JSON or the whole result. */
export interface WorkerInput {
  input: Buffer | string
  answer: 'preview-json' | 'result'
}

/** The worker's messages: the keys of the file's bookings (one string, lines), then its answer; or what went wrong. */
export type WorkerMessage = { keys: string } | { json: string } | { result: MatchResult } | { problem: CamtProblem } | { failure: string }

/** The store's part, asked once the file has been read (so what is recorded is as fresh as the file's reading). */
export interface WorkerLookups {
  targets(): Promise<ReadonlyMap<string, PaymentTarget>>
  recorded(keys: string[]): Promise<ReadonlyMap<string, number | null>>
}

/** The worker's answer to the lookups, sent back to it: both as Maps (structured clone keeps them). */
export interface WorkerLookupAnswer {
  targets: ReadonlyMap<string, PaymentTarget>
  recorded: ReadonlyMap<string, number | null>
}

/** `handOver`: the caller gives its Buffer away (a request's body): moved to the worker, not copied, and empty here after. */
export interface ReadOptions {
  handOver?: boolean
}

/** The input's memory when it can be moved to the worker: a Buffer that is all of its own ArrayBuffer (no pool's slice). */
function movable({ input }: WorkerInput, { handOver = false }: ReadOptions): ArrayBuffer[] {
  if (!handOver || typeof input === 'string' || !(input.buffer instanceof ArrayBuffer)) return []
  return input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? [input.buffer] : []
}

function inWorker(data: WorkerInput, lookups: WorkerLookups, options: ReadOptions): Promise<string | MatchResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: data,
      // Copying 5 MB into the message here was, on a small VM, some 20 ms of the server's thread touching fresh memory.
      transferList: movable(data, options),
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB },
    })
    let done = false
    const finish = (settle: () => void) => {
      if (done) return
      done = true
      settle()
      void worker.terminate()
    }
    worker.on('message', (message: WorkerMessage) => {
      if ('keys' in message) {
        const keys = message.keys === '' ? [] : message.keys.split('\n')
        const answered = async () => ({ targets: await lookups.targets(), recorded: await lookups.recorded(keys) })
        answered().then(
          ({ targets, recorded }) => {
            if (!done) worker.postMessage({ targets, recorded } satisfies WorkerLookupAnswer)
          },
          (error: unknown) => finish(() => reject(error as Error)),
        )
      } else if ('json' in message) finish(() => resolve(message.json))
      else if ('result' in message) finish(() => resolve(message.result))
      else if ('problem' in message) finish(() => reject(new CamtError(message.problem)))
      else finish(() => reject(new Error(`the statement could not be read: ${message.failure}`)))
    })
    worker.once('error', (error) => finish(() => reject(new Error(`the statement could not be read: ${error.message}`))))
    worker.once('exit', (code) => finish(() => reject(new Error(`the statement reader exited with ${code} before answering`))))
  })
}

let previous: Promise<unknown> = Promise.resolve()

function queued<T>(input: Buffer | string, run: () => Promise<T>): Promise<T> {
  // Refused before a thread starts and the text is copied to it; parseCamt checks again.
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.length
  if (bytes > CAMT_MAX_BYTES) return Promise.reject(new CamtError({ code: 'too-large' }))
  const read = previous.then(run)
  previous = read.catch(() => undefined)
  return read
}

/**
 * The preview of the file as the JSON text of a BankStatementPreview; throws CamtError for a file that is none. Files
 * wait for each other, not in parallel.
 */
export function previewJsonOf(input: Buffer | string, lookups: WorkerLookups, options: ReadOptions = {}): Promise<string> {
  return queued(input, () => inWorker({ input, answer: 'preview-json' }, lookups, options) as Promise<string>)
}

/** The preview and the bookings to record; throws CamtError for a file that is none. */
export function matchOf(input: Buffer | string, lookups: WorkerLookups, options: ReadOptions = {}): Promise<MatchResult> {
  return queued(input, () => inWorker({ input, answer: 'result' }, lookups, options) as Promise<MatchResult>)
}
