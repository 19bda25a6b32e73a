// The frame of every signed-in page: the top navigation and "Abmelden".
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { AUDIT_PATH } from '../shared/audit-api.ts'
import { CONSOLE_PATHS } from '../shared/console-api.ts'
import { DOMAINS_PATH } from '../shared/domains-api.ts'
import { IMPORT_PATH } from '../shared/import-api.ts'
import { PRIVACY_PATH } from '../shared/privacy-api.ts'
import { SIGN_IN_PATHS } from '../shared/sign-in-api.ts'
import { callApi, go, noContent } from './api.ts'
import { ErrorText } from './ErrorText.tsx'

type Section = 'inbox' | 'sales' | 'outbox' | 'overview' | 'templates' | 'privacy' | 'domains' | 'import' | 'security' | 'sessions' | 'audit'

type Link = { section: Section; href: string; label: string }

/** Always in view: the daily work. */
const LINKS: Link[] = [
  { section: 'inbox', href: CONSOLE_PATHS.inbox, label: 'Posteingang' },
  { section: 'sales', href: CONSOLE_PATHS.sales, label: 'Verkäufe' },
  { section: 'outbox', href: CONSOLE_PATHS.outbox, label: 'Postausgang' },
  { section: 'overview', href: CONSOLE_PATHS.overview, label: 'Übersicht' },
  { section: 'domains', href: DOMAINS_PATH, label: 'Domains' },
  { section: 'audit', href: AUDIT_PATH, label: 'Protokoll' },
]

/** Behind "Verwaltung": pages used now and then. Eleven links in one row wrap at 1280 px. */
const ADMINISTRATION: Link[] = [
  { section: 'templates', href: CONSOLE_PATHS.templates, label: 'Vorlagen' },
  { section: 'import', href: IMPORT_PATH, label: 'Import' },
  { section: 'privacy', href: PRIVACY_PATH, label: 'Datenschutz' },
  { section: 'security', href: SIGN_IN_PATHS.security, label: 'Anmeldung' },
  { section: 'sessions', href: SIGN_IN_PATHS.sessions, label: 'Sitzungen' },
]

function NavLink({ link, current }: { link: Link; current: Section }) {
  return (
    <li>
      <a href={link.href} aria-current={link.section === current ? 'page' : undefined}>
        {link.label}
      </a>
    </li>
  )
}

/**
 * A native disclosure: Tab reaches "Verwaltung", Enter or Space opens it, Tab walks its links, and it works before
 * the script has loaded. Escape and a click elsewhere close it again.
 */
function AdministrationMenu({ current }: { current: Section }) {
  const menu = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const closeOutside = (event: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) menu.current.open = false
    }
    document.addEventListener('click', closeOutside)
    return () => document.removeEventListener('click', closeOutside)
  }, [])
  function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
    if (event.key !== 'Escape' || !menu.current?.open) return
    menu.current.open = false
    menu.current.querySelector('summary')?.focus()
  }
  const inside = ADMINISTRATION.some((link) => link.section === current)
  return (
    <details ref={menu} className="nav-menu" onKeyDown={closeOnEscape}>
      <summary className={inside ? 'current' : undefined}>Verwaltung</summary>
      <ul>
        {ADMINISTRATION.map((link) => (
          <NavLink key={link.section} link={link} current={current} />
        ))}
      </ul>
    </details>
  )
}

export function Layout({ current, children }: { current: Section; children: ReactNode }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function signOut() {
    setBusy(true)
    const result = await callApi('DELETE', '/api/session', noContent)
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
              <NavLink key={link.section} link={link} current={current} />
            ))}
            <li>
              <AdministrationMenu current={current} />
            </li>
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
