// Every call of the console's JSON API: the custom header on each request (the server refuses state changes
// without it), one error shape ({ error }), and a 401 sends the owner to the sign-in page. Each call names the
// schema of its answer (src/shared, the one the route answers by): an answer that does not match it is an error the
// page shows, never data the page renders from (decision 059).
import * as z from 'zod/mini'
import { CONSOLE_HEADER, CONSOLE_PATHS } from '../shared/console-api.ts'

export type ApiResult<T> = { status: 'success'; data: T } | { status: 'error'; error: string; code: number }

const UNREACHABLE = 'Der Server ist nicht erreichbar. Bitte später erneut versuchen.'

/** What the console says when the server's answer is not what this page expects: mostly a page older than the server. */
export const MISMATCH = 'Die Antwort des Servers passt nicht zu dieser Seite. Bitte die Seite neu laden.'

/** An answer without a body (204). */
export const noContent = z.null()
/** `{ ok: true }`: done, nothing more to say. */
export const okAnswer = z.object({ ok: z.literal(true) })

/** "MISMATCH (items.0.status)": where the answer first differs, for the owner to pass on; never a value of it. */
function mismatchOf(error: z.core.$ZodError): string {
  const path = error.issues[0]?.path.map(String).join('.')
  return path ? `${MISMATCH} (${path})` : MISMATCH
}

export async function callApi<S extends z.core.$ZodType>(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  answer: S,
  body?: unknown,
  { signIn = false }: { signIn?: boolean } = {},
): Promise<ApiResult<z.output<S>>> {
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
  // undefined: a body that is not JSON, which no answer's schema takes (an empty body is null: 204).
  const payload = await response
    .text()
    .then((text) => (text ? (JSON.parse(text) as unknown) : null))
    .catch(() => undefined)
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
  const checked = z.safeParse(answer, payload)
  if (!checked.success) return { status: 'error', error: mismatchOf(checked.error), code: response.status }
  return { status: 'success', data: checked.data }
}

export const go = (path: string) => window.location.assign(path)
