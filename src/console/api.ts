// Every call of the console's JSON API: the custom header on each request (the server refuses state changes
// without it), one error shape ({ error }), and a 401 sends the owner to the sign-in page.
import { CONSOLE_HEADER, CONSOLE_PATHS } from '../shared/console-api.ts'

export type ApiResult<T> = { status: 'success'; data: T } | { status: 'error'; error: string; code: number }

const UNREACHABLE = 'Der Server ist nicht erreichbar. Bitte später erneut versuchen.'

export async function callApi<T>(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  { signIn = false }: { signIn?: boolean } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { [CONSOLE_HEADER]: '1', accept: 'application/json' }
  // A file (a Blob) goes as its bytes with its own type; anything else as JSON.
  if (body !== undefined) headers['content-type'] = body instanceof Blob ? body.type : 'application/json'
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
    })
  } catch {
    return { status: 'error', error: UNREACHABLE, code: 0 }
  }
  const payload = await response
    .text()
    .then((text) => (text ? (JSON.parse(text) as unknown) : null))
    .catch(() => null)
  if (response.status === 401 && !signIn) {
    // The session ended (expired, signed out elsewhere, new password): sign in again.
    window.location.assign(CONSOLE_PATHS.signin)
    return { status: 'error', error: 'Die Sitzung ist abgelaufen. Bitte neu anmelden.', code: 401 }
  }
  if (!response.ok) {
    const error =
      payload && typeof payload === 'object' && 'error' in payload && typeof payload.error === 'string'
        ? payload.error
        : `Der Server antwortete mit Fehler ${response.status}.`
    return { status: 'error', error, code: response.status }
  }
  return { status: 'success', data: payload as T }
}

export const go = (path: string) => window.location.assign(path)
