// Whether another site sent a request on a visitor's behalf: the contact form and the console's state-changing
// requests refuse those.
import type { IncomingHttpHeaders } from 'node:http'

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
