// The console's side of `--statement` in a thread of its own: posts the 5 MB statement's preview again and again until
// told to stop, and says how long each took. In the bench's own thread, sending 5 MB and parsing the 700 KB answer
// held up autocannon's event loop for milliseconds at a time, and the answers that arrived meanwhile were counted as
// slow answers of the server (docs/benchmarks.md, Bank statements).
import { parentPort, workerData } from 'node:worker_threads'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'

/** What the bench gives this thread. */
export interface PreviewsInput {
  url: string
  origin: string
  cookie: string
  contentType: string
  /** The JSON text, or the file's bytes. */
  body: string | Uint8Array<ArrayBuffer>
}

/** Messages to the bench: one per preview read, then `stopped` once told to stop and the last one is done. */
export type PreviewsMessage = { previewMs: number } | { stopped: true } | { failed: string }

const { url, origin, cookie, contentType, body } = workerData as PreviewsInput
const port = parentPort!
let running = true
port.on('message', () => (running = false))

try {
  while (running) {
    const started = performance.now()
    const response = await fetch(url, { method: 'POST', headers: { [CONSOLE_HEADER]: '1', origin, 'content-type': contentType, cookie }, body })
    const answer = (await response.json()) as { counts?: { unmatched: number } }
    if (response.status !== 200 || !answer.counts) throw new Error(`the preview answered ${response.status}`)
    port.postMessage({ previewMs: performance.now() - started } satisfies PreviewsMessage)
  }
  port.postMessage({ stopped: true } satisfies PreviewsMessage)
} catch (error) {
  port.postMessage({ failed: (error as Error).message } satisfies PreviewsMessage)
}
