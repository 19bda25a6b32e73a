import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../../client/page-props.ts'
import { parseHost } from '../host.ts'
import type { PageRenderer } from '../render.ts'
import { issueToken } from '../token.ts'

export interface PageDeps {
  secret: string
  renderer: PageRenderer
}

const HTML = 'text/html; charset=utf-8'

export function sendNotice(reply: FastifyReply, renderer: PageRenderer, statusCode: number, title: string, text: string) {
  return reply
    .code(statusCode)
    .type(HTML)
    .header('cache-control', 'no-store')
    .send(renderer.notice(title, text, statusCode === 404 ? { href: '/', label: TEXT.backHome } : undefined))
}

/** Renders the landing page for the request's host with a fresh token; extra props carry a no-script outcome. */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PageDeps,
  statusCode = 200,
  extra: Pick<PageProps, 'outcome' | 'values'> = {},
) {
  const host = parseHost(request.headers.host)
  if (!host) return sendNotice(reply, deps.renderer, 400, TEXT.badRequest, TEXT.badHost)
  const { token, hash } = issueToken(deps.secret, host.ascii)
  const html = deps.renderer.page({ host: host.display, token, hash, ...extra }, reply.cspNonce.script)
  // Every page carries a fresh single-use token, so no cache may keep it.
  return reply.code(statusCode).type(HTML).header('cache-control', 'no-store').send(html)
}

export default async function pageRoutes(app: FastifyInstance, deps: PageDeps) {
  app.get<{ Querystring: { gesendet?: string } }>('/', async (request, reply) => {
    // Where a form sent without JavaScript lands after success (post/redirect/get).
    const sent = request.query.gesendet === '1'
    return sendPage(request, reply, deps, 200, sent ? { outcome: { status: 'success' } } : {})
  })
}
