// Building and sending contact submissions the way the page does.
import http from 'node:http'
import net from 'node:net'
import { expect } from 'vitest'

export const VISITOR = {
  name58fnlsd: 'Erika Mustermann',
  name58fnlsdbee: '',
  themail3h6: 'erika@example.de',
  themail3h6bee: '',
  message: 'Was kostet die Domain?',
}

export type Fields = Partial<Record<keyof typeof VISITOR | 'token' | 'hash', unknown>> & Record<string, unknown>

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  html: string
}

/**
 * A request with any Host header (fetch() does not let a caller choose it). `body` goes as JSON, `form` as a form
 * without script sends it.
 */
export function requestAs(
  host: string,
  url: string,
  options: { method?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<RawResponse> {
  const body = options.form ? new URLSearchParams(options.form).toString() : options.body === undefined ? undefined : JSON.stringify(options.body)
  const headers: http.OutgoingHttpHeaders = { ...options.headers, host }
  const type = options.form ? 'application/x-www-form-urlencoded' : 'application/json'
  if (body !== undefined) Object.assign(headers, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  return new Promise((resolve, reject) => {
    // localAddress: another loopback address (127.0.0.2) is another client to the server.
    const request = http.request(
      url,
      { method: options.method ?? 'GET', headers, ...(options.localAddress && { localAddress: options.localAddress }) },
      (response) => {
        let html = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (html += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, html }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/** GET / for `host`. */
export const getPage = (url: string, host: string) => requestAs(host, `${url}/`)

/**
 * The headers a browser sends with GET /: a request without them is no visit (decision 049). `n` makes another
 * browser (another User-Agent), so two requests are two clients rather than a repeat.
 */
export const browserHeaders = (n = 0) => ({
  'user-agent': `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.${n} Safari/537.36`,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'de-DE,de;q=0.9',
})

/** How often a page shows `text` to the reader: in its body (the <title> is the tab's, not the page's). */
export const timesShown = (html: string, text: string) => html.slice(html.indexOf('<body')).split(text).length - 1

/** fetch(), or an app's in-process stand-in for it (InProcessApp.fetch in helpers/app.ts). */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>

/** GET / as a browser would (for `host`, if given, with `headers`), and the token and hash of its form. */
export async function fetchForm(
  url: string,
  host?: string,
  headers: Record<string, string> = {},
  send: Fetch = fetch,
): Promise<{ token: string; hash: string; html: string }> {
  // fetch() cannot name another Host; an in-process app's stand-in can.
  const { status, html } =
    host && send === fetch
      ? await requestAs(host, `${url}/`, { headers })
      : await send(`${url}/`, { headers: { ...headers, ...(host && { host }) } }).then(async (r) => ({ status: r.status, html: await r.text() }))
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  const hash = /name="hash" value="([^"]+)"/.exec(html)?.[1]
  if (!token || !hash) throw new Error(`no form in the page (status ${status})`)
  return { token, hash, html }
}

/** POST /api/contact (or another path) with a JSON body, as the page's script does. */
export function postContact(url: string, body: unknown, headers: Record<string, string> = {}, path = '/api/contact', send: Fetch = fetch) {
  return send(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** A whole visit: fetch the page, fill the form (VISITOR, changed by `fields`), send it. */
export async function submitInquiry(url: string, fields: Fields = {}, headers: Record<string, string> = {}, send: Fetch = fetch) {
  const { token, hash } = await fetchForm(url, undefined, {}, send)
  const body = { ...VISITOR, token, hash, ...fields }
  const response = await postContact(url, body, headers, '/api/contact', send)
  return Object.assign(response, { sent: body })
}

/** The one error shape: { error: "<German sentence>" }, with the given status. */
export async function expectError(response: Response, status: number, message?: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = await response.json()
  expect(typeof body.error).toBe('string')
  if (message) expect(body.error).toBe(message)
  return body as { error: string; fields?: Record<string, string> }
}

export interface RawHttpResponse {
  status: number
  /** Header names lower-cased; the last value of a repeated header. */
  headers: Record<string, string>
  body: string
}

/**
 * Writes `head` (request line and headers, without the blank line) to a socket as it is, with Connection: close,
 * and reads the answer: for requests no HTTP client sends (absolute-form targets, any Host header).
 */
export function rawRequest(port: number, head: string): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    // Written, not ended: Node's server drops a request still being answered when the client half-closes.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`, 'latin1'))
    let raw = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (raw += chunk))
    socket.on('error', reject)
    socket.on('end', () => {
      const end = raw.indexOf('\r\n\r\n')
      const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: raw.slice(end + 4) })
    })
  })
}
