// Fills the built index.html (Vite's client build) with the server-rendered page for one request.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { ViteDevServer } from 'vite'
import type { CheckoutPageProps, DealPageProps, DomainListProps, PageProps } from '../../client/page-props.ts'
import * as entryServer from '../../client/entry-server.tsx'
import type * as entryCheckout from '../../client/entry-checkout.tsx'
import type * as entryDeal from '../../client/entry-deal.tsx'
import { onFirstUse } from '../http/on-first-use.ts'
import { escapeHtml } from '../../shared/html.ts'
import type { Language } from '../../shared/language.ts'
import { compressTemplate, spliceGzip, type GzipTemplate } from './gzip-splice.ts'
import { renderHeadTags, type PageHead } from './head.ts'

/** A page as sent: gzip-compressed when the client accepts it. */
interface RenderedPage {
  body: string | Buffer
  encoding?: 'gzip'
}

export interface PageRenderer {
  /** The landing page, hydrated in the browser when the visitor turns to the form; `head`: its search and sharing tags. */
  page(props: PageProps, gzip?: boolean, head?: PageHead, key?: string): RenderedPage
  /**
   * A plain page without script, for 400/404: it never shows the requested host. `text` is the paragraph under the
   * heading ('' for none, when the heading says it all). `form`: one button that posts.
   */
  notice(language: Language, title: string, text: string, link?: { href: string; label: string }, form?: NoticeForm): string
  /**
   * The whole portfolio (GET /domains), without script. `noindex, follow`: every host of the portfolio shows the same
   * list, so search engines follow its links to the names' own pages but index none of its copies.
   */
  domainList(props: DomainListProps): string
  /** A legal text (Impressum, Datenschutz): plain text, paragraphs kept. */
  legal(language: Language, title: string, text: string): string
  /**
   * A buyer's deal page (/kauf/…), without script; `noindex`: it is one person's page. Its components load with the
   * first one (decision 063).
   */
  dealPage(props: DealPageProps, title: string): Promise<string>
  /** The checkout at the fixed price (/kaufen), without script; `noindex`: a form, not content. Loaded as the deal page. */
  checkoutPage(props: CheckoutPageProps, title: string): Promise<string>
  /** Content-Security-Policy sources that allow the pages' inline style sheet (its hash), for `style-src`. */
  styleSources: string[]
  /** Content-Security-Policy sources that allow the page's inline scripts (the loader, by its hash), for `script-src`. */
  scriptSources: string[]
}

/** A form of hidden fields and one submit button, posted to this origin (the CSP's form-action). */
export interface NoticeForm {
  action: string
  fields: Record<string, string>
  label: string
}

/**
 * The page cache's key: everything the page is made of but its per-request values. A caller that sends the same
 * page often (page/view.ts) computes it once and passes it in.
 */
export const pageCacheKey = (props: Omit<PageProps, 'token' | 'hash'>, head: PageHead | undefined) => JSON.stringify({ ...props, token: '', hash: '', head })

// Placeholders that survive the renderer's escaping and JSON unchanged. Visitor input never reaches a cached page;
// only an owner's description could contain one, and would then show a token.
const TOKEN = '%%FORM_TOKEN%%'
const HASH = '%%FORM_HASH%%'
const SLOTS = /(%%FORM_TOKEN%%|%%FORM_HASH%%)/
const CACHE_SIZE = 2000

/**
 * The text parts of a page as views of one buffer of its own (Buffer.alloc never takes from the shared pool): small
 * Buffer.from() calls are cut from 8 KiB pool slabs, and a cached part would keep its whole slab alive, about twice
 * the memory of the page itself (measured in docs/decisions/011).
 */
function encodeParts(pieces: string[]): (Buffer | string)[] {
  const text = pieces.filter((piece) => !SLOTS.test(piece)).join('')
  const bytes = Buffer.alloc(Buffer.byteLength(text))
  bytes.write(text)
  let offset = 0
  return pieces.map((piece) => (SLOTS.test(piece) ? piece : bytes.subarray(offset, (offset += Buffer.byteLength(piece)))))
}

export function createPageRenderer(clientDir: string): PageRenderer {
  const file = path.join(clientDir, 'index.html')
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build" first (npm start does it for you).`)
  }
  return rendererFrom(fs.readFileSync(file, 'utf8'), entryServer, {
    deal: onFirstUse(() => import('../../client/entry-deal.tsx')),
    checkout: onFirstUse(() => import('../../client/entry-checkout.tsx')),
  })
}

