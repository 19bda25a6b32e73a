// Whether another site sent a request on a visitor's behalf: the contact form and the console's state-changing
// requests refuse those.
import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from './errors.ts'

/** Origin or Sec-Fetch-Site that say another site sent this: no other site may post here on a visitor's (or the owner's) behalf. */
export function isCrossSite(headers: IncomingHttpHeaders): boolean {
  const fetchSite = headers['sec-fetch-site']
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true
  const origin = headers.origin
  if (origin === undefined) return false
  try {
    return new URL(origin).host.toLowerCase() !== (headers.host ?? '').toLowerCase()
  } catch {
    return true // "null" or garbage: an opaque origin is not ours
  }
}

/**
 * A route's onRequest hook that refuses another site's requests with 403 and `message` (in the request's language).
 * A route's own onRequest runs before the rate limit's: another site's posts, which a page the visitor opens elsewhere
 * can make the visitor's browser send from the visitor's address, never use up the visitor's own budget. A callback,
 * not an async function: an async hook costs a promise per request.
 */
export const refuseCrossSite =
  (message: (request: FastifyRequest) => string) =>
  (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    if (isCrossSite(request.headers)) return done(new HttpError(403, message(request)))
    done()
  }
