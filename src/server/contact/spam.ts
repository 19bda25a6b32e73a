// The spam rules of a submission that passed validation and carries a valid token, and the cross-site check that
// comes before everything else.
import type { IncomingHttpHeaders } from 'node:http'
import { FIELD, type ContactPayload } from '../../shared/contact.ts'

/** The reason a submission is spam, or null. A missing decoy means the form was not the one we served. */
export function spamReason(data: ContactPayload, issuedAt: number, now: number, minFillSeconds: number): string | null {
  const nameDecoy = data[FIELD.nameDecoy]
  const emailDecoy = data[FIELD.emailDecoy]
  if (nameDecoy === undefined || emailDecoy === undefined) return 'decoy-missing'
  if (nameDecoy !== '' || emailDecoy !== '') return 'decoy-filled'
  if (now - issuedAt < minFillSeconds * 1000) return 'too-fast'
  return null
}

/** Origin or Sec-Fetch-Site that say another site sent this: no other site may post here on a visitor's behalf. */
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
