// GET /favicon.svg: the icon of the request's host, the first letter of its name on the page's accent colour, so
// that a buyer with several names open tells the tabs apart. Served per host instead of put into every page as a
// data: URI: the page is sent anew on every visit (no-store, a fresh token), the icon is cached (decision 024).
import { escapeHtml } from '../../shared/html.ts'
import { COLOURS } from './og-image.ts'
import { lazy } from '../../shared/lazy.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

const ACCENT = COLOURS.accent
/** For hosts without a page (400 and 404 answers): a plus, as before there were icons per name. */
const NEUTRAL_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${ACCENT}"/><path d="M9 16.5h14M16 9.5v14" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`

const graphemes = lazy(() => new Intl.Segmenter('de', { granularity: 'grapheme' }))

/** The first character of the name as people read it, as a capital where it has one of its own ("ß" stays). */
export function iconLetter(name: string): string {
  const first = graphemes().segment(name)[Symbol.iterator]().next().value?.segment ?? ''
  const capital = first.toLocaleUpperCase('de-DE')
  return [...capital].length === [...first].length ? capital : first
}

export function faviconSvg(name: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${ACCENT}"/><text x="16" y="23.5" fill="#fff" font-family="system-ui,sans-serif" font-size="21" font-weight="700" text-anchor="middle">${escapeHtml(iconLetter(name))}</text></svg>`
}

export default async function faviconRoutes(app: PublicApp) {
  const { sites } = app
  app.get('/favicon.svg', { schema: { response: { 200: sentAsIs } } }, async (request, reply) => {
    const lookup = sites.lookup(request)
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(lookup.kind === 'site' ? faviconSvg(lookup.site.host.display) : NEUTRAL_ICON)
  })
}
