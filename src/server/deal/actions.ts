// A step of the negotiation, as the console and the CLI take it, in one unit of work (decision 060): the inquiry
// locked and read once, the amount read in its currency, the owner's template filled in, the state it starts from
// checked (decision 037), then the step recorded (an acceptance's deal, the reply and its mail, the inquiry's state).
import { NOTE_MAX } from '../../shared/console-api.ts'
import { parseOffer } from '../../shared/contact.ts'
import type { Config } from '../config.ts'
import type { Language } from '../../shared/language.ts'
import { BUYER_WORDS } from '../mail/buyer-words.ts'
import { DEFAULT_TEMPLATES, renderDealText, templateFor } from '../mail/deal-mail.ts'
import { notifyUrlsFor } from '../notify/routing.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import type { DealResult, InquiryStatus, StoredInquiry, Store } from '../store/types.ts'
import { counterUpdate, negotiationRefusal, recordNegotiationStep, type DealKind, type NegotiationStep, type NegotiationUpdate } from '../store/negotiation.ts'
import { dealTemplates } from '../store/tables/deal-templates.ts'
import { lockInquiry, type LockedInquiry } from '../store/tables/inquiries.ts'
import type { Work } from '../store/unit-of-work.ts'
import { dealUrl, newDealLink } from './link.ts'
import { formatMinor, toMinor } from '../lib/money.ts'
import { dealKeyOf, sealLinkToken } from './seal.ts'
import { berlinDayAfter, instalmentSchedule, splitAmount, planProblem, type PlanProblem, type PlanTransfer } from './instalments.ts'
import type { OfferedPlan } from '../store/types.ts'

const DAY_MS = 24 * 60 * 60 * 1000
export const MAX_COUNTER_DAYS = 365

/**
 * An instalment plan as the owner offers it (decision 042): the number of monthly rates, a down payment in whole
 * units as typed (empty: none), when the name moves. On "Annehmen", null says: paid at once, whatever was offered.
 */
export interface PlanRequest {
  rates: number
  downPayment?: string
  transfer?: PlanTransfer
}

export type DealRequest =
  | { kind: 'counter'; amount: string; days?: number; note?: string; plan?: PlanRequest }
  | { kind: 'accept'; note?: string; confirmExpired?: boolean; plan?: PlanRequest | null }
  | { kind: 'decline'; note?: string }

/** What was queued: the mail's text, to whom, and the amount (with the counter-offer's end). */
interface QueuedStep {
  status: 'queued'
  replyId: number
  inquiryStatus: InquiryStatus
  body: string
  to: string
  amount: number | null
  currency: string
  expiresAt?: number
  /** The deal an acceptance with an agreed amount made or renewed, and the link to its page (in the mail). */
  deal?: { id: number; url: string }
}

export type DealOutcome =
  | QueuedStep
  | Exclude<DealResult, { status: 'queued' }>
  | { status: 'bad-amount'; currency: string }
  | { status: 'bad-days' }
  | { status: 'note-too-long' }
  /** A checkout is bought at the listed price: confirmed or declined, never countered (decision 037). */
  | { status: 'checkout-counter' }
  /** The plan cannot split this amount: a count outside 2–60, or a down payment that leaves too little. */
  | { status: 'bad-plan'; problem: PlanProblem | 'down-payment-amount' }

export interface DealContext {
  store: Pick<Store, 'transact'>
  config: Pick<Config, 'mailTo' | 'counterOfferDays' | 'deal' | 'dataDir' | 'notify'>
  /** Signs the deal page's link (the store's secret, or CONTACT_SECRET, as the server's). */
  secret: string
  /** The domains file in force. */
  domains: DomainsConfig
}

const settingsOf = (domains: DomainsConfig, ascii: string) => domains.resolve(ascii)?.settings ?? domains.default

/**
 * The inquiry's currency: its offer's, else the domain's now (a counter-offer to an inquiry without an offer is
 * made in what the page asks in).
 */
export const currencyOf = (inquiry: StoredInquiry, domains: DomainsConfig) => inquiry.offer?.currency ?? settingsOf(domains, inquiry.domain).currency ?? 'EUR'

/** The plan read in the inquiry's currency and checked against the amount (whole units); or why not. */
function readPlan(request: PlanRequest, amount: number, currency: string): OfferedPlan | { status: 'bad-plan'; problem: PlanProblem | 'down-payment-amount' } {
  const typed = request.downPayment?.trim() ?? ''
  const down = typed === '' ? 0 : parseOffer(typed, currency)
  if (typeof down !== 'number' || down < 0) return { status: 'bad-plan', problem: 'down-payment-amount' }
  const plan = { rates: request.rates, downPayment: toMinor(down, currency), transfer: request.transfer ?? 'after-last' }
  const problem = planProblem(toMinor(amount, currency), plan)
  return problem ? { status: 'bad-plan', problem } : plan
}

export async function takeDealStep(context: DealContext, id: number, request: DealRequest, now: number): Promise<DealOutcome> {
  const note = request.note ?? ''
  if (note.length > NOTE_MAX) return { status: 'note-too-long' }
  return context.store.transact(async (work) => {
    const inquiry = await lockInquiry(work, id)
    return inquiry ? composeStep(context, work, inquiry, request, note, now) : { status: 'not-found' }
  })
}

