// What an import would do (or did) to the domains file: the problems of the list, then the names added, changed and
// removed. Everything from the file is shown as text; a value a row had is what somebody typed, so it is isolated
// (<bdi>) and never markup.
import type { ImportField, ImportFormat, ImportProblem, ImportReport, Terms } from '../../shared/import-api.ts'
import { isWarning } from '../../shared/import-api.ts'
import { formatNumber } from '../format.ts'

const FIELD: Record<ImportField, string> = { name: 'Domain', price: 'Preis', minOffer: 'Mindestgebot', currency: 'Währung' }

const AMOUNT_REASON: Record<Extract<ImportProblem, { kind: 'amount' }>['reason'], (currency: string) => string> = {
  format: () => 'ist kein Betrag wie 4900, 4.900,00 € oder $4,900.',
  cents: () => 'hat Cent; Beträge in der Domains-Datei sind ganze Zahlen.',
  range: () => 'ist größer als 1.000.000.000.',
  currency: (currency) => `ist nicht in ${currency} (der Währung der Domain; eine Spalte „Währung“ ändert sie).`,
}

const Value = ({ value }: { value: string }) => (
  <>
    „<bdi>{value.length > 200 ? `${value.slice(0, 200)}…` : value}</bdi>“
  </>
)

function ProblemText({ problem, format }: { problem: ImportProblem; format: ImportFormat }) {
  const at = (line: number | null) => (line === null ? '' : `${format === 'json' ? 'Eintrag' : 'Zeile'} ${formatNumber(line)}: `)
  switch (problem.kind) {
    case 'syntax':
      return (
        <>
          {`${at(problem.line)}Die ${format.toUpperCase()}-Datei ist nicht lesbar: `}
          <bdi>{problem.message}</bdi>
        </>
      )
    case 'no-name-column':
      return (
        <>
          Keine Spalte nennt die Domain (gefunden:{' '}
          {problem.headers.map((header, i) => (
            <span key={i}>
              {i > 0 && ', '}
              <Value value={header} />
            </span>
          ))}
          ). Die erste Zeile muss eine Kopfzeile sein, z. B. Domain;Preis;Mindestgebot;Währung.
        </>
      )
    case 'two-columns':
      return (
        <>
          {at(problem.line)}Zwei Spalten für {FIELD[problem.field]}: <Value value={problem.headers[0] ?? ''} /> und <Value value={problem.headers[1] ?? ''} />.
        </>
      )
    case 'no-rows':
      return <>Die Liste hat keine Zeilen.</>
    case 'no-name':
      return <>{at(problem.line)}Kein Domainname.</>
    case 'name':
      return (
        <>
          {at(problem.line)}
          <Value value={problem.value} /> ist kein Domainname.
        </>
      )
    case 'wildcard':
      return (
        <>
          {at(problem.line)}
          <Value value={problem.value} /> ist ein Platzhalter; importiert werden nur einzelne Namen.
        </>
      )
    case 'amount':
      return (
        <>
          {at(problem.line)}
          {FIELD[problem.field]} <Value value={problem.value} /> {AMOUNT_REASON[problem.reason](problem.currency)}
        </>
      )
    case 'currency':
      return (
        <>
          {at(problem.line)}
          <Value value={problem.value} /> ist kein Währungscode wie EUR.
        </>
      )
    case 'duplicate':
      return (
        <>
          {at(problem.line)}
          {problem.name} steht schon in {format === 'json' ? 'Eintrag' : 'Zeile'} {formatNumber(problem.first)},{' '}
          {problem.conflict ? 'mit anderen Werten.' : 'mit denselben Werten (nur ein Hinweis).'}
        </>
      )
    case 'domains-file':
      return (
        <>
          Domains-Datei: <bdi>{problem.message}</bdi>
        </>
      )
    case 'changed':
      return <>Die Domains-Datei wurde inzwischen geändert. Bitte die Vorschau neu laden.</>
    case 'write':
      return (
        <>
          Die Domains-Datei kann nicht geschrieben werden (sie bleibt, wie sie war): <bdi>{problem.message}</bdi>
        </>
      )
    case 'refused':
      return (
        <>
          Der Server würde die Domains-Datei nach diesem Import nicht laden; sie bleibt, wie sie war: <bdi>{problem.message}</bdi>
        </>
      )
    case 'busy':
      return (
        <>
          Die Domains-Datei bleibt, wie sie war: ein anderer Import schreibt sie gerade. <bdi>{problem.message}</bdi>
        </>
      )
  }
}

const amount = (value: number | null) => (value === null ? '–' : formatNumber(value))
const change = <T,>(before: T, after: T, show: (value: T) => string) => (before === after ? show(after) : `${show(before)} → ${show(after)}`)

function TermsTable({ caption, rows, total }: { caption: string; rows: { name: string; before: Terms; after: Terms }[]; total: number }) {
  if (total === 0) return null
  return (
    <table className="list import-list">
      <caption>
        {caption} ({formatNumber(total)})
      </caption>
      <thead>
        <tr>
          <th scope="col">Domain</th>
          <th scope="col">Preis</th>
          <th scope="col">Mindestgebot</th>
          <th scope="col">Währung</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ name, before, after }) => (
          <tr key={name}>
            <th scope="row" data-label="Domain">
              <bdi>{name}</bdi>
            </th>
            <td data-label="Preis">{change(before.price, after.price, amount)}</td>
            <td data-label="Mindestgebot">{change(before.minOffer, after.minOffer, amount)}</td>
            <td data-label="Währung">{change(before.currency, after.currency, String)}</td>
          </tr>
        ))}
        {total > rows.length && (
          <tr>
            <td colSpan={4}>… und {formatNumber(total - rows.length)} weitere</td>
          </tr>
        )}
      </tbody>
    </table>
  )
}

export function ImportReportView({ report }: { report: ImportReport }) {
  const { counts } = report
  const errors = report.problems.filter((problem) => !isWarning(problem))
  const warnings = report.problems.filter(isWarning)
  const list = (heading: string, problems: ImportProblem[], total: number) =>
    total > 0 && (
      <section aria-label={heading}>
        <h2>
          {heading} ({formatNumber(total)})
        </h2>
        <ul className="import-problems">
          {problems.map((problem, i) => (
            <li key={i}>
              <ProblemText problem={problem} format={report.format} />
            </li>
          ))}
          {total > problems.length && <li>… und {formatNumber(total - problems.length)} weitere</li>}
        </ul>
      </section>
    )
  return (
    <>
      <p role="status">
        Gelesen: {formatNumber(report.rows)} {report.format === 'json' ? 'Einträge' : 'Zeilen'}
        {report.columns.length > 0 && (
          <>
            {' '}
            (Spalten:{' '}
            {report.columns.map(({ field, header }, i) => (
              <span key={field}>
                {i > 0 && ', '}
                <Value value={header} /> → {FIELD[field]}
              </span>
            ))}
            )
          </>
        )}
        . {formatNumber(counts.added)} neu, {formatNumber(counts.changed)} geändert, {formatNumber(counts.removed)} entfernt, {formatNumber(counts.unchanged)}{' '}
        unverändert.
      </p>
      {list('Fehler', errors, counts.errors)}
      {list('Hinweise', warnings, counts.warnings)}
      <TermsTable caption="Neu" rows={report.added.map(({ name, terms }) => ({ name, before: terms, after: terms }))} total={counts.added} />
      <TermsTable caption="Geändert" rows={report.changed} total={counts.changed} />
      <TermsTable caption="Entfernt" rows={report.removed.map(({ name, terms }) => ({ name, before: terms, after: terms }))} total={counts.removed} />
    </>
  )
}
