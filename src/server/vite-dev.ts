// `npm run dev` only (scripts/dev.ts): Vite answers for the client's sources, its HMR client and public/, and the
// page is rendered from the sources for every request. `npm start` never loads this module.
import type { FastifyInstance } from 'fastify'
import type { ViteDevServer } from 'vite'
import type { DevPageRenderer } from './page/render.ts'

export interface ViteDev {
  vite: ViteDevServer
}

/**
 * Vite's HMR client and React's refresh runtime need inline and evaluated scripts and inline styles, which the
 * production policy (the loader's and the style sheet's hashes, fixed at start; no nonce, no 'unsafe-inline':
 * app.ts, security-headers.ts) refuses: the refresh preamble Vite writes into the page is an inline script whose
 * hash the policy does not know. So in dev only, 'unsafe-inline' allows it (the page carries no nonce, which would
 * switch 'unsafe-inline' off); and the HMR client talks to Vite over a WebSocket. Only the dev server sends this policy.
 */
const DEV_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join(';')

/** Registered after the security headers, so that its policy replaces theirs. */
export function serveFromVite(app: FastifyInstance, { vite }: ViteDev, renderer: DevPageRenderer): void {
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response for what Vite answers itself, and on the reply for what the routes answer (the reply's
    // headers replace the raw response's when it is sent).
    reply.raw.setHeader('Content-Security-Policy', DEV_CSP)
    reply.header('content-security-policy', DEV_CSP)
    // Vite answers what is its own (a module, /@vite/client, a file of public/) and passes the rest to the routes;
    // a request Vite answered never reaches them.
    vite.middlewares(request.raw, reply.raw, () => {
      renderer.refresh(request.url).then(() => done(), done)
    })
  })
}
