import { builtinModules, createRequire } from 'node:module'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

/**
 * Makes the built index.html the whole first load:
 * - the style sheet (1.2 KB gzip) goes into it as a <style> element, so the browser paints with the HTML alone
 *   instead of waiting for a second, render-blocking request; the server's Content-Security-Policy allows exactly
 *   that element by its hash (src/server/page/render.ts);
 * - the loader (src/client/loader.ts, under 1 KB) goes into it as an inline module script: React and the form's
 *   script, a second entry of this build, are fetched only when the visitor turns to the form (docs/decisions/013).
 *   The loader names that entry by a placeholder, replaced here by the built file's name: a dynamic import that Vite
 *   resolved itself would bring its preload helper into the page.
 */
function inlineIntoPage(): Plugin {
  return {
    name: 'domain-lander:inline-into-page',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html']
      if (html?.type !== 'asset') return
      const replace = (pattern: RegExp, by: string, what: string) => {
        const before = String(html.source)
        html.source = before.replace(pattern, () => by)
        if (html.source === before) throw new Error(`index.html does not ${what}`)
      }
      for (const [fileName, file] of Object.entries(bundle)) {
        if (file.type !== 'asset' || !fileName.endsWith('.css')) continue
        replace(
          new RegExp(`<link rel="stylesheet"[^>]*href="/${escapeRegExp(fileName)}"[^>]*>`),
          `<style>${String(file.source).trim()}</style>`,
          `link ${fileName}`,
        )
        delete bundle[fileName]
      }
      const entry = (name: string) => {
        const found = Object.values(bundle).filter((file) => file.type === 'chunk' && file.isEntry && file.facadeModuleId?.endsWith(name))
        if (found.length !== 1 || found[0]?.type !== 'chunk') throw new Error(`the client build has no single entry ${name}`)
        return found[0]
      }
      const loader = entry('index.html')
      const client = entry('entry-client.tsx')
      if (loader.imports.length || loader.dynamicImports.length) throw new Error('the loader must not import any chunk')
      const code = loader.code.trim()
      if (!code.includes(CLIENT_ENTRY)) throw new Error(`the loader does not name ${CLIENT_ENTRY}`)
      const inline = code.replaceAll(CLIENT_ENTRY, `/${client.fileName}`).replace(/<\/script/gi, '<\\/script')
      replace(
        new RegExp(`<script type="module"[^>]*src="/${escapeRegExp(loader.fileName)}"[^>]*></script>`),
        `<script type="module">${inline}</script>`,
        `load ${loader.fileName}`,
      )
      delete bundle[loader.fileName]
    },
  }
}

/** Written out in src/client/loader.ts too. */
const CLIENT_ENTRY = '__LANDER_CLIENT_ENTRY__'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Fastify loads node:https and node:http2 as it loads, for servers this one never makes (it serves plain HTTP/1.1
 * behind a TLS terminator); with them come TLS and HTTP/2, 9 MiB of every process's idle memory (decision 034).
 * Fastify gets them as modules that load the real one when first used.
 */
function lazyBuiltinsForFastify(): Plugin {
  const LAZY = new Set(['node:https', 'node:http2'])
  const PREFIX = '\0lazy-builtin:'
  return {
    name: 'domain-lander:lazy-builtins-for-fastify',
    enforce: 'pre',
    resolveId(source, importer) {
      if (LAZY.has(source) && importer?.replaceAll('\\', '/').endsWith('/node_modules/fastify/lib/server.js')) return PREFIX + source
      return undefined
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return undefined
      const name = JSON.stringify(id.slice(PREFIX.length))
      return `let real\nmodule.exports = new Proxy({}, { get: (_target, key) => (real ??= require(${name}))[key] })\n`
    },
  }
}

/**
 * Node's built-in modules, imported from ESM, are loaded by require. Importing one as ESM makes Node build a facade
 * that reads every export once, and node:http's exports include getters that load all of undici (fetch, WebSocket):
 * that alone was a fifth of the server's start (decision 034). Only the data properties become named exports; a
 * getter imported by name fails the build instead of costing every start.
 */
const BUILTIN_BY_REQUIRE = '\0builtin-by-require:'

