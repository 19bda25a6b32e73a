// POST /api/contact (and /api/sendMail, the original product's second name for it): validate, verify the token, store the
// inquiry durably, answer. Mail is sent later by the outbox worker, never inside the request.
import { createHash } from 'node:crypto'
import formbody from '@fastify/formbody'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import {
  FIELD,
  VISIBLE_FIELDS,
  contactIssues,
  contactSchema,
  contactSuccessSchema,
  parseOffer,
  type ContactPayload,
  type ContactSuccess,
  type VisibleField,
} from '../../shared/contact.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { HttpError, requestIssues, sendFailure, toFailure } from '../http/errors.ts'
import { errorBody, sentAsIs } from '../http/zod-schemas.ts'
import { refuseCrossSite } from '../http/same-origin.ts'
import type { PageHost } from '../sites/host.ts'
import { varyByLanguage } from '../sites/language.ts'
import type { Site } from '../sites/resolver.ts'
import type { MailPlan, Offer, SaveResult } from '../store/types.ts'
import { confirmationFor } from '../submission/confirmation.ts'
import { mailboxOf } from '../lib/mailbox.ts'
import { ownerMailPlan } from '../submission/owner-mail.ts'
import { spamReason } from '../submission/spam.ts'
import { issueToken, verifyToken } from '../http/form-token.ts'
import { acceptSubmission, everyPostLimit } from '../submission/accept.ts'
import type { PublicApp } from '../decorations.ts'

const CONTACT_PATHS = ['/api/contact', '/api/sendMail'] as const
export const BODY_LIMIT = 32 * 1024

interface Submission {
  data: ContactPayload
  site: Site
  issuedAt: number
  offer: { offer: Offer | null; belowMinimum: boolean }
}

