// A labelled choice of a console form: the label above, the options from one table of value → German label, so a
// list of choices (the languages, the statuses) is written once and shown everywhere from there.

export interface SelectFieldProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  /** Value → label, in the order shown. */
  options: Readonly<Record<string, string>>
  /** A first choice with the value "" (e.g. "wie Vorgabe", "unverändert"); none when absent. */
  empty?: string
}

export function SelectField({ id, label, value, onChange, options, empty }: SelectFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {Object.entries(options).map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The choice of a yes/no setting ("Gelistet"). */
export const YES_NO = { true: 'ja', false: 'nein' } as const
