// The worker thread that reads one statement file (camt-read.ts starts it): parsing a 5 MB CAMT.053 with its XML
// parser takes seconds of CPU, which on the server's thread every request in the meantime would wait for (decision 040).
import os from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { parseCamt } from './camt-parse.ts'
import { CamtError } from './camt.ts'

// On Linux a thread has its own nice value, and 0 is the calling thread: on a small server the parse then takes the
// CPU the requests leave over instead of half of it. Elsewhere it would be the whole process, so only here.
if (process.platform === 'linux') os.setPriority(19)

const input = workerData as string | Uint8Array
try {
  parentPort!.postMessage({ document: parseCamt(typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength)) })
} catch (error) {
  parentPort!.postMessage(error instanceof CamtError ? { problem: error.problem } : { failure: (error as Error).message })
}
