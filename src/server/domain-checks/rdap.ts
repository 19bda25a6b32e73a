// When a name expires, by RDAP (RFC 9083): the registry's RDAP server comes from IANA's bootstrap file (RFC 9224),
// shipped with the project (iana-rdap-dns.json, decision 047 says from where) and replaced by IANA's newer one when it
// can be fetched. The answer's "expiration" event is the date; anything else is "unknown", never a guess.
import { z } from 'zod'
import shipped from './iana-rdap-dns.json' with { type: 'json' }
import { boundedGet, type OutboundPolicy } from './outbound.ts'

export const IANA_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json'

const bootstrapSchema = z.object({
  publication: z.string(),
  services: z.array(z.tuple([z.array(z.string()), z.array(z.string())]).rest(z.unknown())),
})

export interface RdapBootstrap {
  publication: string
  /** Label sequence (lower case, ASCII) -> base URLs, https first. */
  servers: Map<string, URL[]>
}

/** A bootstrap document as read; null when it is not one. */
export function readBootstrap(document: unknown): RdapBootstrap | null {
  const parsed = bootstrapSchema.safeParse(document)
  if (!parsed.success) return null
  const servers = new Map<string, URL[]>()
  for (const [labels, urls] of parsed.data.services) {
    const bases = urls
      .filter((url) => URL.canParse(url))
      .map((url) => new URL(url.endsWith('/') ? url : `${url}/`))
      .filter((url) => url.protocol === 'https:' || url.protocol === 'http:')
      // RFC 9224 3: a client should prefer https.
      .sort((a, b) => Number(b.protocol === 'https:') - Number(a.protocol === 'https:'))
    if (bases.length) for (const label of labels) servers.set(label.toLowerCase(), bases)
  }
  return servers.size ? { publication: parsed.data.publication, servers } : null
}

export const shippedBootstrap = (): RdapBootstrap => readBootstrap(shipped)!

/** The base URLs for a name: the longest label sequence that matches its end (RFC 9224 4). */
export function rdapServersFor(bootstrap: RdapBootstrap, ascii: string): URL[] {
  const labels = ascii.toLowerCase().split('.')
  for (let i = 0; i < labels.length; i++) {
    const found = bootstrap.servers.get(labels.slice(i).join('.'))
    if (found) return found
  }
  return []
}

/** IANA's file is about 40 KB; a much larger one is not it. */
const BOOTSTRAP_MAX_BYTES = 1024 * 1024

/** IANA's current file, when it can be fetched and is newer than the one in use; else null. */
export async function fetchBootstrap(url: URL, current: RdapBootstrap, options: OutboundPolicy & { timeoutMs: number }): Promise<RdapBootstrap | null> {
  const fetched = await boundedGet(url, { ...options, maxBytes: BOOTSTRAP_MAX_BYTES, headers: { accept: 'application/json' } })
  if (!fetched.ok || fetched.status !== 200 || fetched.cut) return null
  let document: unknown
  try {
    document = JSON.parse(fetched.body.toString('utf8'))
  } catch {
    return null
  }
  const fresh = readBootstrap(document)
  return fresh && Date.parse(fresh.publication) > Date.parse(current.publication) ? fresh : null
}

export type Expiry = { expiry: 'known'; expiresAt: number; detail: string } | { expiry: 'none' | 'unknown'; expiresAt: null; detail: string }

/** An RDAP answer is a few KB; one this large is cut off and not read. */
const RDAP_MAX_BYTES = 256 * 1024

const domainAnswer = z.object({
  events: z.array(z.object({ eventAction: z.string(), eventDate: z.string() }).loose()).default([]),
})

export interface RdapOptions extends OutboundPolicy {
  timeoutMs: number
  signal?: AbortSignal
}

/** Asks the name's registry; the first server of the bootstrap's list (they are equivalent). */
export async function lookupExpiry(bootstrap: RdapBootstrap, ascii: string, options: RdapOptions): Promise<Expiry> {
  const [base] = rdapServersFor(bootstrap, ascii)
  if (!base) return { expiry: 'none', expiresAt: null, detail: 'Die Registry hat keinen RDAP-Server (IANA-Bootstrap).' }
  const url = new URL(`domain/${encodeURIComponent(ascii)}`, base)
  const fetched = await boundedGet(url, { ...options, maxBytes: RDAP_MAX_BYTES, headers: { accept: 'application/rdap+json, application/json' } })
  const server = base.host
  if (!fetched.ok) return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: ${fetched.error}` }
  if (fetched.cut)
    return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: die Antwort ist größer als ${RDAP_MAX_BYTES / 1024} KiB und wurde abgeschnitten` }
  if (fetched.status === 404) return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: die Registry kennt den Namen nicht (404)` }
  if (fetched.status !== 200) return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: HTTP ${fetched.status}` }
  let answer: z.infer<typeof domainAnswer>
  try {
    answer = domainAnswer.parse(JSON.parse(fetched.body.toString('utf8')))
  } catch {
    return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: keine lesbare RDAP-Antwort` }
  }
  const event = answer.events.find((candidate) => candidate.eventAction === 'expiration')
  const at = event ? Date.parse(event.eventDate) : Number.NaN
  // RFC 3339 only; a date that does not parse (or carries anything else) is not shown.
  if (!event || !/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})$/.test(event.eventDate) || Number.isNaN(at)) {
    return { expiry: 'unknown', expiresAt: null, detail: `RDAP ${server}: kein Ablaufdatum in der Antwort` }
  }
  return { expiry: 'known', expiresAt: at, detail: `RDAP ${server}` }
}
