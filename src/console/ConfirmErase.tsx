// The question before anything is erased for good (an inquiry, or everything about one person): an in-page dialog,
// so the keyboard and screen readers reach it like the rest of the page.
import type { ReactNode } from 'react'

export function ConfirmErase(props: { id: string; question: string; children: ReactNode; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div className="confirm" role="alertdialog" aria-labelledby={props.id}>
      <p id={props.id}>{props.question}</p>
      <p className="muted">{props.children}</p>
      <div className="actions">
        <button type="button" className="button danger" disabled={props.busy} onClick={props.onConfirm}>
          Endgültig löschen
        </button>
        <button type="button" className="button secondary" onClick={props.onCancel}>
          Abbrechen
        </button>
      </div>
    </div>
  )
}
