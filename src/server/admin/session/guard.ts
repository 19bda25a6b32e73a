// The console's one door: every request but the open routes needs a session (the admin app's root onRequest hook,
// so a route added later, and every path that matches none, is guarded without asking for it). Beside the sign-in
// routes (route.ts), which open it.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CONSOLE_PATHS } from '../../../shared/console-api.ts'
import type { ConsoleApp } from '../decorations.ts'
import { sendPage } from '../render.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import { SESSION_IDLE_MS, SESSION_MAX_MS, hashOfSessionId, sessionIdOf } from './cookie.ts'

/** What answers without a session: the sign-in page, signing in, and the console's static files. */
const OPEN_ROUTES = new Set([
  'GET /anmelden',
  'HEAD /anmelden',
  'POST /api/session',
  'POST /api/session/passkey/options',
  'POST /api/session/passkey',
  'GET /assets/*',
  'HEAD /assets/*',
])

export const sendError = (reply: FastifyReply, status: number, error: string) => reply.code(status).type('application/json; charset=utf-8').send({ error })

/** A page is what a browser navigates to; everything else (the API, other methods) is answered with JSON. */
const wantsPage = (request: FastifyRequest) => (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/')

/** Whether the request carries a session that is valid now; using it keeps it alive. */
export async function hasSession(request: FastifyRequest): Promise<boolean> {
  const id = sessionIdOf(request)
  return id !== null && request.server.store.useSession(hashOfSessionId(id), Date.now(), SESSION_IDLE_MS, SESSION_MAX_MS)
}

/**
 * Lets a request with a valid session (or for an open route) through; answers every other one. The console's onRequest
 * hook, given the console (its renderer is not on `request.server`'s type, which carries what both apps share).
 */
export async function sessionGuard(app: Pick<ConsoleApp, 'store' | 'renderer'>, request: FastifyRequest, reply: FastifyReply) {
  if (OPEN_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return
  if (await hasSession(request)) return
  const { store, renderer } = app
  if ((await store.ownerPassword()) === null) {
    return wantsPage(request) ? sendPage(reply, renderer, { page: 'setup' }) : sendError(reply, 401, CONSOLE_TEXT.session.setup)
  }
  if (wantsPage(request)) return reply.code(303).header('location', CONSOLE_PATHS.signin).send()
  return sendError(reply, 401, CONSOLE_TEXT.session.signIn)
}
