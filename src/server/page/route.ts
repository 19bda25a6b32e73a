// GET / (the landing page of the request's host) and the owner's own Impressum and Datenschutzerklärung.
import { TEXTS } from '../../shared/texts-all.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

export default async function pageRoutes(app: PublicApp) {
  const { view, sites } = app
  // The page's bytes as the renderer made them: a string or Buffer reaches no serializer, and without a schema for
  // its query, params or headers Fastify validates nothing either, so this costs GET / nothing per request. Any
  // query is taken (links carry campaign parameters); only gesendet=1 means something.
  const page = { schema: { response: { 200: sentAsIs, 404: sentAsIs } } }
  app.get<{ Querystring: { gesendet?: string } }>('/', page, async (request, reply) => {
    // Where a form sent without JavaScript lands after success (post/redirect/get).
    const sent = request.query.gesendet === '1'
    return view.page(request, reply, 200, sent ? { outcome: { status: 'success' } } : {})
  })

  // The owner's own Impressum and Datenschutzerklärung, when their texts are configured. The owner's text is shown
  // as it is; title and link are in the site's language.
  for (const [path, kind] of [
    ['/impressum', 'imprint'],
    ['/datenschutz', 'privacy'],
  ] as const) {
    app.get(path, page, async (request, reply) => {
      const lookup = sites.lookup(request)
      const answer = sites.answerLanguage(request)
      const words = TEXTS[answer.language]
      const text = lookup.kind === 'site' ? sites.legalText(kind, lookup.site) : undefined
      if (!text) return view.notice(reply, 404, answer, words.notFoundTitle, words.notFound)
      return view.legal(reply, answer, words[kind], text)
    })
  }
}
