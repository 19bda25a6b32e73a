// Signs in with JSON (fetch); the form's own POST is only the fallback before the script has loaded. With the second
// factor on, the password is followed by a code; with a passkey, nothing else is asked (decision 041).
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useState, type FormEvent } from 'react'
import { CONSOLE_PATHS, type SignInRequest } from '../../shared/console-api.ts'
import { passkeyOptionsSchema, signInAnswerSchema } from '../../shared/sign-in-api.ts'
import { callApi, go, noContent } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'

export function SignIn({ error: initialError, passkey }: { error?: string; passkey?: boolean }) {
  const [error, setError] = useState(initialError ?? null)
  const [busy, setBusy] = useState(false)
  /** The password, kept while the code is asked for: it is sent again with the code. */
  const [password, setPassword] = useState<string | null>(null)

  async function send(body: SignInRequest) {
    setBusy(true)
    setError(null)
    const result = await callApi('POST', '/api/session', signInAnswerSchema, body, { signIn: true })
    if (result.status === 'success' && result.data?.secondFactor) {
      setPassword(body.password)
      setBusy(false)
      return
    }
    if (result.status === 'success') return go(CONSOLE_PATHS.inbox)
    setBusy(false)
    setError(result.error)
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    if (password === null) {
      const typed = form.get('password')
      return send({ password: typeof typed === 'string' ? typed : '' })
    }
    const code = form.get('code')
    return send({ password, code: typeof code === 'string' ? code : '' })
  }

  async function withPasskey() {
    setBusy(true)
    setError(null)
    const options = await callApi('POST', '/api/session/passkey/options', passkeyOptionsSchema<PublicKeyCredentialRequestOptionsJSON>(), undefined, {
      signIn: true,
    })
    if (options.status === 'error') {
      setBusy(false)
      return setError(options.error)
    }
    let response
    try {
      response = await startAuthentication({ optionsJSON: options.data })
    } catch {
      setBusy(false)
      return setError('Der Passkey wurde nicht benutzt (abgebrochen oder nicht verfügbar).')
    }
    const result = await callApi('POST', '/api/session/passkey', noContent, { response }, { signIn: true })
    if (result.status === 'success') return go(CONSOLE_PATHS.inbox)
    setBusy(false)
    setError(result.error)
  }

  return (
    <main className="main narrow">
      <h1>Konsole</h1>
      <form className="card signin" method="post" action="/api/session" onSubmit={submit}>
        {password === null ? (
          <div className="field">
            <label htmlFor="password">Passwort</label>
            <input id="password" name="password" type="password" autoComplete="current-password" required autoFocus />
          </div>
        ) : (
          <div className="field">
            <label htmlFor="code">Code aus der App oder Wiederherstellungscode</label>
            <input id="code" name="code" type="text" autoComplete="one-time-code" spellCheck={false} required autoFocus />
          </div>
        )}
        {error && <ErrorText>{error}</ErrorText>}
        <button type="submit" className="button" disabled={busy}>
          {password === null ? 'Anmelden' : 'Bestätigen'}
        </button>
      </form>
      {passkey && password === null && (
        <p className="signin-passkey">
          <button type="button" className="button secondary" onClick={withPasskey} disabled={busy}>
            Mit Passkey anmelden
          </button>
        </p>
      )}
    </main>
  )
}
