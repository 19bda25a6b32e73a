// Reads a statement file and matches it in a worker thread of its own (camt-worker.ts), one file at a time per
// process: the parse of a large file (seconds of CPU and some 200 MiB) neither holds up the server's requests nor can
// grow its heap, and what is wrong with a file comes back as the same CamtError as before (decision 040). The server's
// thread only answers the worker's two questions from the store (what can be paid, which bookings are recorded) and
// gets back the preview as JSON bytes whose memory is moved, not copied: neither the parsed file nor the answer is
// copied, serialised or encoded there (about 85 ms per 5 MB file, which GET / waited for). A request's body is
// streamed to its worker piece by piece as it arrives (StatementReader.write), so that the server's thread never
// holds the whole file in one allocation (a 5 MB buffer per preview brought full garbage collections of 20 to 28 ms
// under the product's small heap).
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { PaymentTargetOutcome } from '../../shared/payments-api.ts'
import { CAMT_MAX_BYTES, CamtError, type CamtProblem } from './camt.ts'
import type { MatchResult, PaymentTarget } from './match.ts'

const WORKER = fileURLToPath(import.meta.url.endsWith('.ts') ? new URL('./camt-worker.ts', import.meta.url) : new URL('../camt-worker.js', import.meta.url))
/** A 5 MB statement of 7,000 bookings needed about 110 MiB of heap; a hostile one ends the worker, not the server. */
const WORKER_HEAP_MIB = 256

/** What the worker is given at its start: the whole file, or nothing when its pieces follow as messages. */
export interface WorkerInput {
  input: Buffer | string | null
}

/** What the caller wants: the preview alone, or with the bookings to record (applying). */
export type Answer = 'preview' | 'result'

/** The server's messages to the worker: a piece of the file, the file's end with what to answer, the lookups' answer. */
export type ToWorker = { piece: Uint8Array } | { read: Answer } | WorkerLookupAnswer

/**
 * The worker's answer: the preview as the JSON text's UTF-8 bytes (their memory moved here, sent on as they are); for
 * "result" also the bookings to record and the deals the file pays.
 */
export interface StatementAnswer {
  json: Uint8Array
  records: MatchResult['records']
  deals: PaymentTargetOutcome[]
}

/** The worker's messages: the keys of the file's bookings (one string, lines), then its answer; or what went wrong. */
export type WorkerMessage = { keys: string } | { answer: StatementAnswer } | { problem: CamtProblem } | { failure: string }

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

let alive = 0
/** Statement workers running now: a worker must end with its file, also when the upload is abandoned (tests). */
export const statementWorkersAlive = (): number => alive

let previous: Promise<unknown> = Promise.resolve()

/**
 * One file read by one worker thread, started as the file begins to arrive. `write` moves each piece of it there,
 * `read` asks for the answer once all of it is there (files take their turn: one parse at a time per process),
 * `close` ends the worker whatever state it is in (an aborted upload, a file over the limit).
 */
export class StatementReader {
  readonly #worker: Worker
  #bytes = 0
  #exited = false
  #closed = false
  #onExit: ((code: number) => void) | null = null

  constructor(input: Buffer | string | null = null) {
    this.#worker = new Worker(WORKER, { workerData: { input } satisfies WorkerInput, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB } })
    alive++
    this.#worker.once('exit', (code) => {
      alive--
      this.#exited = true
      this.#onExit?.(code)
    })
    // Its failures are answered by `read` (its exit); one while the file still arrives must not end the process.
    this.#worker.on('error', () => undefined)
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * A piece of the file: its memory moved to the worker when the piece is all of its ArrayBuffer (as Node's HTTP
   * parser makes a body's pieces), else this piece alone copied. Nothing of the file is kept here.
   */
  write(piece: Buffer): void {
    this.#bytes += piece.length
    if (this.#closed || piece.length === 0) return
    const own = piece.buffer instanceof ArrayBuffer && piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength
    const moved = own ? new Uint8Array(piece.buffer, 0, piece.byteLength) : new Uint8Array(piece)
    this.#worker.postMessage({ piece: moved } satisfies ToWorker, [moved.buffer as ArrayBuffer])
  }

  /** Ends the worker; nothing is answered any more. Safe to call again and after `read`. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    void this.#worker.terminate()
  }

  /** The answer once every piece has been written; throws CamtError for a file that is none. The worker ends with it. */
  read(answer: Answer, lookups: WorkerLookups): Promise<StatementAnswer> {
    // Refused before the parse; parseCamt checks again.
    if (this.#bytes > CAMT_MAX_BYTES) {
      this.close()
      return Promise.reject(new CamtError({ code: 'too-large' }))
    }
    const run = previous.then(() => this.#answer(answer, lookups))
    previous = run.catch(() => undefined)
    return run
  }

  #answer(answer: Answer, lookups: WorkerLookups): Promise<StatementAnswer> {
    return new Promise((resolve, reject) => {
      const worker = this.#worker
      let done = false
      const finish = (settle: () => void) => {
        if (done) return
        done = true
        settle()
        this.close()
      }
      if (this.#exited || this.#closed) return finish(() => reject(new Error('the statement reader ended before the file was read')))
      this.#onExit = (code) => finish(() => reject(new Error(`the statement reader exited with ${code} before answering`)))
      worker.once('error', (error) => finish(() => reject(new Error(`the statement could not be read: ${error.message}`))))
      worker.on('message', (message: WorkerMessage) => {
        if ('keys' in message) {
          const keys = message.keys === '' ? [] : message.keys.split('\n')
          const answered = async () => ({ targets: await lookups.targets(), recorded: await lookups.recorded(keys) })
          answered().then(
            ({ targets, recorded }) => {
              if (!done) worker.postMessage({ targets, recorded } satisfies ToWorker)
            },
            (error: unknown) => finish(() => reject(error as Error)),
          )
        } else if ('answer' in message) finish(() => resolve(message.answer))
        else if ('problem' in message) finish(() => reject(new CamtError(message.problem)))
        else finish(() => reject(new Error(`the statement could not be read: ${message.failure}`)))
      })
      worker.postMessage({ read: answer } satisfies ToWorker)
    })
  }
}

/** A whole file (the CLI's, or the console's sent as JSON text), or one streamed to its reader as it arrived. */
export type StatementInput = Buffer | string | StatementReader

/** The file's answer; throws CamtError for a file that is none. Files wait for each other, not in parallel. */
export function readStatement(input: StatementInput, answer: Answer, lookups: WorkerLookups): Promise<StatementAnswer> {
  if (input instanceof StatementReader) return input.read(answer, lookups)
  // Refused before a thread starts and the text is copied to it.
  if ((typeof input === 'string' ? Buffer.byteLength(input) : input.length) > CAMT_MAX_BYTES) return Promise.reject(new CamtError({ code: 'too-large' }))
  return new StatementReader(input).read(answer, lookups)
}
