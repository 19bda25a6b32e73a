// The console's server side: the page's markup for one state (src/server/admin/render.ts puts it into index.html).
import { renderToString } from 'react-dom/server'
import type { ConsoleState } from '../shared/console-api.ts'
import { ConsoleApp } from './App.tsx'

export { consoleTitle, RENDERED_AT_ATTRIBUTE, STATE_ELEMENT_ID } from './state.ts'

/** `now` is the clock ages are shown against; the browser hydrates with the same value (data-rendered-at). */
export function renderConsole(state: ConsoleState, now: number = Date.now()): string {
  return renderToString(<ConsoleApp state={state} now={now} />)
}
