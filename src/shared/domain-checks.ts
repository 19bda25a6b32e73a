// The daily checks of every listed name (docs/domains.md, decision 047): does it point to this server, are its
// _for-sale records in step, when does it expire. Shared by the server, the CLI and the console; no server code here.
import * as z from 'zod/mini'

export type PointingState = 'here' | 'elsewhere' | 'unknown'
export type RecordsState = 'ok' | 'missing' | 'stale' | 'left-over' | 'malformed' | 'unknown'
/** `none`: the registry has no RDAP server in IANA's bootstrap file (such as .de), so the date cannot be known. */
export type ExpiryState = 'known' | 'none' | 'unknown'

/** One name's last check. Every text here came from the network in part: shown as text, never as markup. */
const domainCheckShape = {
  /** ASCII (punycode). */
  domain: z.string(),
  checkedAt: z.number(),
  pointing: z.enum(['here', 'elsewhere', 'unknown']),
  pointingDetail: z.string(),
  records: z.enum(['ok', 'missing', 'stale', 'left-over', 'malformed', 'unknown']),
  recordsDetail: z.string(),
  expiry: z.enum(['known', 'none', 'unknown']),
  /** Epoch ms: the date RDAP gave, also kept (as the last one known) while RDAP cannot be asked; else null. */
  expiresAt: z.nullable(z.number()),
  expiryDetail: z.string(),
  /** When RDAP was last asked (it is asked less often than DNS, decision 047). */
  rdapCheckedAt: z.nullable(z.number()),
}
export type DomainCheck = z.infer<z.ZodMiniObject<typeof domainCheckShape>>

/** A name expiring sooner than this is shown in red and notified (domain.expiring). */
export const EXPIRING_DAYS = 30
const DAY_MS = 86_400_000

export const isExpiringSoon = (check: Pick<DomainCheck, 'expiresAt'>, now: number) => check.expiresAt !== null && check.expiresAt - now < EXPIRING_DAYS * DAY_MS

export const POINTING_LABEL: Record<PointingState, string> = {
  here: 'zeigt hierher',
  elsewhere: 'zeigt nicht hierher',
  unknown: 'Ziel unbekannt',
}

export const RECORDS_LABEL: Record<RecordsState, string> = {
  ok: 'Eintrag aktuell',
  missing: 'Eintrag fehlt',
  stale: 'Eintrag veraltet',
  'left-over': 'Eintrag übrig (verkauft)',
  malformed: 'Eintrag fehlerhaft',
  unknown: 'Eintrag unbekannt',
}

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' })

/** "läuft ab am 05.12.2026", "Ablauf unbekannt", or "Ablauf nicht abfragbar" (no RDAP for the TLD). */
export function expiryLabel(check: Pick<DomainCheck, 'expiry' | 'expiresAt'>): string {
  const date = check.expiresAt === null ? null : `läuft ab am ${berlinDate.format(new Date(check.expiresAt))}`
  if (check.expiry === 'known' && date) return date
  if (check.expiry === 'none') return 'Ablauf nicht abfragbar'
  return date ? `Ablauf unbekannt (zuletzt: ${date})` : 'Ablauf unbekannt'
}

/** The name needs the owner: not pointing here, records not in step, or expiring soon. */
export const needsAttention = (check: DomainCheck, now: number) =>
  check.pointing === 'elsewhere' || (check.records !== 'ok' && check.records !== 'unknown') || isExpiringSoon(check, now)

/** GET /api/domain-checks (console): the checks of the names listed, those that need attention first. */
export const domainChecksPageSchema = z.object({
  now: z.number(),
  /** Names in the domains file that have no check yet (attention=1 only). */
  unchecked: z.number(),
  /** How many need attention (attention=1: `checks` holds the most urgent of them). */
  total: z.number(),
  /** Each with its name as people read it. */
  checks: z.array(z.object({ ...domainCheckShape, name: z.string() })),
})
export type DomainChecksPage = z.infer<typeof domainChecksPageSchema>
