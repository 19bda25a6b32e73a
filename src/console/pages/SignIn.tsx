// Signs in with JSON (fetch); the form's own POST is only the fallback before the script has loaded.
import { useState, type FormEvent } from 'react'
import { CONSOLE_PATHS, type SignInRequest } from '../../shared/console-api.ts'
import { callApi, go } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'

export function SignIn({ error: initialError }: { error?: string }) {
  const [error, setError] = useState(initialError ?? null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const password = new FormData(event.currentTarget).get('password')
    setBusy(true)
    setError(null)
    const body: SignInRequest = { password: typeof password === 'string' ? password : '' }
    const result = await callApi('POST', '/api/session', body, { signIn: true })
    if (result.status === 'success') return go(CONSOLE_PATHS.inbox)
    setBusy(false)
    setError(result.error)
  }

  return (
    <main className="main narrow">
      <h1>Konsole</h1>
      <form className="card signin" method="post" action="/api/session" onSubmit={submit}>
        <div className="field">
          <label htmlFor="password">Passwort</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required autoFocus />
        </div>
        {error && <ErrorText>{error}</ErrorText>}
        <button type="submit" className="button" disabled={busy}>
          Anmelden
        </button>
      </form>
    </main>
  )
}