/** The pages that only some requests need, loaded when one does (decision 063); the dev server loads them anew each time. */
interface PagesOnFirstUse {
  deal(): Promise<typeof entryDeal>
  checkout(): Promise<typeof entryCheckout>
}

/** A renderer whose page is read anew before each request (`refresh`, called by vite-dev.ts). */
export interface DevPageRenderer extends PageRenderer {
  refresh(url: string): Promise<void>
}

/**
 * `npm run dev`: the page from the sources through Vite, rendered anew for every request (no cache), so an edit to
 * index.html or a component shows on the next load without a build. Vite adds its HMR client and React's refresh
 * to the page, and loads entry-server.tsx afresh once a file it imports has changed.
 */
export async function createDevPageRenderer(vite: ViteDevServer): Promise<DevPageRenderer> {
  const clientDir = vite.config.root
  let current: PageRenderer | undefined
  const renderer = (): PageRenderer => current!
  const refresh = async (url: string) => {
    const html = await vite.transformIndexHtml(url, fs.readFileSync(path.join(clientDir, 'index.html'), 'utf8'))
    current = rendererFrom(html, (await vite.ssrLoadModule(path.join(clientDir, 'entry-server.tsx'))) as typeof entryServer, {
      deal: async () => (await vite.ssrLoadModule(path.join(clientDir, 'entry-deal.tsx'))) as typeof entryDeal,
      checkout: async () => (await vite.ssrLoadModule(path.join(clientDir, 'entry-checkout.tsx'))) as typeof entryCheckout,
    })
  }
  await refresh('/')
  return {
    refresh,
    get styleSources() {
      return renderer().styleSources
    },
    get scriptSources() {
      return renderer().scriptSources
    },
    page: (...args) => renderer().page(...args),
    notice: (...args) => renderer().notice(...args),
    legal: (...args) => renderer().legal(...args),
    domainList: (...args) => renderer().domainList(...args),
    dealPage: (...args) => renderer().dealPage(...args),
    checkoutPage: (...args) => renderer().checkoutPage(...args),
  }
}

/** index.html says the page is German; the renderer puts in the page's language instead. */
const GERMAN_ROOT = '<html lang="de">'

