import { renderToString } from 'react-dom/server'
import type { Language } from '../shared/language.ts'
import { TEXTS } from '../shared/texts-all.ts'
import { escapeHtml } from '../shared/html.ts'
import { DomainList } from './components/DomainList.tsx'
import { LandingPage } from './components/LandingPage.tsx'
import { PROPS_ELEMENT_ID, type DomainListProps, type PageProps } from './page-props.ts'

export function renderApp(props: PageProps): string {
  return renderToString(<LandingPage {...props} />)
}

/** GET /domains: rendered on the server only; it has no script, its links and form work without one. */
export function renderDomainList(props: DomainListProps): string {
  return renderToString(<DomainList {...props} />)
}

/** The page's title and description; a sold name's say that it was sold, not that it is for sale. */
export function renderHead(host: string, language: Language, sold = false): string {
  const text = TEXTS[language]
  const [title, description] = sold ? [text.titleSold(host), text.sold] : [text.title(host), text.description(host)]
  return `<title>${escapeHtml(title)}</title>\n    <meta name="description" content="${escapeHtml(description)}" />`
}

/**
 * The props as JSON inside a non-executed script element (a data block: no Content-Security-Policy governs it, so it
 * needs neither nonce nor hash); "<" is escaped so no value can close the element.
 */
export function renderProps(props: PageProps): string {
  const json = JSON.stringify(props).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${PROPS_ELEMENT_ID}">${json}</script>`
}

export { TEXTS }
