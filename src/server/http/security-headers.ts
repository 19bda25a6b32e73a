// The security headers of every answer (docs/decisions/006): a Content-Security-Policy and the fixed headers helmet's
// defaults would send, computed once at start-up: @fastify/helmet built and parsed its whole configuration again for
// every request, a large part of the CPU time and memory of GET / (measured in docs/decisions/011). The public page's
// policy is one fixed value (its inline loader allowed by its hash, issue 37); only the console's carries a nonce per
// answer, for its scripts.
import type { FastifyInstance } from 'fastify'
import { randomHex } from './random-pool.ts'

declare module 'fastify' {
  interface FastifyReply {
    /** This answer's CSP nonce, for the console's script elements; set only where the app was given `{ nonce: true }`. */
    cspNonce: string
  }
}

/** CSP directives in helmet's camelCase (`scriptSrc` is sent as `script-src`). */
export type CspDirectives = Record<string, string[]>

/**
 * Helmet 8's defaults, minus the ones that do not belong here: HSTS belongs to the TLS terminator in front of us;
 * Cross-Origin-Opener-Policy and Origin-Agent-Cluster protect pages that open or share windows, which this one does
 * not, and on plain http browsers log them as errors.
 */
const FIXED_HEADERS: [string, string][] = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
]

const NONCE = '\0nonce\0'

/** The policy as one header value. */
export function cspValue(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
    .join(';')
}

/**
 * The policy as one header value, with a fresh nonce added to `script-src` of every answer (the console's). Styles
 * need none: a page's inline style sheet is allowed by its hash (page/render.ts), which the caller puts into `styleSrc`.
 */
export function cspTemplate(directives: CspDirectives): (nonce: string) => string {
  const withNonce: CspDirectives = { ...directives, scriptSrc: [...(directives.scriptSrc ?? []), `'nonce-${NONCE}'`] }
  const policy = cspValue(withNonce)
  // Cut at the nonce once; per answer the parts are only joined.
  const [before, after] = policy.split(NONCE) as [string, string]
  return (nonce) => before + nonce + after
}

/**
 * The policy of every page we serve, the public page and the console alike: our own origin only, no frames, no
 * plugins. `styleSources` adds what allows a page's inline style sheet (the public page's hash; the console has none),
 * `scriptSources` what allows its inline scripts (the public page's loader, by its hash).
 */
export function pagePolicy(styleSources: string[] = [], scriptSources: string[] = []): CspDirectives {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptSources],
    styleSrc: ["'self'", ...styleSources],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
  }
}

/**
 * Adds the headers to every answer (also 404s, errors and static files). `nonce`: a fresh one per answer in
 * `script-src` and in `reply.cspNonce` (the console). Without it the policy is one value for every answer: nothing
 * per request but handing the same object over (the public page, on the hot path).
 */
export function addSecurityHeaders(app: FastifyInstance, directives: CspDirectives, { nonce: perAnswer }: { nonce: boolean }): void {
  const fixed = Object.fromEntries(FIXED_HEADERS.map(([name, value]) => [name.toLowerCase(), value]))
  if (!perAnswer) {
    const headers = { 'content-security-policy': cspValue(directives), ...fixed }
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
    return
  }
  const csp = cspTemplate(directives)
  app.decorateReply('cspNonce', '')
  app.addHook('onRequest', (_request, reply, done) => {
    const nonce = randomHex(16)
    reply.cspNonce = nonce
    // Through the reply, in one call, rather than on the raw response one by one: Node checks and stores each
    // header it is given before the answer, and again when Fastify writes the reply's own (decision 034).
    reply.headers({ 'content-security-policy': csp(nonce), ...fixed })
    done()
  })
}
