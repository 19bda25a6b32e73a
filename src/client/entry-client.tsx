// Preact's hydrateRoot (preact/compat, aliased in vite.config.ts): it hydrates the markup Preact made on the server.
import { hydrateRoot } from 'react-dom/client'
import { LandingPage } from './components/LandingPage.tsx'
import { PROPS_ELEMENT_ID, type PageProps } from './page-props.ts'

const propsElement = document.getElementById(PROPS_ELEMENT_ID)
const root = document.getElementById('app')
if (propsElement && root) {
  const props = JSON.parse(propsElement.textContent ?? '{}') as PageProps
  hydrateRoot(root, <LandingPage {...props} />)
}
