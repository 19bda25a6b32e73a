// The checkout's handlers (route.ts registers its routes): loaded with the first request to /kaufen, not at the
// server's start (decision 063). With them come the checkout's own schema, the instalments and the checkout page.
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PublicApp } from '../decorations.ts'
import { planProblem, splitAmount } from '../deal/instalments.ts'
import { formatMinor, toMinor } from '../lib/money.ts'
import { CHECKOUT_FIELD, CHECKOUT_PATH, CHECKOUT_VISIBLE, checkCheckout, type CheckoutPayload, type CheckoutVisibleField } from '../../shared/checkout.ts'
import type { FieldErrors } from '../../shared/contact.ts'
import { priceText } from '../../shared/price-terms.ts'
import { TEXTS } from '../../shared/texts-all.ts'
import { ownerMailPlan } from '../submission/owner-mail.ts'
import { spamReason } from '../submission/spam.ts'
import { issueToken, verifyToken } from '../http/form-token.ts'
import { HttpError, toFailure } from '../http/errors.ts'
import { mailboxOf } from '../lib/mailbox.ts'
import { priceTermsOf } from '../sites/settings.ts'
import type { Site } from '../sites/resolver.ts'
import type { CheckoutDetails, SaveResult } from '../store/types.ts'
import { sellsAtFixedPrice } from '../sites/checkout-rules.ts'
import { acceptSubmission } from '../submission/accept.ts'

/** A plan of the checkout in minor units, as the inquiry keeps it (decision 042). */
interface OfferedPlan {
  rates: number
  downPayment: number
  transfer: 'after-last' | 'at-once'
}

/** The domain's plan, when its price can be split by it: a down payment below the price, a cent or yen for each rate. */
function offeredPlan(site: Site): OfferedPlan | undefined {
  const { instalments, price, currency = 'EUR' } = site.settings
  if (instalments === undefined || price === undefined) return undefined
  const plan = { ...instalments, downPayment: toMinor(instalments.downPayment, currency) }
  return planProblem(toMinor(price, currency), plan) === null ? plan : undefined
}

/** What the owner reads as the inquiry's message: the purchase in words (German, as the console and its mails). */
function checkoutMessage(price: string, details: CheckoutDetails, name: string, plan?: OfferedPlan & { down: string }): string {
  const country = new Intl.DisplayNames(['de'], { type: 'region' }).of(details.country) ?? details.country
  return [
    `Kauf zum Festpreis: ${price}`,
    ...(plan
      ? [
          `Zahlung in ${plan.rates} Monatsraten${plan.downPayment > 0 ? ` nach einer Anzahlung von ${plan.down}` : ''} (die Domain wird ${plan.transfer === 'at-once' ? 'sofort' : 'nach der letzten Rate'} übertragen)`,
        ]
      : []),
    '',
    'Rechnungsanschrift:',
    ...(details.company ? [details.company] : []),
    name,
    details.street,
    `${details.postcode} ${details.city}`,
    `${country} (${details.country})`,
    ...(details.vatId ? ['', `USt-IdNr.: ${details.vatId}`] : []),
  ].join('\n')
}

const fieldsOf = (body: unknown) => (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>

function visibleValues(body: unknown): Partial<Record<CheckoutVisibleField, string>> {
  const source = fieldsOf(body)
  return Object.fromEntries(CHECKOUT_VISIBLE.map((key) => [key, typeof source[key] === 'string' ? (source[key] as string).slice(0, 1000) : '']))
}

/**
 * The terms the buyer is shown and ticks "binding" for (the amount in minor units, the currency, the VAT note, the
 * plan offered), as the short digest the form carries. A form filled in at other terms than the file's now must not
 * bind the buyer to the new ones: the price is the file's at the moment of the POST, so the two are compared. Not
 * signed: a client that forges it only claims to have seen the terms the server stores anyway.
 */
function termsOf(site: Site): string {
  const currency = site.settings.currency ?? 'EUR'
  const { vat } = priceTermsOf(site.settings)
  const shown = [toMinor(site.settings.price!, currency), currency, vat ?? null, offeredPlan(site) ?? null]
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 22)
}

const postedTerms = (body: unknown) => fieldsOf(body)[CHECKOUT_FIELD.terms]

