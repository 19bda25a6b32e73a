// "Sitzungen": every session signed in now, with "Abmelden" for each and "Überall abmelden" (decision 041).
import { useState } from 'react'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import { sessionsPageDataSchema, type SessionsPageData } from '../../shared/sign-in-api.ts'
import { callApi, go, noContent } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'

const METHOD_LABEL: Record<string, string> = {
  password: 'Passwort',
  'password+totp': 'Passwort und Code',
  'password+recovery': 'Passwort und Wiederherstellungscode',
  passkey: 'Passkey',
}

export function SessionsPage({ initial }: { initial: SessionsPageData }) {
  const [sessions, setSessions] = useState(initial.sessions)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function signOut(ref: string, current: boolean) {
    setBusy(true)
    setError(null)
    const result = await callApi('DELETE', `/api/sessions/${ref}`, sessionsPageDataSchema)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    if (current) return go(CONSOLE_PATHS.signin)
    setSessions(result.data.sessions)
  }

  async function signOutEverywhere() {
    setBusy(true)
    const result = await callApi('DELETE', '/api/sessions', noContent)
    if (result.status === 'success') return go(CONSOLE_PATHS.signin)
    setBusy(false)
    setError(result.error)
  }

  return (
    <div className="sessions">
      <h1>Sitzungen</h1>
      {error && <ErrorText>{error}</ErrorText>}
      <table>
        <thead>
          <tr>
            <th scope="col">Browser</th>
            <th scope="col">Adresse</th>
            <th scope="col">Angemeldet</th>
            <th scope="col">Zuletzt benutzt</th>
            <th scope="col">
              <span className="visually-hidden">Aktion</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.ref}>
              <td data-label="Browser">
                {session.browser}
                {session.current && <strong> (diese Sitzung)</strong>}
              </td>
              <td data-label="Adresse">{session.address ?? '–'}</td>
              <td data-label="Angemeldet">
                {formatTime(session.createdAt)}
                {session.method && <span className="muted"> · {METHOD_LABEL[session.method] ?? session.method}</span>}
              </td>
              <td data-label="Zuletzt benutzt">{formatTime(session.lastSeenAt)}</td>
              <td>
                <button type="button" className="button secondary" onClick={() => signOut(session.ref, session.current)} disabled={busy}>
                  Abmelden
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" className="button" onClick={signOutEverywhere} disabled={busy}>
          Überall abmelden
        </button>
      </p>
    </div>
  )
}
