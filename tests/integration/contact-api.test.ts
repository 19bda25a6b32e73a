// POST /api/contact, answered by the app in process (inject): every answer it documents, and what it stores.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { TOKEN_WINDOW_MS, deriveToken } from '../../src/server/http/form-token.ts'
import { queryStore } from '../helpers/postgres.ts'
import { CLIENT_DIR, buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { VISITOR, expectError, fetchForm as fetchFormOf, postContact, submitInquiry as submitInquiryTo, type Fields } from '../helpers/contact.ts'

let app: InProcessApp | undefined
let shared: Promise<InProcessApp> | undefined
afterEach(async () => {
  if (app && app !== (await shared)) await app.close()
  app = undefined
})
afterAll(async () => (await shared)?.close())

/**
 * One app for the file's tests that look only at answers to requests that store nothing (each built app costs a
 * store of its own, on PostgreSQL a schema and its migrations); a test that looks at what was stored, or needs
 * settings of its own, builds a fresh one.
 */
const sharedApp = () => (shared ??= buildTestApp())

/** The helpers of helpers/contact.ts, sent through the app's inject. */
const fetchForm = (url: string, host?: string) => fetchFormOf(url, host, {}, app!.fetch)
const submitInquiry = (url: string, fields: Fields = {}) => submitInquiryTo(url, fields, {}, app!.fetch)
/** What Node's fetch() asks for: it decodes the answer itself, which inject's stand-in leaves to the test. */
const FETCH_ENCODINGS = 'gzip, deflate, br, zstd'

const TEXT = {
  invalid: 'Fehler. Bitte füllen Sie alle Felder aus.',
  token: 'Das Formular ist abgelaufen oder ungültig. Bitte laden Sie die Seite neu.',
  badRequest: 'Ungültige Anfrage.',
  tooLarge: 'Die Anfrage ist zu groß.',
  unsupported: 'Nicht unterstütztes Format. Bitte senden Sie JSON.',
}

/** The stored inquiries, read straight from the store (the SQLite file, or the test's PostgreSQL schema). */
function inquiries(dataDir: string) {
  return queryStore<{ token: string; message: string; spam_reason: string | null; outbox: string | null }>(
    dataDir,
    'SELECT i.token, i.message, i.spam_reason, o.status AS outbox FROM inquiries i LEFT JOIN outbox o ON o.inquiry_id = i.id ORDER BY i.id',
  )
}

describe.each(['/api/contact', '/api/sendMail'])('POST %s', (path) => {
  const post = (body: unknown, headers: Record<string, string> = {}) => postContact(app!.url, body, headers, path, app!.fetch)

  test('a valid inquiry gets 200 with the token and hash of the current second, and is stored for mailing', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    const response = await post({ ...VISITOR, token, hash })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toEqual({ ok: true, token: expect.stringMatching(/^[A-Za-z0-9]{15}$/), hash: expect.any(String) })
    expect(await inquiries(app.dataDir)).toEqual([{ token, message: VISITOR.message, spam_reason: null, outbox: expect.any(String) }])
    // The answer's token and hash are the current second's (the page's own, if it was served in it): a next message
    // sent with them is taken.
    expect((await post({ ...VISITOR, message: 'Noch eine Frage', token: body.token, hash: body.hash })).status).toBe(200)
    expect((await inquiries(app.dataDir)).map((row) => row.message)).toEqual([VISITOR.message, 'Noch eine Frage'])
  })

  test('malformed JSON gets 400', async () => {
    app = await sharedApp()
    await expectError(await post('{"name58fnlsd": '), 400, TEXT.badRequest)
  })

  test.each([
    ['an array', '[]'],
    ['a string', '"text"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('%s as body gets 400', async (_what, body) => {
    app = await sharedApp()
    expect((await post(body)).status).toBe(400)
  })

  test('invalid fields get 400 naming each field', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    const body = await expectError(await post({ ...VISITOR, themail3h6: 'nope', message: '', token, hash }), 400, TEXT.invalid)
    expect(body.fields).toEqual({
      themail3h6: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
      message: 'Bitte geben Sie eine Nachricht ein.',
    })
    expect(await inquiries(app.dataDir)).toEqual([])
  })

  test('a name of only invisible characters gets 400 with the "required" hint, and nothing is stored', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    const body = await expectError(await post({ ...VISITOR, name58fnlsd: '\u200b\u2060\ufeff \u200b', token, hash }), 400, TEXT.invalid)
    expect(body.fields).toEqual({ name58fnlsd: 'Bitte geben Sie Ihren Namen ein.' })
    expect(await inquiries(app.dataDir)).toEqual([])
  })

  test('a missing token gets 400, a token or hash that does not verify gets 403', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    expect((await post({ ...VISITOR, hash })).status).toBe(400)
    await expectError(await post({ ...VISITOR, token: 'AAAAAAAAAAAAAAA', hash }), 403, TEXT.token)
    await expectError(await post({ ...VISITOR, token, hash: hash.slice(0, -2) + 'xx' }), 403, TEXT.token)
    expect(await inquiries(app.dataDir)).toEqual([])
  })

  test('a form served for another domain gets 403 here', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url, 'other-domain.de')
    await expectError(await post({ ...VISITOR, token, hash }), 403, TEXT.token)
  })

  test('the same token again with the same content gets 200 and is stored once; with other content it is an inquiry of its own', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    expect((await post({ ...VISITOR, token, hash })).status).toBe(200)
    expect((await post({ ...VISITOR, token, hash })).status).toBe(200)
    expect(await inquiries(app.dataDir)).toHaveLength(1)
    // Pages served in the same second share a token (decision 055): another visitor's message is stored too, once.
    expect((await post({ ...VISITOR, message: 'Etwas anderes', token, hash })).status).toBe(200)
    expect((await post({ ...VISITOR, message: 'Etwas anderes', token, hash })).status).toBe(200)
    expect(await inquiries(app.dataDir)).toEqual([
      { token, message: VISITOR.message, spam_reason: null, outbox: expect.any(String) },
      { token, message: 'Etwas anderes', spam_reason: null, outbox: expect.any(String) },
    ])
  })

  test('a body over 32 KB gets 413', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    await expectError(await post({ ...VISITOR, message: 'x'.repeat(33 * 1024), token, hash }), 413, TEXT.tooLarge)
  })

  test('an unsupported content type gets 415', async () => {
    app = await sharedApp()
    await expectError(await post('name58fnlsd=x', { 'content-type': 'text/plain' }), 415, TEXT.unsupported)
  })

  test('keys like __proto__ get 400 and pollute nothing', async () => {
    app = await sharedApp()
    await expectError(await post('{"__proto__": {"polluted": 1}, "message": "x"}'), 400)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('spam traps', () => {
  test.each([
    ['a filled name decoy', { name58fnlsdbee: 'Bot' }, 'decoy-filled'],
    ['a filled e-mail decoy', { themail3h6bee: 'bot@example.org' }, 'decoy-filled'],
    ['a missing decoy field', { themail3h6bee: undefined }, 'decoy-missing'],
  ])('%s is answered like a success, stored as spam and never queued for mail', async (_what, fields, reason) => {
    app = await buildTestApp()
    const response = await submitInquiry(app.url, fields)
    expect(response.status).toBe(200)
    expect((await response.json()).ok).toBe(true)
    expect(await inquiries(app.dataDir)).toEqual([expect.objectContaining({ spam_reason: reason, outbox: null })])
  })

  test('a form sent sooner than MIN_FILL_SECONDS is answered like a success and stored as spam', async () => {
    app = await buildTestApp({ MIN_FILL_SECONDS: '30' })
    expect((await submitInquiry(app.url)).status).toBe(200)
    expect(await inquiries(app.dataDir)).toEqual([expect.objectContaining({ spam_reason: 'too-fast', outbox: null })])
  })
})

describe('without JavaScript', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
  const postForm = (body: string) =>
    app!.fetch(`${app!.url}/api/contact`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })

  test('a valid form post is stored and redirected (303) to a page that says it was sent', async () => {
    app = await buildTestApp()
    const { token, hash } = await fetchForm(app.url)
    const response = await postForm(form({ ...VISITOR, token, hash }))
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/?gesendet=1')
    expect(await inquiries(app.dataDir)).toHaveLength(1)
    const page = await (await app.fetch(`${app.url}/?gesendet=1`)).text()
    expect(page).toContain('Anfrage erfolgreich versendet.')
  })

  test('an invalid form post gets a 400 page with the error and the input kept, escaped', async () => {
    app = await sharedApp()
    const { token, hash } = await fetchForm(app.url)
    const response = await postForm(form({ ...VISITOR, name58fnlsd: '<b>Erika</b>', themail3h6: 'kaputt', token, hash }))
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    const page = await response.text()
    expect(page).toContain('Fehler. Bitte füllen Sie alle Felder aus.')
    // Escaped as an attribute value needs it (Preact leaves ">" alone there).
    expect(page).toContain('value="&lt;b&gt;Erika&lt;/b&gt;"')
    expect(page).not.toContain('<b>Erika</b>')
    expect(page).toContain('value="kaputt"')
  })

  test('a form post with a broken token gets a 403 page that says what to do', async () => {
    app = await sharedApp()
    const response = await postForm(form({ ...VISITOR, token: 'AAAAAAAAAAAAAAA', hash: 'x' }))
    expect(response.status).toBe(403)
    expect(await response.text()).toContain('Das Formular ist abgelaufen oder ungültig.')
  })
})

