// A labelled text input of a console form: the label above, the value held by the form's state.
import type { InputHTMLAttributes } from 'react'

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>

export function TextField({
  id,
  label,
  value,
  onChange,
  ...input
}: { id: string; label: string; value: string; onChange: (value: string) => void } & InputProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)} {...input} />
    </div>
  )
}
