// The worker thread that reads and matches one statement file (camt-read.ts starts it): parsing a 5 MB CAMT.053 with
// its XML parser takes seconds of CPU, and matching its bookings and writing the answer tens of milliseconds, which on
// the server's thread every request in the meantime would wait for (decision 040). The store stays on the server's
// thread: the worker sends the bookings' keys and is sent what can be paid and what is recorded.
import os from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { bankStatementPreviewSchema } from '../../shared/payments-api.ts'
import type { Answer, StatementAnswer, ToWorker, WorkerInput, WorkerLookupAnswer, WorkerMessage } from './camt-read.ts'
import { parseCamt } from './camt-parse.ts'
import { CamtError, type CamtDocument } from './camt.ts'
import { bankKeyOf, matchStatement } from './match.ts'

// On Linux a thread has its own nice value, and 0 is the calling thread: on a small server the parse then takes the
// CPU the requests leave over instead of half of it. Elsewhere it would be the whole process, so only here.
if (process.platform === 'linux') os.setPriority(19)

const port = parentPort!
const failed = (error: unknown) => send(error instanceof CamtError ? { problem: error.problem } : { failure: (error as Error).message })
function send(message: WorkerMessage) {
  // The answer's bytes are moved, not copied: the server's thread sends them on as they are.
  port.postMessage(message, 'answer' in message ? [message.answer.json.buffer as ArrayBuffer] : [])
}

const { input } = workerData as Omit<WorkerInput, 'input'> & { input: string | Uint8Array | null }
/** The file's pieces as they arrive (a request's body streamed here), joined when it has all come. */
const pieces: Buffer[] = []
let parsed: { document: CamtDocument; answer: Answer } | null = null

function read(answer: Answer) {
  const file = typeof input === 'string' ? input : input ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : Buffer.concat(pieces)
  pieces.length = 0
  const document = parseCamt(file)
  parsed = { document, answer }
  // Every booking's key, debits and unbooked ones included, as the store is asked for them.
  const keys: string[] = []
  for (const statement of document.statements) {
    for (const entry of statement.entries) entry.transactions.forEach((tx, i) => keys.push(bankKeyOf(statement, entry, tx, i)))
  }
  // One string: copied at once, where thousands of short ones would be cloned one by one on the server's thread.
  send({ keys: keys.join('\n') })
}

function match({ targets, recorded }: WorkerLookupAnswer) {
  const { document, answer } = parsed!
  const { preview, records } = matchStatement({ document, targets, recorded })
  // Checked against the console's schema here, off the server's thread, as a route's response schema checks an answer.
  const json = new TextEncoder().encode(JSON.stringify(bankStatementPreviewSchema.parse(preview)))
  send({ answer: { json, ...(answer === 'result' ? { records, deals: preview.deals } : { records: [], deals: [] }) } satisfies StatementAnswer })
}

port.on('message', (message: ToWorker) => {
  try {
    if ('piece' in message) pieces.push(Buffer.from(message.piece.buffer, message.piece.byteOffset, message.piece.byteLength))
    else if ('read' in message) read(message.read)
    else match(message)
  } catch (error) {
    failed(error)
  }
})