function rendererFrom(
  template: string,
  { TEXTS, renderApp, renderDomainList, renderHead, renderProps }: typeof entryServer,
  pages: PagesOnFirstUse,
): PageRenderer {
  if (!template.includes(GERMAN_ROOT)) throw new Error(`index.html has no ${GERMAN_ROOT}`)
  // The build puts the style sheet and the loader into the page (vite.config.ts); the CSP allows these elements by
  // their hashes, and only them, with one policy for every answer: no nonce to draw, send and splice per request
  // (issue 37). The props are a JSON data block, which no policy governs; an element with `src` is allowed as 'self'.
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const styleSources = [...template.matchAll(/<style>([^<]*)<\/style>/g)].map(([, css]) => sha256(css!))
  const scriptSources = [...template.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, code]) => sha256(code!))
  const noticeTemplate = template
    .replace(/<script type="module"[^>]*>[\s\S]*?<\/script>\s*/g, '')
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '')
    .replace('<!--app-props-->', '')
  const inLanguage = (page: string, language: Language) => page.replace(GERMAN_ROOT, () => `<html lang="${language}">`)

  const render = (props: PageProps, head?: PageHead) => {
    const title = renderHead(props.host, props.language, props.saleStatus === 'sold')
    return inLanguage(template, props.language)
      .replace('<!--app-head-->', () => (head ? `${title}\n    ${renderHeadTags(head)}` : title))
      .replace('<!--app-html-->', () => renderApp(props))
      .replace('<!--app-props-->', () => renderProps(props))
  }

  // The page of a host is the same for every visitor but for its token and hash. It is rendered once per
  // host, language and settings (all in the props) with placeholders, which are then replaced per request: the page
  // stays identical, and React's renderer does not run on the hot path. The fixed parts are kept as UTF-8 bytes and compressed once.
  interface CachedPage {
    parts: (Buffer | string)[]
    /** The placeholders among the parts, in order: which value goes in each place. */
    slots: string[]
    /** Made at the first request that asks for gzip, with that request's values for their lengths. */
    gzip?: GzipTemplate
  }
  /** The page's parts with the values in the placeholders' places, each value as `wrap` takes it (ASCII, so Latin-1). */
  const filled = <T>(page: CachedPage, values: string[], wrap: (value: Buffer) => T) => {
    let next = 0
    return page.parts.map((part) => (typeof part === 'string' ? wrap(Buffer.from(values[next++]!, 'latin1')) : part))
  }
  const cache = new Map<string, CachedPage>()
  function cached(props: PageProps, head: PageHead | undefined, key = pageCacheKey(props, head)): CachedPage {
    let page = cache.get(key)
    if (page) {
      cache.delete(key) // most recently used goes last
    } else {
      const html = render({ ...props, token: TOKEN, hash: HASH }, head)
      const parts = encodeParts(html.split(SLOTS))
      page = { parts, slots: parts.filter((part) => typeof part === 'string') }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
    }
    cache.set(key, page)
    return page
  }

  return {
    styleSources,
    scriptSources,
    page(props, gzip = false, head, key) {
      // Pages answering a form sent without script carry the visitor's input: never cached.
      if (props.outcome || props.values) {
        const html = render(props, head)
        return gzip ? { body: zlib.gzipSync(html), encoding: 'gzip' } : { body: html }
      }
      const page = cached(props, head, key)
      const values = page.slots.map((slot) => (slot === TOKEN ? props.token : props.hash))
      const plain = () => Buffer.concat(filled(page, values, (value) => value))
      if (!gzip) return { body: plain() }
      page.gzip ??= compressTemplate(filled(page, values, (value) => ({ value })))
      // A value of another length than the template's (a token format change) costs a whole compression.
      return { body: spliceGzip(page.gzip, values) ?? zlib.gzipSync(plain()), encoding: 'gzip' }
    },
    domainList(props) {
      const head = [
        `<title>${escapeHtml(`${TEXTS[props.language].domainListTitle} | ${props.host}`)}</title>`,
        '<meta name="robots" content="noindex,follow" />',
      ]
      return inLanguage(noticeTemplate, props.language)
        .replace('<!--app-head-->', () => head.join('\n    '))
        .replace('<!--app-html-->', () => renderDomainList(props))
    },
    async dealPage(props, title) {
      const { renderDealPage } = await pages.deal()
      const head = [
        `<title>${escapeHtml(title)}</title>`,
        '<meta name="robots" content="noindex,nofollow" />',
        '<meta name="referrer" content="same-origin" />',
      ]
      return inLanguage(noticeTemplate, props.language)
        .replace('<!--app-head-->', () => head.join('\n    '))
        .replace('<!--app-html-->', () => renderDealPage(props))
    },
    async checkoutPage(props, title) {
      const { renderCheckoutPage } = await pages.checkout()
      const head = [`<title>${escapeHtml(title)}</title>`, '<meta name="robots" content="noindex,nofollow" />']
      return inLanguage(noticeTemplate, props.language)
        .replace('<!--app-head-->', () => head.join('\n    '))
        .replace('<!--app-html-->', () => renderCheckoutPage(props))
    },
    legal(language, title, text) {
      const body = `<main class="page"><h1>${escapeHtml(title)}</h1><div class="legal-text">${escapeHtml(text.trim())}</div><p><a href="/">${escapeHtml(TEXTS[language].backHome)}</a></p></main>`
      return inLanguage(noticeTemplate, language)
        .replace('<!--app-head-->', () => `<title>${escapeHtml(title)}</title>`)
        .replace('<!--app-html-->', () => body)
    },
    notice(language, title, text, link, form) {
      const fields = form
        ? Object.entries(form.fields).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
        : []
      const body = `<main class="page notice"><h1>${escapeHtml(title)}</h1>${text ? `<p>${escapeHtml(text)}</p>` : ''}${
        form ? `<form method="post" action="${escapeHtml(form.action)}">${fields.join('')}<button type="submit">${escapeHtml(form.label)}</button></form>` : ''
      }${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}</main>`
      return inLanguage(noticeTemplate, language)
        .replace('<!--app-head-->', () => `<title>${escapeHtml(title)}</title>`)
        .replace('<!--app-html-->', () => body)
    },
  }
}