/** A form posted natively by a browser without JavaScript: it gets a page back, not JSON. */
const isFormPost = (request: FastifyRequest) => (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')

function contentHash(host: PageHost, data: ContactPayload): string {
  return createHash('sha256')
    .update(JSON.stringify([host.ascii, data[FIELD.name], data[FIELD.email], data[FIELD.message], data[FIELD.offer] ?? '']))
    .digest('base64url')
}

function visibleValues(body: unknown): Partial<Record<VisibleField, string>> {
  const source = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  return Object.fromEntries(VISIBLE_FIELDS.map((key) => [key, typeof source[key] === 'string' ? (source[key] as string) : '']))
}

/**
 * The offer in the domain's currency, if this domain asks for one, and whether it is below the minimum; 'invalid'
 * when it is written in another currency.
 */
function offerOf(site: Site, data: ContactPayload): { offer: Offer | null; belowMinimum: boolean } | 'invalid' {
  const minimum = site.settings.minOffer
  if (minimum === undefined) return { offer: null, belowMinimum: false }
  const currency = site.settings.currency ?? 'EUR'
  const amount = parseOffer(data[FIELD.offer] ?? '', currency)
  if (amount === 'invalid') return 'invalid'
  return amount === null ? { offer: null, belowMinimum: false } : { offer: { amount, currency }, belowMinimum: amount < minimum }
}

export default async function contactRoutes(app: PublicApp) {
  const { config, secret, store, outbox } = app
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  await app.register(formbody, { bodyLimit: BODY_LIMIT })
  // JSON (the script) and urlencoded (the form without script) only; Fastify would also parse text/plain.
  app.removeContentTypeParser('text/plain')

  // Accepted submissions per client and hour. Counted before storing, in the same step as the check (a burst
  // must not pass the check all at once), and given back when nothing was stored.
  const accepted = config.contactRateLimit > 0 ? app.rateLimits.quota('accepted inquiries') : null
  // Confirmation mails per recipient address and day, whatever CONTACT_RATE_LIMIT says (submission/confirmation.ts).
  const confirmMails = app.rateLimits.quota('confirmation mails')

  // Every answer speaks the language of the request's page, the errors of the JSON API too.
  const textOf = (request: FastifyRequest) => TEXTS[app.sites.answerLanguage(request).language]

  app.setErrorHandler((thrown, request, reply) => {
    const answer = app.sites.answerLanguage(request)
    // A body the schema refused: each visible field's hint in the page's language (shared/contact.ts).
    const issues = requestIssues(thrown)
    const error = issues ? new HttpError(400, TEXTS[answer.language].invalid, contactIssues(issues, answer.language).fieldErrors) : thrown
    if (!isFormPost(request)) return sendFailure(request, varyByLanguage(reply, answer), error, TEXTS[answer.language])
    const failure = toFailure(error, TEXTS[answer.language])
    reply.headers(failure.headers)
    const invalid = failure.statusCode === 400 && failure.body.fields
    return app.view.page(request, reply, failure.statusCode, {
      outcome: invalid
        ? { status: 'invalid', message: failure.body.error, fieldErrors: failure.body.fields }
        : { status: 'failed', message: failure.body.error },
      values: visibleValues(request.body),
    })
  })

  /** Before the body is looked at (preValidation): whose page, and whether it takes inquiries at all. */
  function siteOf(request: FastifyRequest): Site {
    const text = textOf(request)
    const lookup = app.sites.lookup(request)
    if (lookup.kind === 'invalid') throw new HttpError(400, text.badHost)
    if (lookup.kind !== 'site') throw new HttpError(404, text.unavailableDomain)
    // A sold name takes no more inquiries, whatever was sent; 410 says it is gone for good.
    if (lookup.site.settings.status === 'sold') throw new HttpError(410, text.sold)
    return lookup.site
  }

  /** After the route's schema passed the body: what the schema cannot know (the domain's currency, the token). */
  function checkSubmission(request: FastifyRequest, data: ContactPayload): Submission {
    // Passed in preValidation already; the request keeps its lookup (sites/resolver.ts), so this one costs nothing.
    const site = siteOf(request)
    const text = TEXTS[site.language]
    // The schema maps the domain as the browser can (URL); tr46 also checks its punycode labels. An address no mail
    // server resolves is refused with the same hint: mail could not reach it, and it would escape the counting.
    if (mailboxOf(data[FIELD.email]) === null) throw new HttpError(400, text.invalid, { [FIELD.email]: text.hintEmail })
    const offer = offerOf(site, data)
    if (offer === 'invalid') throw new HttpError(400, text.invalid, { [FIELD.offer]: text.hintOffer })
    const token = verifyToken(secret, data[FIELD.token], site.host.ascii, data[FIELD.hash])
    if (token.status !== 'valid') throw new HttpError(403, text.tokenInvalid)
    return { data, site, issuedAt: token.issuedAt, offer }
  }

  /** Stores the inquiry (queueing its mail) and says whether it is new: a repeated submission is not. */
  async function storeSubmission(request: FastifyRequest, { data, site, issuedAt, offer }: Submission, digest: string): Promise<boolean> {
    const { host } = site
    const now = Date.now()
    const spam = spamReason(data, issuedAt, now, config.minFillSeconds)
    // Spam is never mailed, notified nor confirmed.
    const mail: MailPlan = spam === null ? ownerMailPlan(site, offer.belowMinimum, config) : { queue: false }
    const confirmation = spam === null ? await confirmationFor(site, data[FIELD.email], confirmMails) : undefined
    let result: SaveResult | undefined
    try {
      result = await store.saveInquiry(
        {
          token: data[FIELD.token],
          contentHash: digest,
          domain: host.ascii,
          name: data[FIELD.name],
          email: data[FIELD.email],
          message: data[FIELD.message],
          language: site.language,
          spamReason: spam,
          ...offer,
          createdAt: now,
        },
        mail,
        confirmation?.plan,
      )
    } finally {
      if (result?.status !== 'created')
        await confirmation?.giveBack().catch((error: unknown) => request.log.warn({ err: error }, 'could not give back a rate-limit count'))
    }
    if (result.status === 'created') {
      if (mail.queue || confirmation?.plan.mail) outbox.kick()
      const confirm = confirmation && { kind: confirmation.plan.kind, mailed: confirmation.plan.mail }
      request.log.info({ inquiry: result.id, domain: host.ascii, spam, belowMinimum: offer.belowMinimum, confirm }, 'inquiry stored')
      return true
    }
    request.log.info({ inquiry: result.id }, 'repeated submission answered, not stored again')
    return false
  }

  async function handle(request: FastifyRequest, data: ContactPayload, reply: FastifyReply) {
    const submission = checkSubmission(request, data)
    const { site } = submission
    const digest = contentHash(site.host, data)
    await acceptSubmission(
      {
        quota: accepted,
        clientKey: clientKey(request),
        limit: config.contactRateLimit,
        // A token alone is shared by every page of the host served in its second: the pair tells a repeat.
        stored: async () => (await store.findInquiry(data[FIELD.token], digest)) !== null,
        full: (seconds) => new HttpError(429, TEXTS[site.language].rateLimited, undefined, { 'retry-after': String(seconds) }),
        log: request.log,
      },
      () => storeSubmission(request, submission, digest),
    )
    if (isFormPost(request)) return reply.code(303).header('cache-control', 'no-store').redirect('/?gesendet=1', 303)
    const next = issueToken(secret, site.host.ascii)
    const body: ContactSuccess = { ok: true, token: next.token, hash: next.signedIssueTime }
    return reply.code(200).header('cache-control', 'no-store').send(body)
  }

  // A wider limit on every POST, whatever its fate, so that a flood of invalid requests is cut off early too.
  const everyPost = everyPostLimit(config.contactRateLimit, 'contact-posts', clientKey, (request) => new HttpError(429, textOf(request).rateLimited))
  // JSON answers in the one error body; a form posted without script gets a page, a string no serializer sees.
  const schema = { body: contactSchema, response: { 200: contactSuccessSchema, 303: sentAsIs, '4xx': errorBody, '5xx': errorBody } }
  // The site's checks before the body is validated. A callback, not an async function: an async hook costs
  // a promise per request.
  const preValidation = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      siteOf(request)
    } catch (error) {
      return done(error as Error)
    }
    done()
  }
  // Another site's posts are refused before they count against the visitor's posts (http/same-origin.ts).
  const crossSite = refuseCrossSite((request) => textOf(request).crossSite)
  for (const url of CONTACT_PATHS) {
    app
      .withTypeProvider<ZodTypeProvider>()
      .post(url, { bodyLimit: BODY_LIMIT, onRequest: crossSite, config: everyPost, schema, preValidation }, (request, reply) =>
        handle(request, request.body, reply),
      )
  }
}
