// How the server hands the page's state to the browser: JSON in a script element that is never executed.
import type { ConsoleState } from '../shared/console-api.ts'

export const STATE_ELEMENT_ID = 'console-state'
/** The server's clock at rendering (ms): ages ("vor 3 Std.") are computed from it, so hydration sees the same text. */
export const RENDERED_AT_ATTRIBUTE = 'data-rendered-at'

const TITLES: Record<ConsoleState['page'], string> = {
  setup: 'Konsole einrichten',
  signin: 'Anmelden',
  security: 'Anmeldung',
  sessions: 'Sitzungen',
  inbox: 'Posteingang',
  inquiry: 'Anfrage',
  outbox: 'Postausgang',
  overview: 'Übersicht',
  templates: 'Vorlagen',
  sales: 'Verkäufe',
  privacy: 'Datenschutz',
  import: 'Domains importieren',
  domains: 'Domains',
  'bank-statement': 'Kontoauszug importieren',
  audit: 'Protokoll',
  'not-found': 'Seite nicht gefunden',
}

/** Never holds anything a visitor typed. */
export const consoleTitle = (state: ConsoleState) => `${TITLES[state.page]} · Konsole`
