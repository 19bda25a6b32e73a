// The landing page as prepared bytes (issue 22/27, decision 056): with the form's token derived from host and second
// (http/form-token.ts) and no per-answer nonce, a site's page is the same for every visitor in a language within one
// second. So it is made once per (site, language, second): its plain and gzip bytes, each made at the first request
// that asks for it, and an ETag, kept in a cache bounded by bytes. Per request, GET / then costs a Map look-up and
// the write, not a render, a splice or an HMAC.
import { createHash } from 'node:crypto'

/** A page's answer for one second: what the renderer made, and what it made it from. */
interface PreparedPage {
  /** The second (Unix time in seconds) whose token the page carries. */
  readonly window: number
  /** A weak ETag: the plain and the gzip bytes are the same page. */
  readonly etag: string
  plain: Buffer
  gzip: Buffer | undefined
}

/** What the cache keeps per (site, language): plain bytes are made at once, gzip at its first request. */
export interface PreparedPages {
  /**
   * The page of `key` for `window`: the entry of this second, or a new one made by `render(false)`. `gzip` adds the
   * compressed bytes to it, made by `render(true)` once per entry.
   */
  get(key: string, window: number, gzip: boolean, render: (gzip: boolean) => Buffer): PreparedPage
  /** Bytes held now (for the tests that spray hosts). */
  bytes(): number
}

/** The pages of the current seconds; beyond this, the least recently asked go first (a spray of hosts). */
const PREPARED_MAX_BYTES = 4 * 1024 * 1024

export function createPreparedPages(maxBytes = PREPARED_MAX_BYTES): PreparedPages {
  const entries = new Map<string, PreparedPage>()
  let held = 0
  const sizeOf = (page: PreparedPage) => page.plain.length + (page.gzip?.length ?? 0)

  const drop = (key: string) => {
    const page = entries.get(key)
    if (!page) return
    entries.delete(key)
    held -= sizeOf(page)
  }

  return {
    get(key, window, gzip, render) {
      let page = entries.get(key)
      if (page && page.window !== window) {
        drop(key)
        page = undefined
      }
      if (page) {
        // Most recently asked goes last.
        entries.delete(key)
        entries.set(key, page)
      } else {
        const plain = render(false)
        page = { window, etag: `W/"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`, plain, gzip: undefined }
        entries.set(key, page)
        held += plain.length
      }
      if (gzip && page.gzip === undefined) {
        page.gzip = render(true)
        held += page.gzip.length
      }
      for (const oldest of entries.keys()) {
        if (held <= maxBytes || oldest === key) break
        drop(oldest)
      }
      return page
    },
    bytes: () => held,
  }
}
