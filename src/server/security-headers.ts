// The security headers of every answer (docs/decisions/006): a Content-Security-Policy with per-request nonces, and
// the fixed headers helmet's defaults would send. Everything but the two nonces is computed once, at start-up:
// @fastify/helmet built and parsed its whole configuration again for every request, a large part of the CPU time
// and memory of GET / (measured in docs/decisions/011).
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

declare module 'fastify' {
  interface FastifyReply {
    /** This answer's CSP nonces: `script` goes on the page's script elements. */
    cspNonce: { script: string; style: string }
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

const SCRIPT_NONCE = '\0script\0'
const STYLE_NONCE = '\0style\0'

/** The policy as one header value, with a fresh nonce added to `script-src` and `style-src` of every answer. */
export function cspTemplate(directives: CspDirectives): (nonce: { script: string; style: string }) => string {
  const withNonces: CspDirectives = {
    ...directives,
    scriptSrc: [...(directives.scriptSrc ?? []), `'nonce-${SCRIPT_NONCE}'`],
    styleSrc: [...(directives.styleSrc ?? []), `'nonce-${STYLE_NONCE}'`],
  }
  const policy = Object.entries(withNonces)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
    .join(';')
  // Cut at the two nonces once; per answer the parts are only joined.
  const parts = policy.split(/(\0script\0|\0style\0)/)
  return (nonce) => {
    let value = ''
    for (const part of parts) value += part === SCRIPT_NONCE ? nonce.script : part === STYLE_NONCE ? nonce.style : part
    return value
  }
}

/** Adds the headers to every answer (also 404s, errors and static files) and `reply.cspNonce` for the page. */
export function addSecurityHeaders(app: FastifyInstance, directives: CspDirectives): void {
  const csp = cspTemplate(directives)
  app.decorateReply('cspNonce', null as never)
  app.addHook('onRequest', (_request, reply, done) => {
    const random = randomBytes(32).toString('hex')
    const nonce = { script: random.slice(0, 32), style: random.slice(32) }
    reply.cspNonce = nonce
    const raw = reply.raw
    raw.setHeader('Content-Security-Policy', csp(nonce))
    for (const [name, value] of FIXED_HEADERS) raw.setHeader(name, value)
    done()
  })
}
