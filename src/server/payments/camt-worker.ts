// The worker thread that reads and matches one statement file (camt-read.ts starts it): parsing a 5 MB CAMT.053 with
// its XML parser takes seconds of CPU, and matching its bookings and writing the answer tens of milliseconds, which on
// the server's thread every request in the meantime would wait for (decision 040). The store stays on the server's
// thread: the worker sends the bookings' keys and is sent what can be paid and what is recorded.
import os from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import type { WorkerInput, WorkerLookupAnswer, WorkerMessage } from './camt-read.ts'
import { parseCamt } from './camt-parse.ts'
import { CamtError } from './camt.ts'
import { bankKeyOf, matchStatement } from './match.ts'

// On Linux a thread has its own nice value, and 0 is the calling thread: on a small server the parse then takes the
// CPU the requests leave over instead of half of it. Elsewhere it would be the whole process, so only here.
if (process.platform === 'linux') os.setPriority(19)

const port = parentPort!
const send = (message: WorkerMessage) => port.postMessage(message)
const failed = (error: unknown) => send(error instanceof CamtError ? { problem: error.problem } : { failure: (error as Error).message })

const { input, answer } = workerData as Omit<WorkerInput, 'input'> & { input: string | Uint8Array }
try {
  const document = parseCamt(typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength))
  // Every booking's key, debits and unbooked ones included, as the store is asked for them.
  const keys: string[] = []
  for (const statement of document.statements) {
    for (const entry of statement.entries) entry.transactions.forEach((tx, i) => keys.push(bankKeyOf(statement, entry, tx, i)))
  }
  port.once('message', ({ targets, recorded }: WorkerLookupAnswer) => {
    try {
      const result = matchStatement({ document, targets, recorded })
      send(answer === 'preview-json' ? { json: JSON.stringify(result.preview) } : { result })
    } catch (error) {
      failed(error)
    }
  })
  // One string: copied at once, where thousands of short ones would be cloned one by one on the server's thread.
  send({ keys: keys.join('\n') })
} catch (error) {
  failed(error)
}
