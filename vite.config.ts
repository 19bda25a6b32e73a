import react from '@vitejs/plugin-react'
import { defineConfig, type Alias, type Plugin } from 'vite'

/**
 * The components are written against React's API (and typed with @types/react), but Preact renders them, in the
 * browser and on the server: react-dom's client alone was 64.5 KB gzip of a 76.6 KB page (docs/decisions/010).
 * One renderer on both sides means the server's markup is exactly what the browser hydrates. Also used by
 * vitest.config.ts, so tests that render pages from the sources see the same markup as production.
 */
export const preactAliases: Alias[] = [
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
]

/**
 * Puts the style sheet (1.2 KB gzip) into index.html as a <style> element, so the browser paints with the HTML
 * alone instead of waiting for a second, render-blocking request. The server's Content-Security-Policy allows
 * exactly that element by its hash (src/server/render.ts).
 */
function inlineStyleSheet(): Plugin {
  return {
    name: 'domain-lander:inline-style-sheet',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html']
      if (html?.type !== 'asset') return
      for (const [fileName, file] of Object.entries(bundle)) {
        if (file.type !== 'asset' || !fileName.endsWith('.css')) continue
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${fileName.replace(/[.]/g, '\\.')}"[^>]*>`)
        const before = String(html.source)
        html.source = before.replace(link, () => `<style>${String(file.source).trim()}</style>`)
        if (html.source === before) throw new Error(`index.html does not link ${fileName}`)
        delete bundle[fileName]
      }
    },
  }
}

// Two builds from one config: the browser bundle (root src/client, with index.html) and the server (SSR) bundle.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        plugins: [react()],
        resolve: { alias: preactAliases },
        publicDir: false,
        // The server's dependencies are bundled too, minified: Node then reads and compiles a few files instead of
        // hundreds of modules (cold start 0.6 of before, docs/decisions/011). What is imported lazily (nodemailer,
        // pg) becomes a chunk of its own and is still loaded only when first needed.
        ssr: { noExternal: true },
        build: {
          ssr: 'src/server/main.ts',
          outDir: 'dist/server',
          emptyOutDir: true,
          target: 'node24',
          sourcemap: true,
          minify: true,
          // One non-ASCII character makes V8 keep a whole chunk's source as two bytes per character.
          rolldownOptions: { output: { charset: 'ascii' } },
        },
      }
    : {
        root: 'src/client',
        plugins: [react(), inlineStyleSheet()],
        resolve: { alias: preactAliases },
        build: {
          outDir: '../../dist/client',
          emptyOutDir: true,
          target: 'es2022',
        },
      },
)
