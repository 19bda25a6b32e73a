// The audit trail (decision 043): what the page "Protokoll" and the server exchange, and the names of the actions.
// Nothing here may import server code.
import * as z from 'zod/mini'

export const AUDIT_PATH = '/protokoll'

/** Every action the trail knows, with the label the console and the CLI show. */
export const AUDIT_ACTIONS = {
  'sign-in': 'Anmeldung',
  'sign-out': 'Abmeldung',
  'session-end': 'Sitzung beendet',
  'sessions-end-all': 'Überall abgemeldet',
  password: 'Passwort gesetzt',
  'passkey-add': 'Passkey hinzugefügt',
  'passkey-remove': 'Passkey entfernt',
  'second-factor-on': 'Zweiter Faktor eingeschaltet',
  'second-factor-off': 'Zweiter Faktor ausgeschaltet',
  reply: 'Antwort',
  counter: 'Gegenangebot',
  accept: 'Angenommen',
  decline: 'Abgelehnt',
  'checkout-confirm': 'Kauf bestätigt',
  'checkout-decline': 'Kauf abgelehnt',
  archive: 'Archiviert',
  unarchive: 'Zurückgeholt',
  spam: 'Als Spam markiert',
  'not-spam': 'Kein Spam',
  erase: 'Anfrage gelöscht',
  resend: 'Mail erneut gesendet',
  'deal-paid': 'Zahlung erhalten',
  'deal-transfer': 'Übertragen',
  'deal-complete': 'Abgeschlossen',
  'deal-deadline': 'Frist geändert',
  'deal-cancel': 'Verkauf abgebrochen',
  'deal-invoice': 'Rechnung ausgestellt',
  'deal-rate-paid': 'Rate erhalten',
  'deal-rate-wait': 'Rate abgewartet',
  'bank-statement': 'Kontoauszug übernommen',
  template: 'Vorlage geändert',
  import: 'Domains importiert',
  'domain-edit': 'Domain geändert',
  forget: 'Person gelöscht',
} as const

export type AuditAction = keyof typeof AUDIT_ACTIONS

export const AUDIT_OUTCOMES = { ok: 'erledigt', refused: 'abgewiesen', failed: 'fehlgeschlagen' } as const

export type AuditOutcome = keyof typeof AUDIT_OUTCOMES

export const isAuditAction = (value: string): value is AuditAction => Object.hasOwn(AUDIT_ACTIONS, value)

/** One row as the console shows it: the domain as people read it (shown as text). */
const auditEntryViewSchema = z.object({
  id: z.number(),
  at: z.number(),
  /** "CLI", "Sitzung 1a2b3c4d", or "unbekannt" (a failed sign-in). */
  actor: z.string(),
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]),
  outcome: z.enum(Object.keys(AUDIT_OUTCOMES) as [AuditOutcome, ...AuditOutcome[]]),
  inquiryId: z.nullable(z.number()),
  dealId: z.nullable(z.number()),
  domain: z.nullable(z.string()),
  detail: z.nullable(z.string()),
})
export type AuditEntryView = z.infer<typeof auditEntryViewSchema>

/** The page's filter, as in its query string (empty fields mean none). */
const auditQuerySchema = z.object({
  since: z.optional(z.string()),
  until: z.optional(z.string()),
  action: z.optional(z.string()),
  /** An inquiry ("A12" or "12"), a deal ("V3") or a domain. */
  subject: z.optional(z.string()),
  cursor: z.optional(z.string()),
})
export type AuditQuery = z.infer<typeof auditQuerySchema>

/** GET /protokoll and GET /api/audit */
export const auditPageSchema = z.object({
  query: auditQuerySchema,
  entries: z.array(auditEntryViewSchema),
  /** The next (older) page's cursor, or null when this is the last. */
  next: z.nullable(z.string()),
})
export type AuditPage = z.infer<typeof auditPageSchema>