function builtinsByRequire(): Plugin {
  const PREFIX = BUILTIN_BY_REQUIRE
  const builtins = new Set(builtinModules.flatMap((name) => (name.startsWith('node:') ? [name] : [name, `node:${name}`])))
  const buildRequire = createRequire(import.meta.url)
  const isIdentifier = (name: string) => {
    try {
      new Function(`const ${name} = 0`)
      return true
    } catch {
      return false
    }
  }
  return {
    name: 'domain-lander:builtins-by-require',
    enforce: 'pre',
    resolveId(source, _importer, options) {
      const kind = (options as { kind?: string } | undefined)?.kind
      if (!builtins.has(source) || source === 'node:module' || source === 'module') return undefined
      if (kind !== undefined && kind !== 'import-statement' && kind !== 'dynamic-import') return undefined
      return PREFIX + (source.startsWith('node:') ? source : `node:${source}`)
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return undefined
      const name = id.slice(PREFIX.length)
      const exports = buildRequire(name) as object
      const names = Object.entries(Object.getOwnPropertyDescriptors(exports))
        .filter(([key, descriptor]) => 'value' in descriptor && key !== 'default' && isIdentifier(key))
        .map(([key]) => key)
      return [
        `import { createRequire } from 'node:module'`,
        `const builtin = createRequire(import.meta.url)(${JSON.stringify(name)})`,
        `export default builtin`,
        names.length ? `export const { ${names.join(', ')} } = builtin` : '',
      ].join('\n')
    },
  }
}

/** The server's entries: the server, and the process that loads the domains file (src/server/sites/registry.ts). */
const SERVER_ENTRIES: Record<string, string> = {
  main: 'src/server/main.ts',
  'domains-loader': 'src/server/sites/domains-loader.ts',
  'og-worker': 'src/server/page/og-worker.ts',
  'invoice-worker': 'src/server/invoice/invoice-worker.ts',
  'camt-worker': 'src/server/payments/camt-worker.ts',
}

/** The mode of the console's browser build; scripts/build-lib.ts passes it by name. */
const CONSOLE_MODE = 'console'

// Three builds from one config: the public page's browser bundle (root src/client, with index.html), the console's
// browser bundle (mode "console": root src/console, served only on the admin port, so it never lands in
// dist/client) and the server (SSR) bundle, which renders both.
export default defineConfig(({ isSsrBuild, mode }) =>
  mode === CONSOLE_MODE && !isSsrBuild
    ? {
        root: 'src/console',
        plugins: [react()],
        publicDir: false,
        build: {
          outDir: '../../dist/console',
          emptyOutDir: true,
          target: 'es2022',
          rolldownOptions: {
            input: 'src/console/index.html',
            // Named apart from the public page's assets: a console file is recognisable wherever it turns up.
            output: {
              entryFileNames: 'assets/console-[hash].js',
              chunkFileNames: 'assets/console-[hash].js',
              assetFileNames: 'assets/console-[hash][extname]',
            },
          },
          // One entry; the one further chunk (the Übersicht's charts) is fetched when they are drawn, never before.
          modulePreload: false,
        },
      }
    : isSsrBuild
      ? {
          plugins: [react(), lazyBuiltinsForFastify(), builtinsByRequire()],
          publicDir: false,
          // React's packages pick their production or development build by NODE_ENV at run time; decided here, the
          // development build (slower, and half the bundle) is left out.
          define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          // The server's dependencies are bundled too, minified: Node then reads and compiles a few files instead of
          // hundreds of modules (cold start 0.6 of before, docs/decisions/011). What is imported lazily (nodemailer,
          // pg) becomes a chunk of its own and is still loaded only when first needed.
          // resvg is a native addon (its .node file is loaded by require): it stays in node_modules. So do the invoice's
          // PDF libraries (decision 038): they load fonts, WebAssembly and ICC profiles from their own files. And
          // WebAuthn's library, loaded with the first passkey request: bundled, its X.509 code ran tsyringe before the
          // reflect-metadata it imports for that side effect, and the server did not start.
          ssr: { noExternal: true, external: ['@resvg/resvg-js', '@react-pdf/renderer', '@e-invoice-eu/core', '@simplewebauthn/server'] },
          build: {
            ssr: true,
            outDir: 'dist/server',
            emptyOutDir: true,
            target: 'node24',
            sourcemap: true,
            minify: true,
            rolldownOptions: {
              input: SERVER_ENTRIES,
              // One non-ASCII character makes V8 keep a whole chunk's source as two bytes per character.
              output: {
                charset: 'ascii',
                // Each built-in in a chunk of its own: merged by the importers they share, node:https (wanted by mail
                // only) came with node:http at every start.
                codeSplitting: {
                  groups: [
                    {
                      debugName: 'builtins',
                      name: (id) => (id.startsWith(BUILTIN_BY_REQUIRE) ? `builtin-${id.slice(BUILTIN_BY_REQUIRE.length + 5).replaceAll('/', '-')}` : null),
                    },
                  ],
                },
              },
            },
          },
        }
      : {
          root: 'src/client',
          plugins: [react(), inlineIntoPage()],
          build: {
            outDir: '../../dist/client',
            emptyOutDir: true,
            target: 'es2022',
            rolldownOptions: { input: { index: 'src/client/index.html', client: 'src/client/entry-client.tsx' } },
            // The loader imports the client entry, which imports nothing else: no preload polyfill needed.
            modulePreload: false,
          },
        },
)
