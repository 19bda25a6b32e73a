// The worker thread that lays out and draws the link-preview images (og-drawer.ts starts it). Measuring the text
// with resvg takes tens of milliseconds per image; here no request waits for it (decision 032).
import v8 from 'node:v8'
import vm from 'node:vm'
import { parentPort } from 'node:worker_threads'
import { ogImageSvg, renderOgImage, type OgImageContent } from './og-image.ts'

// resvg's objects (one per text measured) keep their fonts and trees in native memory that V8 does not count, so
// nothing makes it collect them: they pile up until the small heap fills, the process's RSS growing with every
// image. A full collection after each image (on this thread, not the server's) frees them. Workers cannot be given
// --expose-gc; setting the flag here exposes gc() to the context made next.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

parentPort!.on('message', ({ id, content }: { id: number; content: OgImageContent }) => {
  ogImageSvg(content)
    .then(async (svg) => ({ id, svg, png: await renderOgImage(svg) }))
    .then(
      (drawn) => {
        parentPort!.postMessage(drawn)
        gc()
      },
      (error: unknown) => parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
    )
})
