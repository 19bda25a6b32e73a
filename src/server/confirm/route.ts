// GET and POST /bestaetigen: the link of a verify mail (decision 021). GET only shows a page with a button; the
// POST of that button confirms. Mail scanners and link previews fetch links, they do not submit forms, so no
// inquiry is confirmed by a machine that merely looked at the mail.
import formbody from '@fastify/formbody'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Language } from '../../shared/language.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { ownerMailPlan } from '../submission/owner-mail.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError, toFailure } from '../http/errors.ts'
import { refuseCrossSite } from '../http/same-origin.ts'
import type { AnswerLanguage } from '../sites/language.ts'
import type { Site } from '../sites/resolver.ts'
import { confirmInquiry } from '../store/tables/confirmations.ts'
import { StoreUnavailableError, type ConfirmationTarget } from '../store/types.ts'
import { CONFIRM_PATH, checkConfirmToken, readConfirmToken } from '../lib/confirm-link.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

const HOUR_MS = 60 * 60 * 1000
/** Requests to the link per client address and hour, as a multiple of CONTACT_RATE_LIMIT (as for the form's POSTs). */
const LIMIT_FACTOR = 10

/**
 * What a link stands for, and in which language to answer: the language the inquiry was written in, once the link is
 * known to be one of ours; otherwise (`language` absent) the site's.
 */
type Checked =
  { kind: 'waiting'; site: Site; target: ConfirmationTarget; language: Language } | { kind: 'already' | 'expired' | 'invalid'; language?: Language }

export default async function confirmRoutes(app: PublicApp) {
  const { secret, sites, view, store, outbox, config } = app
  await app.register(formbody, { bodyLimit: 1024 })
  // The link is opened from a mail: every answer is a page, errors too.
  app.setErrorHandler((error, request, reply) => {
    const answer = sites.answerLanguage(request)
    const failure = toFailure(error, TEXTS[answer.language])
    if (failure.statusCode >= 500 && !(error instanceof StoreUnavailableError)) request.log.error({ err: error }, 'request failed')
    return view.notice(reply.headers(failure.headers), failure.statusCode, answer, TEXTS[answer.language].confirmTitle, failure.body.error)
  })

  /** What the link stands for; the expiry is believed only once the signature holds. */
  async function check(site: Site, t: unknown, now: number): Promise<Checked> {
    const token = readConfirmToken(t)
    if (!token) return { kind: 'invalid' }
    const target = await store.confirmationTarget(token.id)
    // Erased: it expired (the usual case), or the owner deleted it.
    if (!target) return { kind: token.expiresAt <= now ? 'expired' : 'invalid' }
    if (target.domain !== site.host.ascii) return { kind: 'invalid' }
    const link = checkConfirmToken(secret, token, target, now)
    if (link === 'invalid') return { kind: 'invalid' }
    const { language } = target
    if (target.status !== 'unconfirmed') return { kind: 'already', language }
    return link === 'expired' ? { kind: 'expired', language } : { kind: 'waiting', site, target, language }
  }

  /** The inquiry's language when the link named one, which no Accept-Language changes; else the site's. */
  const languageOf = (site: Site, checked: Checked): AnswerLanguage => (checked.language ? { language: checked.language, variesByLanguage: false } : site)

  function answer(reply: FastifyReply, kind: 'already' | 'expired' | 'invalid' | 'confirmed', language: AnswerLanguage) {
    const text = TEXTS[language.language]
    switch (kind) {
      case 'confirmed':
        return view.notice(reply, 200, language, text.confirmedTitle, text.confirmedText)
      case 'already':
        return view.notice(reply, 200, language, text.confirmedTitle, text.confirmedAlready)
      case 'expired':
        return view.notice(reply, 410, language, text.confirmExpiredTitle, text.confirmExpired)
      case 'invalid':
        return view.notice(reply, 400, language, text.confirmInvalidTitle, text.confirmInvalid)
    }
  }

  /** The request's site, or null once it was answered (another host, www redirect, unknown host). */
  function siteOf(request: FastifyRequest, reply: FastifyReply): Site | null {
    const lookup = sites.lookup(request)
    if (lookup.kind === 'site') return lookup.site
    void view.page(request, reply)
    return null
  }

  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  const limited =
    config.contactRateLimit > 0
      ? {
          rateLimit: {
            groupId: 'confirm-links',
            max: config.contactRateLimit * LIMIT_FACTOR,
            timeWindow: HOUR_MS,
            keyGenerator: clientKey,
            errorResponseBuilder: (request: FastifyRequest) => new HttpError(429, TEXTS[sites.answerLanguage(request).language].rateLimited),
          },
        }
      : {}

  // Pages, whatever was sent: a link that is not one is told so on a page (sentAsIs: strings reach no serializer).
  const schema = { response: { '2xx': sentAsIs, '4xx': sentAsIs } }
  app.get<{ Querystring: { t?: unknown } }>(CONFIRM_PATH, { config: limited, schema }, async (request, reply) => {
    const site = siteOf(request, reply)
    if (!site) return reply
    const checked = await check(site, request.query.t, Date.now())
    const language = languageOf(site, checked)
    if (checked.kind !== 'waiting') return answer(reply, checked.kind, language)
    const text = TEXTS[checked.language]
    return view.notice(reply, 200, language, text.confirmTitle, text.confirmText(site.host.display), {
      action: CONFIRM_PATH,
      fields: { t: String(request.query.t) },
      label: text.confirmButton,
    })
  })

  // Another site's posts are refused before they count against the visitor's (http/same-origin.ts).
  const crossSite = refuseCrossSite((request) => TEXTS[sites.answerLanguage(request).language].crossSite)
  app.post<{ Body: { t?: unknown } | undefined }>(CONFIRM_PATH, { onRequest: crossSite, config: limited, schema }, async (request, reply) => {
    const site = siteOf(request, reply)
    if (!site) return reply
    const now = Date.now()
    const checked = await check(site, request.body?.t, now)
    const language = languageOf(site, checked)
    if (checked.kind !== 'waiting') return answer(reply, checked.kind, language)
    const { target } = checked
    const mail = ownerMailPlan(site, target.belowMinimum, config)
    // The use case holds its transaction (decision 060): the inquiry confirmed, its mail and notifications queued.
    const result = await store.transact((work) => confirmInquiry(work.trx, target.id, target.domain, mail, now))
    if (result === 'confirmed') {
      outbox.kick()
      request.log.info({ inquiry: target.id, domain: target.domain }, 'inquiry confirmed by its visitor')
    }
    return answer(reply, result === 'missing' ? 'expired' : result, language)
  })
}