describe('headers and pages', () => {
  test('every answer has the security headers; the page has one fixed CSP, its inline scripts allowed by their hashes', async () => {
    app = await sharedApp()
    const page = await app.fetch(`${app.url}/`)
    const csp = page.headers.get('content-security-policy')!
    const scriptSrc = /(?:^|;)script-src ([^;]*)/.exec(csp)?.[1]
    // No nonce (issue 37: nothing per answer in the policy) and no 'unsafe-inline': only our origin and hashes.
    expect(scriptSrc).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/]+={0,2}')+$/)
    expect(csp).not.toContain("'nonce-")
    expect(csp).not.toContain('unsafe-inline')
    // The page's inline style sheet is allowed by its hash; no element carries a style nonce, so none is sent.
    expect(/style-src ([^;]*)/.exec(csp)?.[1]).toMatch(/^'self' 'sha256-[A-Za-z0-9+/]+={0,2}'$/)
    expect(csp).toContain("frame-ancestors 'none'")
    const html = await page.text()
    expect(html).not.toMatch(/\snonce=/i)
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, code]) => ({ attributes: attributes!, code: code! }))
    // Data blocks (the JSON-LD, the props) are never run, so CSP does not govern them; every inline script that runs
    // is allowed by its hash, and nothing else is.
    const isData = ({ attributes }: { attributes: string }) => /type="application\/(ld\+)?json"/.test(attributes)
    expect(
      scripts
        .filter(isData)
        .map(({ attributes }) => /type="([^"]+)"/.exec(attributes)![1])
        .sort(),
    ).toEqual(['application/json', 'application/ld+json'])
    const inline = scripts.filter((script) => !isData(script) && !/\ssrc=/.test(script.attributes))
    expect(inline.length).toBeGreaterThan(0)
    const sha256 = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`
    expect(scriptSrc!.split(' ').slice(1).sort()).toEqual(inline.map(({ code }) => sha256(code)).sort())
    const api = await postContact(app.url, '{}', {}, '/api/contact', app.fetch)
    for (const response of [page, api]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
    // The same policy on every answer: another page view, the API's answer, a 404.
    const again = await app.fetch(`${app.url}/`)
    const missing = await app.fetch(`${app.url}/gibt-es-nicht`)
    expect(missing.status).toBe(404)
    expect(await missing.text()).not.toMatch(/\snonce=/i)
    for (const response of [again, api, missing]) expect(response.headers.get('content-security-policy')).toBe(csp)
  })

  test('the page is revalidated on every use (its ETag answered 304 within its second), the hashed assets are cached for good', async () => {
    app = await sharedApp()
    const page = await app.fetch(`${app.url}/`)
    expect(page.headers.get('cache-control')).toBe('no-cache')
    // A page and its ETag change with the second its token is of (decision 056): asked again with the ETag until the
    // second has not changed in between, the answer is a 304 without a body; each 200 meanwhile has an ETag of its own.
    let etag = page.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
    for (let tries = 0; ; tries++) {
      const again = await app.fetch(`${app.url}/`, { headers: { 'if-none-match': etag } })
      if (again.status === 304) {
        expect([await again.text(), again.headers.get('etag'), again.headers.get('cache-control')]).toEqual(['', etag, 'no-cache'])
        break
      }
      expect(again.status).toBe(200)
      expect(again.headers.get('etag')).not.toBe(etag)
      etag = again.headers.get('etag')!
      // Each pair of requests crossing a second boundary: not 100 times in a row.
      expect(tries).toBeLessThan(100)
    }
    // The page's inline loader imports the script when the visitor turns to the form.
    const asset = /import\(["'`](\/assets\/[^"'`]+\.js)["'`]\)/.exec(await page.text())![1]!
    const script = await app.requestAs('127.0.0.1:3000', `${app.url}${asset}`, { headers: { 'accept-encoding': FETCH_ENCODINGS } })
    expect(script.status).toBe(200)
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    // The server answers with the file compressed at build time.
    const encoding = script.headers['content-encoding']
    expect(['br', 'gzip']).toContain(encoding)
    const text = (encoding === 'br' ? zlib.brotliDecompressSync(script.body) : zlib.gunzipSync(script.body)).toString('utf8')
    expect(text).toBe(fs.readFileSync(path.join(CLIENT_DIR, asset), 'utf8'))
  })

  test('the page goes gzip-compressed to clients that accept it, and is the same page as uncompressed', async () => {
    app = await buildTestApp()
    const get = (acceptEncoding?: string) =>
      app!.requestAs('127.0.0.1:3000', `${app!.url}/`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })
    // Token and hash differ per answer; everything else must be the same.
    const fixed = (html: string) => html.replace(/"(token|hash)":"[^"]+"/g, '$1').replace(/value="[^"]*"/g, 'value')
    const plain = await get()
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toBe('Accept-Encoding')
    for (const acceptEncoding of ['gzip', 'gzip, deflate, br, zstd', 'br;q=1, gzip;q=0.5']) {
      // Twice: the first answer for a host makes the compressed parts, the second uses them.
      for (let i = 0; i < 2; i++) {
        const zipped = await get(acceptEncoding)
        expect(zipped.headers['content-encoding']).toBe('gzip')
        expect(zipped.headers.vary).toBe('Accept-Encoding')
        const html = zlib.gunzipSync(zipped.body).toString()
        expect(fixed(html)).toBe(fixed(plain.body.toString()))
        expect(zipped.body.length).toBeLessThan(plain.body.length / 2)
      }
    }
    expect((await get('gzip;q=0, br')).headers['content-encoding']).toBeUndefined()
    // Each compressed answer carries the token of the second it was served in (derived, decision 055), not one
    // spliced in before.
    const tokenOf = (body: Buffer) => /"token":"([^"]+)"/.exec(zlib.gunzipSync(body).toString())![1]
    for (let i = 0; i < 2; i++) {
      const from = Math.floor(Date.now() / TOKEN_WINDOW_MS)
      const zipped = await get('gzip')
      const to = Math.floor(Date.now() / TOKEN_WINDOW_MS)
      const current = Array.from({ length: to - from + 1 }, (_, w) => deriveToken(app!.app.secret, '127.0.0.1', from + w))
      expect(current).toContain(tokenOf(zipped.body))
    }
  })

  test('unknown paths get 404: JSON under /api, a page elsewhere; the built index.html is not served raw', async () => {
    app = await sharedApp()
    await expectError(await app.fetch(`${app.url}/api/unknown`), 404)
    const page = await app.fetch(`${app.url}/nirgendwo`)
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('Diese Seite gibt es nicht.')
    expect((await app.fetch(`${app.url}/index.html`)).status).toBe(404)
  })
})
