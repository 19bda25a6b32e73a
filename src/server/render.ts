// Fills the built index.html (Vite's client build) with the server-rendered page for one request.
import fs from 'node:fs'
import path from 'node:path'
import type { PageProps } from '../client/page-props.ts'
import { TEXT, renderApp, renderHead, renderProps } from '../client/entry-server.tsx'

export interface PageRenderer {
  /** The landing page, hydrated in the browser. */
  page(props: PageProps, nonce: string): string
  /** A plain page without script, for 400/404: it never shows the requested host. */
  notice(title: string, text: string, link?: { href: string; label: string }): string
  /** A legal text (Impressum, Datenschutz): plain text, paragraphs kept. */
  legal(title: string, text: string): string
}

const NONCE = '%%CSP_NONCE%%'

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function createPageRenderer(clientDir: string): PageRenderer {
  const file = path.join(clientDir, 'index.html')
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build" first (npm start does it for you).`)
  }
  const template = fs.readFileSync(file, 'utf8').replace(/<script(?=[\s>])/g, `<script nonce="${NONCE}"`)
  const noticeTemplate = template
    .replace(/<script nonce="[^"]*" type="module"[^>]*><\/script>\s*/g, '')
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '')
    .replace('<!--app-props-->', '')

  return {
    page(props, nonce) {
      return template
        .replace('<!--app-head-->', () => renderHead(props.host))
        .replace('<!--app-html-->', () => renderApp(props))
        .replace('<!--app-props-->', () => renderProps(props, nonce))
        .replaceAll(NONCE, nonce)
    },
    legal(title, text) {
      const body = `<main class="page"><h1>${escapeHtml(title)}</h1><div class="legal-text">${escapeHtml(text.trim())}</div><p><a href="/">${escapeHtml(TEXT.backHome)}</a></p></main>`
      return noticeTemplate
        .replace('<!--app-head-->', () => `<title>${escapeHtml(title)}</title>`)
        .replace('<!--app-html-->', () => body)
    },
    notice(title, text, link) {
      const body = `<main class="page notice"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${
        link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''
      }</main>`
      return noticeTemplate
        .replace('<!--app-head-->', () => `<title>${escapeHtml(title)}</title>`)
        .replace('<!--app-html-->', () => body)
    },
  }
}