export function checkoutHandlers(app: PublicApp, clientKey: (request: FastifyRequest) => string) {
  const { config, secret, store, outbox, sites, view } = app
  // One count for checkouts and inquiries: the quota of accepted submissions per client and hour.
  const accepted = config.contactRateLimit > 0 ? app.rateLimits.quota('accepted inquiries') : null

  /** The site whose name this server sells at its fixed price, or the page's answer: 404, or 410 once sold. */
  function sellingSite(request: FastifyRequest): Site {
    const lookup = sites.lookup(request)
    const text = TEXTS[sites.answerLanguage(request).language]
    if (lookup.kind === 'invalid') throw new HttpError(400, text.badHost)
    if (lookup.kind !== 'site') throw new HttpError(404, text.unavailableDomain)
    const { site } = lookup
    if (site.settings.status === 'sold') throw new HttpError(410, TEXTS[site.language].sold)
    if (!sellsAtFixedPrice(site)) throw new HttpError(404, TEXTS[site.language].checkoutUnavailable)
    return site
  }

  function priceOf(site: Site) {
    const words = priceText(priceTermsOf(site.settings, site.language), site.language)
    return { price: words?.terms?.amount ?? words?.line ?? '', ...(words?.vat && { vat: words.vat }) }
  }

  /** The domain's instalment offer as the form shows it: the count and the first (largest) rate. */
  function instalmentsOf(site: Site, chosen: boolean) {
    const plan = offeredPlan(site)
    if (plan === undefined) return {}
    const currency = site.settings.currency ?? 'EUR'
    const first = splitAmount(toMinor(site.settings.price!, currency), plan.rates, plan.downPayment)[0]!
    return {
      instalments: {
        rates: plan.rates,
        rate: formatMinor(first, currency, site.language),
        ...(plan.downPayment > 0 && { downPayment: formatMinor(plan.downPayment, currency, site.language) }),
        atOnce: plan.transfer === 'at-once',
        chosen,
      },
    }
  }

  function showForm(
    reply: FastifyReply,
    site: Site,
    statusCode: number,
    extra: {
      values?: Partial<Record<CheckoutVisibleField, string>>
      fieldErrors?: Partial<Record<CheckoutVisibleField, string>>
      error?: string
      chosen?: boolean
    } = {},
  ) {
    const { token, signedIssueTime } = issueToken(secret, site.host.ascii)
    const { chosen = false, ...shown } = extra
    return view.checkoutPage(reply, site, statusCode, {
      language: site.language,
      host: site.host.display,
      ...priceOf(site),
      token,
      hash: signedIssueTime,
      terms: termsOf(site),
      ...(Object.keys(site.legal).length > 0 && { legal: site.legal }),
      ...instalmentsOf(site, chosen),
      ...shown,
    })
  }

  /** What was typed, to be shown again; the binding tick only while the terms it was given for are the file's. */
  function typedAgain(site: Site, body: unknown) {
    const values = visibleValues(body)
    if (postedTerms(body) !== termsOf(site)) values[CHECKOUT_FIELD.binding] = ''
    return values
  }

  function failed(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const answer = sites.answerLanguage(request)
    const failure = toFailure(error, TEXTS[answer.language])
    reply.headers(failure.headers)
    const lookup = sites.lookup(request)
    // A refused form of a name still sold here is shown again with what was typed; any other answer is a notice.
    if (request.method === 'POST' && lookup.kind === 'site' && failure.statusCode !== 404 && failure.statusCode !== 410 && sellsAtFixedPrice(lookup.site)) {
      const values = typedAgain(lookup.site, request.body)
      const chosen = fieldsOf(request.body)[CHECKOUT_FIELD.payment] === 'instalments'
      return showForm(
        reply,
        lookup.site,
        failure.statusCode,
        failure.body.fields ? { values, fieldErrors: failure.body.fields, error: failure.body.error, chosen } : { values, error: failure.body.error, chosen },
      )
    }
    const title = failure.statusCode === 404 ? TEXTS[answer.language].notFoundTitle : failure.body.error
    return view.notice(reply, failure.statusCode, answer, title, failure.body.error)
  }

  /**
   * One sale of a name at a time (decision 037): while a deal for it is open no checkout is taken (409, said on a page
   * of its own); a name the store knows as sold (another instance may not have seen it yet) is gone (410).
   */
  async function underWay(reply: FastifyReply, site: Site): Promise<FastifyReply | null> {
    const deal = await store.dealOfDomain(site.host.ascii)
    if (!deal) return null
    const text = TEXTS[site.language]
    if (deal.status === 'completed') throw new HttpError(410, text.sold)
    return view.notice(
      reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store'),
      409,
      site,
      text.checkoutInProgressTitle,
      text.checkoutInProgress,
    )
  }

  async function form(request: FastifyRequest<{ Querystring: { gesendet?: string } }>, reply: FastifyReply) {
    const site = sellingSite(request)
    if (request.query.gesendet === '1') {
      const text = TEXTS[site.language]
      return view.notice(reply.header('x-robots-tag', 'noindex, nofollow'), 200, site, text.checkoutSentTitle, text.checkoutSent)
    }
    return (await underWay(reply, site)) ?? showForm(reply, site, 200)
  }

  function detailsOf(data: CheckoutPayload): CheckoutDetails {
    return {
      company: data[CHECKOUT_FIELD.company] || null,
      street: data[CHECKOUT_FIELD.street],
      postcode: data[CHECKOUT_FIELD.postcode],
      city: data[CHECKOUT_FIELD.city],
      country: data[CHECKOUT_FIELD.country],
      vatId: data[CHECKOUT_FIELD.vatId] || null,
    }
  }

  /** What the checkout stores, and its digest: with the token, the key that tells a retry from another checkout. */
  function checkoutContent(site: Site, data: CheckoutPayload) {
    const details = detailsOf(data)
    const currency = site.settings.currency ?? 'EUR'
    // The price is the file's, never the client's: nothing posted names an amount.
    const amount = site.settings.price!
    // The plan is the file's too: the buyer only chooses whether to pay by it (decision 042).
    const plan = data[CHECKOUT_FIELD.payment] === 'instalments' ? offeredPlan(site) : undefined
    const digest = createHash('sha256')
      .update(JSON.stringify([site.host.ascii, data[CHECKOUT_FIELD.name], data[CHECKOUT_FIELD.email], details, amount, currency, plan ?? null]))
      .digest('base64url')
    return { details, currency, amount, plan, digest }
  }

  async function saveCheckout(request: FastifyRequest, site: Site, data: CheckoutPayload, issuedAt: number): Promise<SaveResult> {
    const now = Date.now()
    const spam = spamReason(data, issuedAt, now, config.minFillSeconds)
    const { details, currency, amount, plan, digest } = checkoutContent(site, data)
    const { price, vat } = priceOf(site)
    const result = await store.saveInquiry(
      {
        token: data[CHECKOUT_FIELD.token],
        contentHash: digest,
        domain: site.host.ascii,
        name: data[CHECKOUT_FIELD.name],
        email: data[CHECKOUT_FIELD.email],
        message: checkoutMessage(
          vat ? `${price} ${vat}` : price,
          details,
          data[CHECKOUT_FIELD.name],
          plan && { ...plan, down: formatMinor(plan.downPayment, currency, 'de') },
        ),
        language: site.language,
        spamReason: spam,
        offer: { amount, currency },
        belowMinimum: false,
        createdAt: now,
        checkout: details,
        ...(plan !== undefined && { plan }),
      },
      // Spam is never mailed nor notified. A checkout is not confirmed by a mailed link: the owner confirms it.
      spam === null ? ownerMailPlan(site, false, config) : { queue: false },
    )
    if (result.status === 'created') {
      if (spam === null) outbox.kick()
      request.log.info({ inquiry: result.id, domain: site.host.ascii, spam, checkout: true }, 'checkout stored')
    }
    return result
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const site = sellingSite(request)
    const busy = await underWay(reply, site)
    if (busy) return busy
    const text = TEXTS[site.language]
    // Before anything is checked or counted: a form filled in at other terms is shown again at the file's, the tick
    // cleared, and nothing is stored, so that no buyer is bound to a price they were never shown.
    if (postedTerms(request.body) !== termsOf(site)) {
      const { price, vat } = priceOf(site)
      request.log.info({ domain: site.host.ascii }, 'checkout sent at other terms than listed: shown again')
      return showForm(reply, site, 409, {
        values: typedAgain(site, request.body),
        fieldErrors: { [CHECKOUT_FIELD.binding]: text.checkoutHintBinding },
        error: text.checkoutTermsChanged(vat ? `${price} ${vat}` : price),
        chosen: fieldsOf(request.body)[CHECKOUT_FIELD.payment] === 'instalments',
      })
    }
    const check = checkCheckout(request.body, site.language)
    if (check.status === 'invalid') {
      if (Object.keys(check.fieldErrors).length === 0) throw new HttpError(403, text.tokenInvalid)
      throw new HttpError(400, text.invalid, check.fieldErrors as FieldErrors)
    }
    const { data } = check
    if (mailboxOf(data[CHECKOUT_FIELD.email]) === null) throw new HttpError(400, text.invalid, { [CHECKOUT_FIELD.email]: text.hintEmail } as FieldErrors)
    const token = verifyToken(secret, data[CHECKOUT_FIELD.token], site.host.ascii, data[CHECKOUT_FIELD.hash])
    if (token.status !== 'valid') throw new HttpError(403, text.tokenInvalid)
    await acceptSubmission(
      {
        quota: accepted,
        clientKey: clientKey(request),
        limit: config.contactRateLimit,
        // A repeat of a checkout already taken (same token and content: a token is shared within its second) is answered.
        stored: async () => (await store.findInquiry(data[CHECKOUT_FIELD.token], checkoutContent(site, data).digest)) !== null,
        full: (seconds) => new HttpError(429, text.rateLimited, undefined, { 'retry-after': String(seconds) }),
        log: request.log,
      },
      async () => (await saveCheckout(request, site, data, token.issuedAt)).status === 'created',
    )
    return reply.code(303).header('cache-control', 'no-store').redirect(`${CHECKOUT_PATH}?gesendet=1`, 303)
  }
  return { failed, form, handle }
}

export type CheckoutHandlers = ReturnType<typeof checkoutHandlers>
