// Draws link-preview images in a worker thread of its own (og-worker.ts), started with the first image: laying an
// image out measures its text with resvg on the thread that asks, tens of milliseconds each, which on the main
// thread every request in the meantime would wait for (decision 032).
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { OgImageContent } from './og-image.ts'

const WORKER = fileURLToPath(import.meta.url.endsWith('.ts') ? new URL('./og-worker.ts', import.meta.url) : new URL('../og-worker.js', import.meta.url))
/** The worker's heap: one image at a time needs a few MiB; a runaway one ends the worker, not the server. */
const WORKER_HEAP_MIB = 32

interface Drawn {
  svg: string
  png: Buffer
}

export interface OgDrawer {
  draw(content: OgImageContent): Promise<Drawn>
  close(): Promise<void>
}

export function createOgDrawer(): OgDrawer {
  let worker: Worker | undefined
  let next = 0
  const pending = new Map<number, { resolve: (drawn: Drawn) => void; reject: (error: Error) => void }>()

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }

  function started(): Worker {
    if (worker) return worker
    const thread = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MIB } })
    // It must not keep a process alive that is otherwise done.
    thread.unref()
    thread.on('message', (message: { id: number; svg?: string; png?: Uint8Array; error?: string }) => {
      const waiting = pending.get(message.id)
      if (!waiting) return
      pending.delete(message.id)
      if (message.error !== undefined || message.svg === undefined || message.png === undefined) waiting.reject(new Error(`og.png not drawn: ${message.error}`))
      else waiting.resolve({ svg: message.svg, png: Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength) })
    })
    // A worker that failed or ended fails what it was drawing; the next image starts a new one.
    const ended = (error: Error) => {
      if (worker === thread) worker = undefined
      failAll(error)
    }
    thread.on('error', ended)
    thread.on('exit', (code) => ended(new Error(`the og.png worker exited with ${code}`)))
    worker = thread
    return thread
  }

  return {
    draw(content) {
      const id = next++
      return new Promise<Drawn>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        started().postMessage({ id, content })
      })
    },
    async close() {
      const thread = worker
      worker = undefined
      if (thread) await thread.terminate()
    },
  }
}
