import { CONSOLE_PATHS } from '../../shared/console-api.ts'

export function NotFound() {
  return (
    <main className="main narrow">
      <h1>Seite nicht gefunden</h1>
      <p>
        <a href={CONSOLE_PATHS.inbox}>Zum Posteingang</a>
      </p>
    </main>
  )
}
