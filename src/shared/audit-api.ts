// The audit trail (decision 043): what the page "Protokoll" and the server exchange, and the names of the actions.
// Nothing here may import server code.

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
export interface AuditEntryView {
  id: number
  at: number
  /** "CLI", "Sitzung 1a2b3c4d", or "unbekannt" (a failed sign-in). */
  actor: string
  action: AuditAction
  outcome: AuditOutcome
  inquiryId: number | null
  dealId: number | null
  domain: string | null
  detail: string | null
}

/** The page's filter, as in its query string (empty fields mean none). */
export interface AuditQuery {
  since?: string
  until?: string
  action?: string
  /** An inquiry ("A12" or "12"), a deal ("V3") or a domain. */
  subject?: string
  cursor?: string
}

/** GET /protokoll and GET /api/audit */
export interface AuditPage {
  query: AuditQuery
  entries: AuditEntryView[]
  /** The next (older) page's cursor, or null when this is the last. */
  next: string | null
}