/** The step composed from the inquiry as the work locked it, checked and recorded in the same work. */
async function composeStep(context: DealContext, work: Work, inquiry: LockedInquiry, request: DealRequest, note: string, now: number): Promise<DealOutcome> {
  const { config, domains } = context
  const record = async (kind: DealKind, step: NegotiationStep, update: NegotiationUpdate): Promise<DealResult> =>
    (await negotiationRefusal(work, inquiry, kind, step)) ?? recordNegotiationStep(work, inquiry, kind, step, update)
  // The rule lives here, not in the console's buttons: the CLI and every route take their steps through this function.
  if (request.kind === 'counter' && inquiry.checkout) return { status: 'checkout-counter' }
  const currency = currencyOf(inquiry, domains)
  // A checkout of an English buyer is confirmed or declined in English (decision 037).
  const templateKind = templateFor(request.kind, inquiry)
  const template = (await dealTemplates(work.trx))[templateKind] ?? DEFAULT_TEMPLATES[templateKind]
  const step = { to: inquiry.email, replyTo: settingsOf(domains, inquiry.domain).mailTo ?? config.mailTo, now }
  const text = (amount: number | null, expiresAt?: number, link?: string) =>
    renderDealText(templateKind, template, {
      domain: inquiry.domain,
      amount,
      currency,
      note,
      ...(expiresAt !== undefined && { expiresAt }),
      ...(link !== undefined && { link }),
    })
  const queued = (result: DealResult, body: string, amount: number | null, expiresAt?: number): DealOutcome =>
    result.status === 'queued' ? { ...result, body, to: inquiry.email, amount, currency, ...(expiresAt !== undefined && { expiresAt }) } : result
  switch (request.kind) {
    case 'counter': {
      const amount = parseOffer(request.amount, currency)
      if (typeof amount !== 'number' || amount < 1) return { status: 'bad-amount', currency }
      const days = request.days ?? config.counterOfferDays
      if (!Number.isInteger(days) || days < 1 || days > MAX_COUNTER_DAYS) return { status: 'bad-days' }
      const expiresAt = now + days * DAY_MS
      const plan = request.plan && readPlan(request.plan, amount, currency)
      if (plan && 'status' in plan) return plan
      const body = text(amount, expiresAt) + (plan ? planSentence(plan, toMinor(amount, currency), currency, inquiry.language) : '')
      return queued(await record('counter', { ...step, amount, body }, counterUpdate({ amount, expiresAt, plan })), body, amount, expiresAt)
    }
    case 'accept': {
      // What is agreed: the counter-offer the visitor takes up, else the visitor's own offer.
      const amount = inquiry.counter?.amount ?? inquiry.offer?.amount ?? null
      // With an agreed amount the acceptance makes a deal, whose page the mail links to (docs/deals.md). Without
      // one there is nothing to pay yet: the mail says "wie besprochen" and no deal is made.
      // The plan given now, else the one offered with the counter-offer or chosen at the checkout; null: at once.
      const read = amount === null || request.plan === null ? undefined : request.plan ? readPlan(request.plan, amount, currency) : inquiry.plan
      if (read && 'status' in read) return read
      if (read && amount !== null && planProblem(toMinor(amount, currency), read))
        return { status: 'bad-plan', problem: planProblem(toMinor(amount, currency), read)! }
      const paymentDueAt = now + config.deal.paymentDays * DAY_MS
      const rates = read && amount !== null ? instalmentSchedule(toMinor(amount, currency), read, berlinDayAfter(now, config.deal.paymentDays)) : undefined
      const link = amount === null ? undefined : newDealLink(context.secret)
      const url = link && dealUrl(inquiry.domain, link.token)
      const body =
        text(amount, undefined, url ?? '') + (read && amount !== null ? planSentence(read, toMinor(amount, currency), currency, inquiry.language) : '')
      const deal = link && {
        linkHash: link.linkHash,
        linkSealed: sealLinkToken(dealKeyOf(config), link.linkHash, link.token),
        amount: toMinor(amount!, currency),
        currency,
        // A plan is paid when its last rate is: that is its payment deadline.
        paymentDueAt: rates ? rates[rates.length - 1]!.dueAt : paymentDueAt,
        transferDays: config.deal.transferDays,
        notify: notifyUrlsFor(settingsOf(domains, inquiry.domain), config),
        ...(read && rates && { plan: { transfer: read.transfer, rates } }),
      }
      const result = await record('accept', { ...step, amount, confirmExpired: request.confirmExpired === true, body, ...(deal && { deal }) }, {})
      const outcome = queued(result, body, amount)
      return outcome.status === 'queued' && result.status === 'queued' && result.dealId !== undefined
        ? { ...outcome, deal: { id: result.dealId, url: url! } }
        : outcome
    }
    case 'decline': {
      const body = text(null)
      return queued(await record('decline', { ...step, amount: null, body }, {}), body, null)
    }
  }
}

/**
 * The plan in the mail's words, added after the owner's template (which knows nothing of rates): how many, the down
 * payment, when the name moves. The schedule with each rate's reference is on the deal page. Exported for
 * buyer-mails.test.ts.
 */
export function planSentence(plan: OfferedPlan, total: number, currency: string, language: Language): string {
  const rates = splitAmount(total, plan.rates, plan.downPayment)
  const rate = formatMinor(rates[0]!, currency, language)
  const down = plan.downPayment > 0 ? formatMinor(plan.downPayment, currency, language) : null
  return BUYER_WORDS[language].plan({ down, rates: plan.rates, rate, lastLess: rates[0] !== rates[rates.length - 1], atOnce: plan.transfer === 'at-once' })
}

/** A counter-offer whose time has run out, whether or not the hourly job has marked it yet. */
export const counterExpired = (inquiry: { status: string; counter?: { expiresAt: number } }, now: number) =>
  inquiry.status === 'expired' || (inquiry.status === 'countered' && inquiry.counter !== undefined && inquiry.counter.expiresAt <= now)
