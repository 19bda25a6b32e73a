// Hydrates the server's markup with React (loaded by loader.ts when the visitor turns to the form).
import { hydrateRoot } from 'react-dom/client'
import { LandingPage } from './components/LandingPage.tsx'
import { PROPS_ELEMENT_ID, type PageProps } from './page-props.ts'

const propsElement = document.getElementById(PROPS_ELEMENT_ID)
const root = document.getElementById('app')
if (propsElement && root) {
  const props = JSON.parse(propsElement.textContent ?? '{}') as PageProps
  hydrateRoot(root, <LandingPage {...props} />, {
    // React repairs a page whose markup does not match what it renders (it renders the page anew); say so, loudly:
    // the browser tests fail on any console error.
    onRecoverableError(error, info) {
      console.error('hydration error:', error, info.componentStack ?? '')
    },
  })
}
