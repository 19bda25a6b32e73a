// Hydrates the server's markup with the state the server rendered it from.
import { hydrateRoot } from 'react-dom/client'
import type { ConsoleState } from '../shared/console-api.ts'
import { ConsoleApp } from './App.tsx'
import { RENDERED_AT_ATTRIBUTE, STATE_ELEMENT_ID } from './state.ts'

const stateElement = document.getElementById(STATE_ELEMENT_ID)
const root = document.getElementById('console')
if (stateElement && root) {
  const state = JSON.parse(stateElement.textContent ?? '{}') as ConsoleState
  const now = Number(stateElement.getAttribute(RENDERED_AT_ATTRIBUTE)) || Date.now()
  hydrateRoot(root, <ConsoleApp state={state} now={now} />, {
    // A mismatch makes React render the page anew; say so loudly: the browser tests fail on any console error.
    onRecoverableError(error, info) {
      console.error('hydration error:', error, info.componentStack ?? '')
    },
  })
}
