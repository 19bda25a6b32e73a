// "Anmeldung": the owner's passkeys (added, listed, removed) and the second factor for the password (set up with a
// QR code and one code, recovery codes shown once, switched off with a code). Decision 041.
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser'
import { useState, type FormEvent } from 'react'
import { CONSOLE_PATHS } from '../../shared/console-api.ts'
import {
  PASSKEY_NAME_MAX,
  passkeyOptionsSchema,
  secondFactorConfirmedSchema,
  secondFactorSetupSchema,
  securityPageDataSchema,
  signedOutSchema,
  type SecondFactorSetup,
  type SecurityPageData,
} from '../../shared/sign-in-api.ts'
import { callApi, go } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'
import { formatTime } from '../format.ts'

export function SecurityPage({ initial }: { initial: SecurityPageData }) {
  const [data, setData] = useState(initial)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [setup, setSetup] = useState<SecondFactorSetup | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  async function run<T>(work: () => Promise<{ status: 'success'; data: T } | { status: 'error'; error: string }>): Promise<T | null> {
    setBusy(true)
    setError(null)
    setNotice(null)
    const result = await work()
    setBusy(false)
    if (result.status === 'error') {
      setError(result.error)
      return null
    }
    return result.data
  }

  async function addPasskey(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const name = String(new FormData(form).get('name') ?? '')
    const changed = await run(async () => {
      const options = await callApi('POST', '/api/passkeys/options', passkeyOptionsSchema<PublicKeyCredentialCreationOptionsJSON>())
      if (options.status === 'error') return options
      let response
      try {
        response = await startRegistration({ optionsJSON: options.data })
      } catch {
        return { status: 'error' as const, error: 'Der Passkey wurde nicht angelegt (abgebrochen oder nicht verfügbar).' }
      }
      return callApi('POST', '/api/passkeys', securityPageDataSchema, { name, response })
    })
    if (changed) {
      setData(changed)
      form.reset()
      setNotice('Passkey hinzugefügt.')
    }
  }

  async function removePasskey(id: number) {
    const changed = await run(() => callApi('DELETE', `/api/passkeys/${id}`, securityPageDataSchema))
    if (changed) {
      setData(changed)
      setNotice('Passkey entfernt.')
    }
  }

  async function startSetup() {
    const started = await run(() => callApi('POST', '/api/second-factor/setup', secondFactorSetupSchema))
    if (started) setSetup(started)
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const code = String(new FormData(event.currentTarget).get('code') ?? '')
    const confirmed = await run(() => callApi('POST', '/api/second-factor/confirm', secondFactorConfirmedSchema, { code }))
    if (confirmed) {
      setSetup(null)
      setRecoveryCodes(confirmed.recoveryCodes)
      setData((current) => ({ ...current, secondFactor: { on: true, recoveryCodesLeft: confirmed.recoveryCodes.length } }))
    }
  }

  async function disable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const code = String(new FormData(event.currentTarget).get('code') ?? '')
    const done = await run(() => callApi('POST', '/api/second-factor/disable', signedOutSchema, { code }))
    // Switching it off ends every session, this one too.
    if (done !== null) go(CONSOLE_PATHS.signin)
  }

  return (
    <div className="security">
      <h1>Anmeldung</h1>
      {error && <ErrorText>{error}</ErrorText>}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <section className="card" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p>Mit einem Passkey melden Sie sich ohne Passwort an: mit Fingerabdruck, Gesichtserkennung, PIN oder Sicherheitsschlüssel.</p>
        {data.passkeyProblem && <p className="warning">{data.passkeyProblem}</p>}
        {data.passkeys.length === 0 ? (
          <p className="empty">Noch kein Passkey.</p>
        ) : (
          <ul className="passkeys">
            {data.passkeys.map((passkey) => (
              <li key={passkey.id}>
                <span className="passkey-name">{passkey.name}</span>{' '}
                <span className="muted">
                  · angelegt {formatTime(passkey.createdAt)}
                  {passkey.lastUsedAt !== null && ` · zuletzt benutzt ${formatTime(passkey.lastUsedAt)}`}
                </span>{' '}
                <button
                  type="button"
                  className="button secondary"
                  onClick={() => removePasskey(passkey.id)}
                  disabled={busy}
                  aria-label={`Passkey ${passkey.name} entfernen`}
                >
                  Entfernen
                </button>
              </li>
            ))}
          </ul>
        )}
        {!data.passkeyProblem && (
          <form onSubmit={addPasskey} className="inline-form">
            <div className="field">
              <label htmlFor="passkey-name">Name des Passkeys</label>
              <input id="passkey-name" name="name" type="text" required maxLength={PASSKEY_NAME_MAX} placeholder="z. B. Laptop" />
            </div>
            <button type="submit" className="button" disabled={busy}>
              Passkey hinzufügen
            </button>
          </form>
        )}
      </section>

      <section className="card" aria-labelledby="second-factor-heading">
        <h2 id="second-factor-heading">Zweiter Faktor für das Passwort</h2>
        {recoveryCodes && (
          <div className="recovery-codes">
            <p>
              <strong>Der zweite Faktor ist eingeschaltet.</strong> Bewahren Sie diese Wiederherstellungscodes sicher auf: jeder gilt einmal, falls das Telefon
              fehlt. Sie werden nur jetzt angezeigt.
            </p>
            <ul aria-label="Wiederherstellungscodes">
              {recoveryCodes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
        {data.secondFactor.on ? (
          <>
            <p>
              Eingeschaltet: nach dem Passwort fragt die Konsole nach dem Code aus der App. Übrige Wiederherstellungscodes:{' '}
              {data.secondFactor.recoveryCodesLeft}.
            </p>
            <form onSubmit={disable} className="inline-form">
              <div className="field">
                <label htmlFor="disable-code">Code zum Ausschalten</label>
                <input id="disable-code" name="code" type="text" autoComplete="one-time-code" required />
              </div>
              <button type="submit" className="button secondary" disabled={busy}>
                Zweiten Faktor ausschalten
              </button>
            </form>
          </>
        ) : setup ? (
          <div className="totp-setup">
            <p>Scannen Sie den Code mit einer Authenticator-App, oder geben Sie den Schlüssel von Hand ein. Bestätigen Sie dann mit dem ersten Code.</p>
            <svg
              viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
              width="220"
              height="220"
              role="img"
              aria-label="QR-Code für die Authenticator-App"
              shapeRendering="crispEdges"
            >
              <rect width={setup.qr.size} height={setup.qr.size} fill="#fff" />
              <path d={setup.qr.path} fill="#000" />
            </svg>
            <p>
              Schlüssel: <code data-testid="totp-secret">{setup.secret}</code>
            </p>
            <form onSubmit={confirm} className="inline-form">
              <div className="field">
                <label htmlFor="confirm-code">Code aus der App</label>
                <input id="confirm-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" required />
              </div>
              <button type="submit" className="button" disabled={busy}>
                Einschalten
              </button>
            </form>
          </div>
        ) : (
          <>
            <p>Aus. Mit dem zweiten Faktor genügt das Passwort allein nicht mehr: die Konsole fragt zusätzlich nach einem Code aus einer Authenticator-App.</p>
            <button type="button" className="button" onClick={startSetup} disabled={busy}>
              Zweiten Faktor einrichten
            </button>
          </>
        )}
      </section>
    </div>
  )
}
