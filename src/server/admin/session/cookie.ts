// The console's session cookie (docs/decisions/016): a random 256-bit id that only the browser holds; the store keeps
// its SHA-256 alone, so a copy of the database signs nobody in.
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Over HTTPS the `__Host-` prefix: the browser takes such a cookie only with Secure, Path=/ and no Domain, so a
 * sibling subdomain cannot plant one. On plain http (an SSH tunnel to 127.0.0.1) a browser drops Secure cookies,
 * and the prefix demands Secure: the plain name there. Each scheme reads only its own name.
 */
const secureName = '__Host-console-session'
const plainName = 'console-session'

const isHttps = (request: FastifyRequest) => request.protocol === 'https'

/** 32 random bytes in base64url. */
const ID_FORMAT = /^[\w-]{43}$/

export const newSessionId = (): string => randomBytes(32).toString('base64url')

export const hashOfSessionId = (id: string): string => createHash('sha256').update(id).digest('base64url')

/** The session id the request carries under the name for its scheme, or null. */
export function sessionIdOf(request: FastifyRequest): string | null {
  const name = isHttps(request) ? secureName : plainName
  const header = request.headers.cookie ?? ''
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=')
    if (at < 0 || pair.slice(0, at).trim() !== name) continue
    const value = pair.slice(at + 1).trim()
    return ID_FORMAT.test(value) ? value : null
  }
  return null
}

function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const https = isHttps(request)
  return `${https ? secureName : plainName}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${https ? '; Secure' : ''}`
}

export const sessionCookie = (request: FastifyRequest, id: string): string => cookie(request, id, SESSION_MAX_MS / 1000)

export const clearedSessionCookie = (request: FastifyRequest): string => cookie(request, '', 0)
