// The console's session cookie (docs/decisions/016): a random 256-bit id that only the browser holds; the store keeps
// its SHA-256 alone, so a copy of the database signs nobody in.
import { createHash, randomBytes } from 'node:crypto'
import type { CookieSerializeOptions } from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'

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

/** The session id the request carries under the name for its scheme, or null. @fastify/cookie parses the header. */
export function sessionIdOf(request: FastifyRequest): string | null {
  const value = request.cookies[isHttps(request) ? secureName : plainName]
  return value !== undefined && ID_FORMAT.test(value) ? value : null
}

function options(request: FastifyRequest, maxAgeSeconds: number): CookieSerializeOptions {
  return { path: '/', maxAge: maxAgeSeconds, httpOnly: true, sameSite: 'strict', secure: isHttps(request) }
}

export const setSessionCookie = (request: FastifyRequest, reply: FastifyReply, id: string): FastifyReply =>
  reply.setCookie(isHttps(request) ? secureName : plainName, id, options(request, SESSION_MAX_MS / 1000))

export const clearSessionCookie = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
  reply.setCookie(isHttps(request) ? secureName : plainName, '', options(request, 0))
