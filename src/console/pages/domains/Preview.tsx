// What a preview of an edit shows (Domains.tsx): the problems the server found and the changes to the file, every
// value from the file as text (<bdi>).
import type { DomainDiff, DomainEditProblem, EditableField } from '../../../shared/domains-api.ts'
import { formatNumber } from '../../format.ts'
import { FIELD, shown } from './labels.ts'

export function ProblemText({ problem }: { problem: DomainEditProblem }) {
  switch (problem.kind) {
    case 'name':
      return (
        <>
          „<bdi>{problem.value}</bdi>“ ist kein Domainname.
        </>
      )
    case 'wildcard':
      return (
        <>
          „<bdi>{problem.value}</bdi>“ ist ein Platzhalter; Platzhalter werden in der Datei selbst bearbeitet.
        </>
      )
    case 'unknown':
      return (
        <>
          <bdi>{problem.name}</bdi> steht nicht in der Domains-Datei.
        </>
      )
    case 'exists':
      return (
        <>
          <bdi>{problem.name}</bdi> steht schon in der Domains-Datei.
        </>
      )
    case 'twice':
      return (
        <>
          <bdi>{problem.name}</bdi> wird zweimal geändert (hinzufügen oder entfernen nur allein).
        </>
      )
    case 'no-price':
      return (
        <>
          <bdi>{problem.name}</bdi> hat keinen eigenen Preis; er bleibt unverändert (nur ein Hinweis).
        </>
      )
    case 'domains-file':
      return (
        <>
          Domains-Datei: <bdi>{problem.message}</bdi>
        </>
      )
    case 'refused':
      return (
        <>
          Der Server würde die Domains-Datei danach nicht laden: <bdi>{problem.message}</bdi>
        </>
      )
    case 'changed':
      return <>Die Domains-Datei wurde inzwischen geändert. Bitte die Vorschau neu laden.</>
    case 'busy':
    case 'write':
      return (
        <>
          Die Domains-Datei bleibt, wie sie war: <bdi>{problem.message}</bdi>
        </>
      )
  }
}

const KIND = { added: 'neu', changed: 'geändert', removed: 'entfernt' } as const

export function DiffTable({ changes }: { changes: DomainDiff[] }) {
  return (
    <table className="list domains-diff">
      <caption>Änderungen ({formatNumber(changes.length)})</caption>
      <thead>
        <tr>
          <th scope="col">Domain</th>
          <th scope="col">Art</th>
          <th scope="col">Vorher → nachher</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          const fields = (Object.keys(FIELD) as EditableField[]).filter((field) => (change.before?.[field] ?? null) !== (change.after?.[field] ?? null))
          return (
            <tr key={change.name}>
              <th scope="row" data-label="Domain">
                <bdi>{change.name}</bdi>
              </th>
              <td data-label="Art">{KIND[change.kind]}</td>
              <td data-label="Vorher → nachher">
                <ul className="domains-fields">
                  {fields.map((field) => (
                    <li key={field}>
                      {FIELD[field]}: <bdi>{shown(field, change.before?.[field] ?? null)}</bdi> → <bdi>{shown(field, change.after?.[field] ?? null)}</bdi>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
