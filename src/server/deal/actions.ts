// A step of the negotiation, as the console and the CLI take it: the amount read in the inquiry's currency, the
// owner's template filled in, then the store's one transaction (reply, mail, state).
import { NOTE_MAX } from '../../shared/console-api.ts'
import { parseOffer } from '../../shared/contact.ts'
import type { Config } from '../config.ts'
import { DEFAULT_TEMPLATES, renderDealText, templateFor } from '../mail/deal-mail.ts'
import { notifyUrlsFor } from '../notify/routing.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import type { DealResult, InquiryStatus, StoredInquiry, Store } from '../store/types.ts'
import { dealUrl, newDealLink } from './link.ts'
import { toMinor } from './money.ts'
import { dealKeyOf, sealLinkToken } from './seal.ts'

const DAY_MS = 24 * 60 * 60 * 1000
export const MAX_COUNTER_DAYS = 365

export type DealRequest =
  | { kind: 'counter'; amount: string; days?: number; note?: string }
  | { kind: 'accept'; note?: string; confirmExpired?: boolean }
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

export interface DealContext {
  store: Store
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

export async function takeDealStep(context: DealContext, id: number, request: DealRequest, now: number): Promise<DealOutcome> {
  const { store, config, domains } = context
  const note = request.note ?? ''
  if (note.length > NOTE_MAX) return { status: 'note-too-long' }
  const inquiry = await store.getInquiry(id)
  if (!inquiry) return { status: 'not-found' }
  // The rule lives here, not in the console's buttons: the CLI and every route take their steps through this function.
  if (request.kind === 'counter' && inquiry.checkout) return { status: 'checkout-counter' }
  const currency = currencyOf(inquiry, domains)
  // A checkout of an English buyer is confirmed or declined in English (decision 037).
  const templateKind = templateFor(request.kind, inquiry)
  const template = (await store.dealTemplates())[templateKind] ?? DEFAULT_TEMPLATES[templateKind]
  const step = { to: inquiry.email, replyTo: settingsOf(domains, inquiry.domain).mailTo ?? config.mailTo, now }
  const text = (amount: number | null, expiresAt?: number, link?: string) =>
    renderDealText(templateKind, template, { domain: inquiry.domain, amount, currency, note, ...(expiresAt !== undefined && { expiresAt }), ...(link !== undefined && { link }) })
  const queued = (result: DealResult, body: string, amount: number | null, expiresAt?: number): DealOutcome =>
    result.status === 'queued' ? { ...result, body, to: inquiry.email, amount, currency, ...(expiresAt !== undefined && { expiresAt }) } : result
  switch (request.kind) {
    case 'counter': {
      const amount = parseOffer(request.amount, currency)
      if (typeof amount !== 'number' || amount < 1) return { status: 'bad-amount', currency }
      const days = request.days ?? config.counterOfferDays
      if (!Number.isInteger(days) || days < 1 || days > MAX_COUNTER_DAYS) return { status: 'bad-days' }
      const expiresAt = now + days * DAY_MS
      const body = text(amount, expiresAt)
      return queued(await store.counterOffer(id, { ...step, amount, expiresAt, body }), body, amount, expiresAt)
    }
    case 'accept': {
      // What is agreed: the counter-offer the visitor takes up, else the visitor's own offer.
      const amount = inquiry.counter?.amount ?? inquiry.offer?.amount ?? null
      // With an agreed amount the acceptance makes a deal, whose page the mail links to (docs/deals.md). Without
      // one there is nothing to pay yet: the mail says "wie besprochen" and no deal is made.
      const link = amount === null ? undefined : newDealLink(context.secret)
      const url = link && dealUrl(inquiry.domain, link.token)
      const body = text(amount, undefined, url ?? '')
      const deal = link && {
        linkHash: link.linkHash,
        linkSealed: sealLinkToken(dealKeyOf(config), link.linkHash, link.token),
        amount: toMinor(amount!, currency),
        currency,
        paymentDueAt: now + config.deal.paymentDays * DAY_MS,
        transferDays: config.deal.transferDays,
        notify: notifyUrlsFor(settingsOf(domains, inquiry.domain), config),
      }
      const result = await store.accept(id, { ...step, amount, confirmExpired: request.confirmExpired === true, body, ...(deal && { deal }) })
      const outcome = queued(result, body, amount)
      return outcome.status === 'queued' && result.status === 'queued' && result.dealId !== undefined ? { ...outcome, deal: { id: result.dealId, url: url! } } : outcome
    }
    case 'decline': {
      const body = text(null)
      return queued(await store.decline(id, { ...step, body }), body, null)
    }
  }
}

/** A counter-offer whose time has run out, whether or not the hourly job has marked it yet. */
export const counterExpired = (inquiry: { status: string; counter?: { expiresAt: number } }, now: number) =>
  inquiry.status === 'expired' || (inquiry.status === 'countered' && inquiry.counter !== undefined && inquiry.counter.expiresAt <= now)
