// "Domains" on a server without a domains file: what one is for, and a form that makes one.
import { useState, type FormEvent } from 'react'
import { domainsCreatedSchema, type DomainsCreateRequest } from '../../../shared/domains-api.ts'
import { callApi } from '../../api.ts'
import { ErrorText } from '../../ErrorText.tsx'
import { TextField } from '../../TextField.tsx'

export function NoFile({ suggestedFile }: { suggestedFile: string }) {
  const [name, setName] = useState('')
  const [created, setCreated] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    const body: DomainsCreateRequest = { name }
    const result = await callApi('POST', '/api/domains/create', domainsCreatedSchema, body)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    setCreated(result.data.file)
  }
  return (
    <>
      <p>
        Dieser Server hat keine Domains-Datei: er zeigt jede Domain, die auf ihn zeigt, mit den Vorgaben. Mit einer Domains-Datei legen Sie fest, welche Domains
        er anbietet, zu welchem Preis und in welchem Status. Die Datei ist YAML (oder JSON) und in docs/domains.md beschrieben; der Server liest sie aus der
        Umgebungsvariablen DOMAINS_FILE.
      </p>
      {created ? (
        <p className="notice-ok" role="status">
          Angelegt: <code>{created}</code>. Setzen Sie nun <code>DOMAINS_FILE={created}</code> (z. B. in der systemd-Unit oder der .env-Datei) und starten Sie
          den Server neu; danach bearbeiten Sie die Domains hier.
        </p>
      ) : (
        <form className="domain-form" onSubmit={create} aria-label="Domains-Datei anlegen">
          <TextField id="first-domain" label="Erste Domain" value={name} onChange={setName} required maxLength={300} placeholder="beispiel.de" />
          <button type="submit" className="button" disabled={busy}>
            Domains-Datei anlegen
          </button>
          <p className="muted">
            Wird angelegt als <code>{suggestedFile}</code>.
          </p>
        </form>
      )}
      {error && <ErrorText>{error}</ErrorText>}
    </>
  )
}
