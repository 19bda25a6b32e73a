// Hydrates the server's markup with React (loaded by loader.ts when the visitor turns to the form).
import { hydrateRoot } from 'react-dom/client'
import { LandingPage } from './components/LandingPage.tsx'
import { PROPS_ELEMENT_ID, type PageProps } from './page-props.ts'
import { loadTexts } from './texts-loader.ts'

const propsElement = document.getElementById(PROPS_ELEMENT_ID)
const root = document.getElementById('app')
if (propsElement && root) {
  const props = JSON.parse(propsElement.textContent ?? '{}') as PageProps
  // React must render the words the server did, so the page's table is there before it hydrates. Awaited at the top:
  // a table that cannot be fetched fails this module's import, and the loader lets the form work without script.
  await loadTexts(props.language)
  hydrateRoot(root, <LandingPage {...props} />, {
    // React repairs a page whose markup does not match what it renders (it renders the page anew); say so, loudly:
    // the browser tests fail on any console error.
    onRecoverableError(error, info) {
      console.error('hydration error:', error, info.componentStack ?? '')
    },
  })
}
