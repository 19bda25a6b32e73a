// "Vorlagen": the text of each negotiation mail (Gegenangebot, Annahme, Ablehnung; a checkout's in English; "bereits
// verkauft") as the owner wants it, with placeholders the server fills in; an unknown placeholder is refused with the
// list of the allowed ones.
import { useState, type FormEvent } from 'react'
import { templatesPageSchema, type DealTemplateView, type TemplatesPage as TemplatesData } from '../../shared/console-api.ts'
import { callApi } from '../api.ts'
import { ErrorText } from '../ErrorText.tsx'

const PLACEHOLDER_HELP: Record<string, string> = {
  domain: 'die Domain',
  betrag: 'der Betrag in der Währung der Anfrage',
  frist: 'bis wann das Gegenangebot gilt (Datum und Uhrzeit, Berlin)',
  notiz: 'Ihre Notiz zur Aktion (leer, wenn keine)',
  link: 'der Link zur Kaufseite des Käufers (ohne vereinbarten Betrag gibt es keine: dann entfällt der Absatz)',
}

function TemplateForm({ template, onSaved }: { template: DealTemplateView; onSaved: (data: TemplatesData) => void }) {
  const [text, setText] = useState(template.text)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const id = `template-${template.kind}`

  async function send(method: 'POST' | 'DELETE', done: string) {
    setBusy(true)
    setError(null)
    setNotice(null)
    const result = await callApi(method, `/api/templates/${template.kind}`, templatesPageSchema, method === 'POST' ? { text } : undefined)
    setBusy(false)
    if (result.status === 'error') return setError(result.error)
    const saved = result.data.templates.find((entry) => entry.kind === template.kind)
    if (saved) setText(saved.text)
    setNotice(done)
    onSaved(result.data)
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    void send('POST', 'Vorlage gespeichert.')
  }

  return (
    <form className="template-form" aria-label={template.label} onSubmit={save}>
      <h2>{template.label}</h2>
      <div className="field">
        <label htmlFor={id}>Text der Mail „{template.label}“</label>
        <textarea
          id={id}
          name="text"
          lang={template.language}
          rows={12}
          required
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={`${id}-help`}
        />
      </div>
      <div id={`${id}-help`} className="muted">
        <p>{template.isDefault ? 'Die mitgelieferte Vorlage.' : 'Ihre eigene Vorlage.'} Platzhalter:</p>
        <ul>
          {template.placeholders.map((name) => (
            <li key={name}>
              <code>{`{${name}}`}</code> {PLACEHOLDER_HELP[name] ?? ''}
            </li>
          ))}
        </ul>
      </div>
      {error && <ErrorText>{error}</ErrorText>}
      {notice && (
        <p className="notice-ok" role="status">
          {notice}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          Speichern
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={busy || template.isDefault}
          onClick={() => void send('DELETE', 'Mitgelieferte Vorlage wiederhergestellt.')}
        >
          Standard wiederherstellen
        </button>
      </div>
    </form>
  )
}

export function TemplatesPage({ initial }: { initial: TemplatesData }) {
  const [data, setData] = useState(initial)
  return (
    <article className="templates">
      <h1>Vorlagen</h1>
      <p className="muted">
        Der Text der Mails an Interessenten bei Gegenangebot, Annahme und Ablehnung, bei Bestätigung und Absage eines Kaufs zum Festpreis auf einer nicht
        deutschen Seite (auf einer deutschen gelten Annahme und Ablehnung) und für „Bereits verkauft“ an die übrigen Interessenten, wenn ein Verkauf
        abgeschlossen wird: je eine Vorlage für jede Sprache der Seiten (deutsch, englisch, französisch, spanisch, italienisch, niederländisch, polnisch). Jede
        Person bekommt die Vorlage der Sprache, in der sie geschrieben hat. Unter dem Text steht in der Mail die Anfrage der Person als Zitat.
      </p>
      {data.templates.map((template) => (
        <TemplateForm key={template.kind} template={template} onSaved={setData} />
      ))}
    </article>
  )
}
