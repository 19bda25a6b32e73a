// The frame of every signed-in page: the top navigation and "Abmelden".
import { useState, type ReactNode } from 'react'
import { AUDIT_PATH } from '../shared/audit-api.ts'
import { CONSOLE_PATHS } from '../shared/console-api.ts'
import { DOMAINS_PATH } from '../shared/domains-api.ts'
import { IMPORT_PATH } from '../shared/import-api.ts'
import { PRIVACY_PATH } from '../shared/privacy-api.ts'
import { SIGN_IN_PATHS } from '../shared/sign-in-api.ts'
import { callApi, go } from './api.ts'
import { ErrorText } from './ErrorText.tsx'

type Section = 'inbox' | 'sales' | 'outbox' | 'overview' | 'templates' | 'privacy' | 'domains' | 'import' | 'security' | 'sessions' | 'audit'

const LINKS: { section: Section; href: string; label: string }[] = [
  { section: 'inbox', href: CONSOLE_PATHS.inbox, label: 'Posteingang' },
  { section: 'sales', href: CONSOLE_PATHS.sales, label: 'Verkäufe' },
  { section: 'outbox', href: CONSOLE_PATHS.outbox, label: 'Postausgang' },
  { section: 'overview', href: CONSOLE_PATHS.overview, label: 'Übersicht' },
  { section: 'templates', href: CONSOLE_PATHS.templates, label: 'Vorlagen' },
  { section: 'privacy', href: PRIVACY_PATH, label: 'Datenschutz' },
  { section: 'domains', href: DOMAINS_PATH, label: 'Domains' },
  { section: 'import', href: IMPORT_PATH, label: 'Import' },
  { section: 'security', href: SIGN_IN_PATHS.security, label: 'Anmeldung' },
  { section: 'sessions', href: SIGN_IN_PATHS.sessions, label: 'Sitzungen' },
  { section: 'audit', href: AUDIT_PATH, label: 'Protokoll' },
]

export function Layout({ current, children }: { current: Section; children: ReactNode }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function signOut() {
    setBusy(true)
    const result = await callApi('DELETE', '/api/session')
    if (result.status === 'success') return go(CONSOLE_PATHS.signin)
    setBusy(false)
    setError(result.error)
  }

  return (
    <>
      <header className="topbar">
        <nav aria-label="Konsole" className="nav">
          <ul>
            {LINKS.map((link) => (
              <li key={link.section}>
                <a href={link.href} aria-current={link.section === current ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="button secondary" onClick={signOut} disabled={busy}>
          Abmelden
        </button>
      </header>
      {error && <ErrorText>{error}</ErrorText>}
      <main className="main">{children}</main>
    </>
  )
}
